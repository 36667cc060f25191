"""State: what the last build of an output folder read, kept for the next one.

Body HTML is not kept: a page whose inputs did not change is reused from the last site
(write.SiteWriter), and a page that must change is rendered from its text, never taken from
a file that anyone could have edited.

The state is data: JSON, validated on load (pydantic, extra="forbid"). A file that is not
this code's state, or does not validate, is moved aside and the build starts afresh; nothing
in it is ever run.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from generator.core.clock import now
from generator.core.codeversion import code_version
from generator.guides.project import Project
from generator.guides.store import REVIEW_DIR
from generator.site.inputs import changed_paths, guide_of_path, own_files, records_key
from generator.site.model import RelatedIndex
from generator.site.select import GuideHead, KnownPick, Picked
from generator.site.storage import move_aside, no_collection
from generator.sources.records import Source, SourceSet, load_sources
from generator.sources.topics import Topic

STATE_VERSION = 4
SUFFIX = ".json"


@dataclass
class SiteState:
    """The last build's parsed records and picks, each with the signature of its inputs.

    Kept beside the manifest as JSON, readable by this user only (see read_state).
    """

    code: str = ""
    base: str = ""
    # The signature of every input file as the picks below saw it (before this build marked
    # any guide published: those have no kept pick), and the key of what every pick reads
    # (see pick_keys): a guide none of whose files changed since keeps its pick's key.
    signatures: dict[str, str] = field(default_factory=dict)
    common: str = ""
    # Record file path -> (its signature, the parsed record).
    sources: dict[str, tuple[str, Source]] = field(default_factory=dict)
    picks: dict[str, KnownPick] = field(default_factory=dict)
    facts: list[tuple] = field(default_factory=list)
    # What is made from all the records (see records_key): the records in order when none
    # had a problem, the topic hubs and the related-stories index.
    topics_key: str = ""
    records: list[Source] | None = None
    topics: list[Topic] | None = None
    related: RelatedIndex | None = None


# Kept in a file of their own, written again only when a record changed.
RECORD_FIELDS = ("topics_key", "sources", "records", "topics", "related")


class _Kept(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Pick(_Kept):
    key: str
    id: str | None = None
    draft: bool = False
    first_published: date | None = None
    updated: date | None = None
    left_out: str | None = None
    marked_published: bool = False
    flagged: str | None = None
    revision: str | None = None
    head: tuple[str, str, str] | None = None
    content_hash: str | None = None


class _State(_Kept):
    code: str
    base: str
    signatures: dict[str, str]
    common: str
    picks: dict[str, _Pick]
    facts: list[tuple[str, str, bool, date | None, date | None, str, str]]


class _Topic(_Kept):
    key: str
    name: str
    slug: str
    field: str
    total: int
    sources: list[str]  # record file paths
    companies: tuple[str, ...]
    years: tuple[int, int] | None
    undated: int
    techniques: tuple[tuple[str, int], ...]
    stack: tuple[tuple[str, int], ...]
    with_scale: int
    example: tuple[str, str, str] | None
    paragraph: str


class _Records(_Kept):
    code: str
    topics_key: str
    # Record file path -> (its signature, the record as its file gave it).
    sources: dict[str, tuple[str, Source]]
    records: list[str] | None  # record file paths, in order
    topics: list[_Topic] | None
    related: list[str] | None  # record file paths: the index is made again from them


def _read(path: Path, model: type[_Kept], warnings: list[str]) -> _Kept | None:
    """Return the validated content of a kept file, or None (missing, foreign or broken)."""
    try:
        with open(path, "rb") as handle:
            st = os.fstat(handle.fileno())
            if st.st_uid != os.getuid() or st.st_mode & 0o022:
                warnings.append(f"{path}: writable by others; not used")
                return None
            data = handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        move_aside(path, f"unreadable publish state ({why})", warnings)
        return None
    try:
        with no_collection():
            return model.model_validate_json(data)
    except ValidationError:
        move_aside(path, "not a publish state of this version", warnings)
        return None


def _dump(path: Path, data: _Kept) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temp, "wb") as handle:
        os.fchmod(handle.fileno(), 0o600)
        handle.write(data.model_dump_json().encode())
    os.replace(temp, path)


def _records_path(path: Path) -> Path:
    return path.with_name(path.name.replace("state-", "records-", 1))


def _code() -> str:
    return f"{STATE_VERSION}:{code_version()}"


def _pick_of(kept: _Pick) -> KnownPick:
    head = GuideHead(*kept.head) if kept.head is not None else None
    if kept.id is None:
        return KnownPick(kept.key, None, head, kept.content_hash)
    picked = Picked(
        id=kept.id,
        draft=kept.draft,
        first_published=kept.first_published,
        updated=kept.updated,
        left_out=kept.left_out,
        marked_published=kept.marked_published,
        flagged=kept.flagged,
        revision=kept.revision,
    )
    return KnownPick(kept.key, picked, head, kept.content_hash)


def _kept_pick(pick: KnownPick) -> _Pick:
    head = (pick.meta.title, pick.meta.company, pick.meta.source) if pick.meta else None
    picked = pick.picked
    if picked is None:
        return _Pick(key=pick.key, head=head, content_hash=pick.content_hash)
    return _Pick(
        key=pick.key,
        id=picked.id,
        draft=picked.draft,
        first_published=picked.first_published,
        updated=picked.updated,
        left_out=picked.left_out,
        marked_published=picked.marked_published,
        flagged=picked.flagged,
        revision=picked.revision,
        head=head,
        content_hash=pick.content_hash,
    )


def read_state(path: Path, warnings: list[str]) -> SiteState | None:
    """Return the kept state of the last build, or None (missing, another code, broken)."""
    code = _code()
    kept = _read(path, _State, warnings)
    if not isinstance(kept, _State) or kept.code != code:
        return None
    state = SiteState(
        code=kept.code,
        base=kept.base,
        signatures=kept.signatures,
        common=kept.common,
        picks={guide_id: _pick_of(pick) for guide_id, pick in kept.picks.items()},
        facts=list(kept.facts),
    )
    records = _read(_records_path(path), _Records, warnings)
    if isinstance(records, _Records) and records.code == code:
        _restore_records(state, records)
    return state


def _restore_records(state: SiteState, kept: _Records) -> None:
    by_path: dict[str, Source] = {}
    for name, (_signature, source) in kept.sources.items():
        source._path = Path(name)
        by_path[name] = source
    wanted = [*(kept.records or ()), *(kept.related or ())]
    wanted += [name for topic in kept.topics or () for name in topic.sources]
    if any(name not in by_path for name in wanted):
        return  # names a record it does not hold: not used
    state.topics_key = kept.topics_key
    state.sources = dict(kept.sources)
    if kept.records is not None:
        state.records = [by_path[name] for name in kept.records]
    if kept.topics is not None:
        state.topics = [
            Topic(**{**topic.__dict__, "sources": tuple(by_path[n] for n in topic.sources)})
            for topic in kept.topics
        ]
    if kept.related is not None:
        state.related = RelatedIndex([by_path[name] for name in kept.related])


def write_state(path: Path, state: SiteState, *, records_unchanged: bool = False) -> None:
    """Write the state atomically, readable by this user only (the records when changed)."""
    state.code = _code()
    if not records_unchanged or not _records_path(path).exists():
        write_records(path, state)
    kept = _State(
        code=state.code,
        base=state.base,
        signatures=state.signatures,
        common=state.common,
        picks={guide_id: _kept_pick(pick) for guide_id, pick in state.picks.items()},
        facts=state.facts,
    )
    _dump(path, kept)


def write_records(path: Path, state: SiteState) -> None:
    """Write what is made from the records alone (RECORD_FIELDS) beside the state at path.

    The file stands on its own: the records in it carry the signatures of the files they were
    read from, and the rest is reused only under the key of those signatures (topics_key), so
    it may be written before the build's other state, or without it when the build fails.
    Records are named by their file's path; a topic or index over a record not held is not kept.
    """
    names = {id(source): name for name, (_signature, source) in state.sources.items()}

    def paths(sources: object) -> list[str] | None:
        if sources is None:
            return None
        found = [names.get(id(source)) for source in sources]  # type: ignore[attr-defined]
        return None if None in found else found  # type: ignore[return-value]

    topics: list[_Topic] | None = None
    if state.topics is not None:
        topics = []
        for topic in state.topics:
            held = paths(topic.sources)
            if held is None:
                topics = None
                break
            topics.append(_Topic(**{**topic.__dict__, "sources": held}))
    related = paths(state.related.sources) if state.related is not None else None
    kept = _Records(
        code=_code(),
        topics_key=state.topics_key,
        sources=state.sources,
        records=paths(state.records),
        topics=topics,
        related=related,
    )
    _dump(_records_path(path), kept)


def state_path(manifest_path: Path) -> Path:
    """Return where the state of the build whose manifest is manifest_path is kept."""
    return manifest_path.with_name(manifest_path.stem.replace("manifest", "state") + SUFFIX)


def load_sources_cached(
    project: Project,
    signatures: dict[str, str],
    previous: SiteState | None,
    processes: int,
) -> dict[str, tuple[str, Source]]:
    """Read the records, taking those whose file signature is unchanged from the last build.

    Records with a problem are read again every time, so that their errors are reported.
    Returns the entries to keep for the next build.
    """
    records = previous.records if previous is not None else None
    if records is not None and previous.topics_key == records_key(project, signatures):
        project.__dict__["sources"] = SourceSet(sources=list(records))
        return previous.sources
    kept = previous.sources if previous is not None else {}
    known = {name: entry[1] for name, entry in kept.items() if entry[0] == signatures.get(name)}
    ws = project.workspace
    project.__dict__["sources"] = load_sources(
        ws.sources_dir,
        project.today,
        processes=processes,
        root=ws.root,
        known=known,
        share=True,
        index=project.parsed,
    )
    # known now holds every record read, duplicates too: kept for the next build
    return {name: (signatures[name], src) for name, src in known.items() if name in signatures}


def pick_keys(
    project: Project,
    signatures: dict[str, str],
    base: str,
    preview: bool,
    previous: SiteState | None = None,
    records: str | None = None,
) -> tuple[str, dict[str, str]]:
    """Return the key of what every pick reads, and each guide's key of its selection inputs.

    A guide's pick reads its working file, review state (a pending one with the audit log),
    its kept revisions and the records (all of them: the checks know the database's terms),
    with the settings and the date. A guide none of whose files changed since the previous
    build keeps that build's key, when what every pick reads is the same. records is
    records_key(project, signatures) when the caller has it.
    """
    guides = os.fspath(project.guides.dir)
    database = hashlib.sha256(f"{base}\0{preview}\0{now().date()}\0".encode())
    database.update((records or records_key(project, signatures)).encode())
    common = database.hexdigest()
    audit = os.fspath(project.guides.audit_path)
    group = os.fspath(project.guides.group_path)
    if group in signatures:  # a group's states are read from its file and the audit log
        database.update(f"group\0{signatures[group]}\0{signatures.get(audit, '')}".encode())
        common = database.hexdigest()
    stale: set[str] | None = None
    if previous is not None and previous.common == common and previous.signatures:
        changed = changed_paths(previous.signatures, signatures)
        stale = {g for g in (guide_of_path(guides, path) for path in changed) if g is not None}
        if audit in changed:  # a pending state's pick reads the audit log
            review = os.path.join(guides, REVIEW_DIR) + os.sep
            stale.update(
                path[len(review) : -len(".pending")]
                for path in signatures
                if path.endswith(".pending") and path.startswith(review)
            )
        if len(stale) > REKEY_LIMIT:
            stale = None
    keys: dict[str, str] = {}
    if stale is not None:
        assert previous is not None
        for guide_id, pick in previous.picks.items():
            if guide_id not in stale:
                keys[guide_id] = pick.key
        wanted = stale  # a guide without a kept pick had its files changed: it is stale
    else:
        wanted = None
    own: dict[str, list[str]] = {}
    if wanted is not None and len(wanted) <= FEW_GUIDES:
        for guide_id in wanted:
            files = own_files(guides, guide_id, signatures)
            if files:
                own[guide_id] = [f"{path}\0{signatures[path]}" for path in files]
    else:
        for path, signature in signatures.items():
            guide_id = guide_of_path(guides, path)
            if guide_id is not None and (wanted is None or guide_id in wanted):
                own.setdefault(guide_id, []).append(f"{path}\0{signature}")
    audit_signature = signatures.get(audit, "")
    for guide_id, files in own.items():
        digest = hashlib.sha256(common.encode())
        for line in sorted(files):
            digest.update(line.encode() + b"\n")
        if any(line.split("\0", 1)[0].endswith(".pending") for line in files):
            digest.update(f"audit\0{audit_signature}".encode())
        keys[guide_id] = digest.hexdigest()
    return common, keys


# More guides with changed files than this: key them all again, in one pass.
REKEY_LIMIT = 200
# Up to this many guides to key: find each one's files by name instead of in one pass.
FEW_GUIDES = 8
