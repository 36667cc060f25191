"""State: what the last build of an output folder read, kept for the next one.

Body HTML is not kept: a page whose inputs did not change is reused from the last site
(write.SiteWriter), and a page that must change is rendered from its text, never taken from
a file that anyone could have edited.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.core.clock import now
from generator.core.codeversion import code_version
from generator.guides.project import Project
from generator.guides.store import REVIEW_DIR
from generator.site.inputs import changed_paths, guide_of_path, own_files, records_key
from generator.site.model import RelatedIndex
from generator.site.select import KnownPick
from generator.site.storage import move_aside, no_collection
from generator.sources.records import Source, SourceSet, load_sources
from generator.sources.topics import Topic

STATE_VERSION = 3


@dataclass
class SiteState:
    """The last build's parsed records and picks, each with the signature of its inputs.

    Kept beside the manifest, written only by this process (pickled: it holds parsed records
    and is ours alone; a file others may write is not trusted, see read_state).
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


def _load(path: Path, warnings: list[str]) -> object:
    try:
        with open(path, "rb") as handle:
            st = os.fstat(handle.fileno())
            if st.st_uid != os.getuid() or st.st_mode & 0o022:
                warnings.append(f"{path}: writable by others; not used")
                return None
            with no_collection():
                return pickle.load(handle)
    except FileNotFoundError:
        return None
    except (ImportError, AttributeError):
        return None  # names a module or class that is gone: another code's state, rebuilt
    except Exception as exc:  # noqa: BLE001 - any unreadable state is rebuilt
        move_aside(path, f"unreadable publish state ({type(exc).__name__})", warnings)
        return None


def _dump(path: Path, data: object) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temp, "wb") as handle:
        os.fchmod(handle.fileno(), 0o600)
        pickle.dump(data, handle, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(temp, path)


def _records_path(path: Path) -> Path:
    return path.with_name(path.name.replace("state-", "records-", 1))


def read_state(path: Path, warnings: list[str]) -> SiteState | None:
    """Return the kept state of the last build, or None (missing, another code, broken)."""
    code = f"{STATE_VERSION}:{code_version()}"
    state = _load(path, warnings)
    if not isinstance(state, SiteState) or state.code != code:
        return None
    kept = _load(_records_path(path), warnings)
    if isinstance(kept, dict) and kept.get("code") == code:
        for name in RECORD_FIELDS:
            setattr(state, name, kept[name])
    return state


def write_state(path: Path, state: SiteState, *, records_unchanged: bool = False) -> None:
    """Write the state atomically, readable by this user only (the records when changed)."""
    state.code = f"{STATE_VERSION}:{code_version()}"
    if not records_unchanged or not _records_path(path).exists():
        write_records(path, state)
    _dump(path, replace(state, topics_key="", sources={}, records=None, topics=None, related=None))


def write_records(path: Path, state: SiteState) -> None:
    """Write what is made from the records alone (RECORD_FIELDS) beside the state at path.

    The file stands on its own: the records in it carry the signatures of the files they were
    read from, and the rest is reused only under the key of those signatures (topics_key), so
    it may be written before the build's other state, or without it when the build fails.
    """
    code = f"{STATE_VERSION}:{code_version()}"
    _dump(_records_path(path), {"code": code, **{n: getattr(state, n) for n in RECORD_FIELDS}})


def state_path(manifest_path: Path) -> Path:
    """Return where the state of the build whose manifest is manifest_path is kept."""
    return manifest_path.with_name(manifest_path.stem.replace("manifest", "state") + ".pickle")


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
        ws.sources_dir, project.today, processes=processes, root=ws.root, known=known, share=True
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
