"""Select: which guides go on the site, in which version, after the checks at publish."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date

from generator.checks.verdicts import VerdictCache
from generator.core.clock import now
from generator.core.errors import PrepguideError, PublishError, StorageError
from generator.core.fsio import sha256_text
from generator.core.workers import WorkerMap
from generator.guides.document import FRONT_MATTER, GuideDoc, GuideMeta
from generator.guides.project import Project
from generator.guides.store import PENDING_SUFFIX, REVIEW_DIR, visible_names
from generator.review import live_version, mark_published, read_state
from generator.review.recheck import failure_note, judge_live
from generator.sources.records import Source


@dataclass(frozen=True)
class GuideHead:
    """What pages show of a guide's front matter: its title, company and record."""

    title: str
    company: str
    source: str

    @classmethod
    def of(cls, meta: GuideMeta) -> GuideHead:
        return cls(meta.title, meta.company, meta.source)


@dataclass(frozen=True)
class SiteGuide:
    """A guide that goes on the site, in the version that is live (or the draft, in preview).

    The text itself (body) is read when a page needs it; the title, company and record
    (meta) and content_hash are at hand.
    """

    id: str
    meta: GuideHead
    content_hash: str
    source: Source
    draft: bool
    first_published: date | None
    updated: date | None
    marked_published: bool = False
    loaded: str | None = field(default=None, repr=False, compare=False)
    loader: Callable[[], str] | None = field(default=None, repr=False, compare=False)

    @property
    def body(self) -> str:
        """Return the text that goes on the site, checked against its hash.

        It is read each time it is asked for, unless the guide was made with it (loaded):
        a build renders each page once, and keeping every text would weigh more than the
        rest of the build together.
        """
        if self.loaded is not None:
            return self.loaded
        assert self.loader is not None
        body = self.loader()
        if sha256_text(body) != self.content_hash:
            raise PublishError(
                "the guide's text changed while the site was being built; publish again",
                record_id=self.id,
                rule="publish.changed",
            )
        return body

    @property
    def published(self) -> date | None:
        return self.first_published or self.updated

    @property
    def href(self) -> str:
        return f"guides/{self.id}/index.html"

    @property
    def facts(self) -> tuple:
        """Return what pages other than the guide's own show of it (listings, cards, feeds)."""
        return (
            self.id,
            self.source.key,
            self.draft,
            self.first_published,
            self.updated,
            self.meta.title,
            self.meta.company,
        )


@dataclass(frozen=True)
class Picked:
    """What selection decided for one guide: the version to build, or why it is left out."""

    id: str
    doc: GuideDoc | None = None
    draft: bool = False
    first_published: date | None = None
    updated: date | None = None
    left_out: str | None = None
    marked_published: bool = False
    # Why a live text that stays on the site fails current checks.
    flagged: str | None = None
    # The live revision's file name (in guides/.history/<id>/); None for a draft.
    revision: str | None = None
    # What pages show of the text and its hash, kept when the text itself is let go (slim).
    head: GuideHead | None = None
    content_hash: str | None = None

    def slim(self) -> Picked:
        """Return this pick without its text, which is read again when a page needs it.

        A build holds every guide's pick at once: their texts would weigh more than the
        rest of the build together, in this process and in every worker forked from it.
        """
        if self.doc is None:
            return self
        return replace(
            self,
            doc=None,
            head=GuideHead.of(self.doc.meta),
            # A live text's hash was checked against the approved one as it was read.
            content_hash=self.content_hash or self.doc.content_hash,
        )


@dataclass
class Selection:
    """The guides a build puts on the site, those it leaves out, and missing working files."""

    guides: list[SiteGuide]
    left_out: dict[str, str]
    missing: list[str]
    # Live guides kept on the site although they fail checks changed since their approval.
    flagged: dict[str, str] = field(default_factory=dict)
    # Every guide's pick with the key of its inputs, for the next build (see select()).
    picks: dict[str, KnownPick] = field(default_factory=dict)
    # The guides read and checked again (not taken from the last build).
    repicked: set[str] = field(default_factory=set)


EXAMPLE_NOTE = (
    "its record is an example (example: true), which is never published; replace it with a "
    "write-up of your own"
)


def _date(value: object) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def pick_guide(
    project: Project,
    guide_id: str,
    *,
    preview: bool,
    cache: VerdictCache | None,
    strict: bool = False,
    pending: bool = True,
) -> Picked | None:
    """Decide whether and in which version one guide goes on the site.

    A live text that fails only rules changed since its approval stays live, flagged, unless
    strict; one whose record changed since approval, or whose dated checks fail, is left out.
    pending=False: a listing of the review folder just showed no pending state for the guide.
    """
    try:
        state = read_state(project, guide_id, pending=pending)
        live = live_version(project, guide_id, state) if state and state.live else None
        doc = live.doc if live else project.guides.read(guide_id)
    except PrepguideError as exc:
        return Picked(guide_id, left_out=f"cannot read the guide or its review state: {exc}")
    if doc is None:
        return None
    source = project.sources.by_id().get(doc.meta.source)
    if source is None:
        return Picked(
            guide_id,
            left_out=f"no valid source record {doc.meta.source!r}; run `prepguide sources check`",
        )
    if source.example and not preview:
        return Picked(guide_id, left_out=EXAMPLE_NOTE)
    if live is not None:
        verdict = judge_live(project, live.doc, source, state.live, cache)
        flagged = None
        if verdict.rules:
            note = failure_note(guide_id, verdict)
            if strict or not verdict.fails_new_rules:
                return Picked(guide_id, left_out=note)
            flagged = note
        marked = bool(state.live.published_at)
        # The date this build's publication records, so that the pages show it already.
        first = _date(live.first_published) or (None if marked else now().date())
        updated = _date(live.updated)
        return Picked(
            guide_id,
            live.doc,
            False,
            first,
            updated,
            None,
            marked_published=marked,
            flagged=flagged,
            revision=state.live.revision,
            content_hash=live.content_hash,
        )
    status = state.status if state else "draft"
    if preview and status == "draft":
        return Picked(guide_id, doc, draft=True)
    if status == "draft":
        return Picked(guide_id, left_out="draft, not approved yet; run `prepguide review approve`")
    if status == "withdrawn":
        return Picked(guide_id, left_out=f"withdrawn ({state.note})" if state.note else "withdrawn")
    return Picked(guide_id, left_out=status)


def guide_ids(project: Project) -> tuple[list[str], set[str], set[str]]:
    """Return every guide with a file or a review state, those without the file, the pending.

    The pending have a pending review state: a transition under way, or left by a killed run.
    A guide whose working file was deleted keeps its review state, and so its live version.
    """
    names = visible_names(project.guides.dir)
    with_file = {name[:-3] for name in names if name.endswith(".md")}
    reviews = visible_names(project.guides.dir / REVIEW_DIR)
    ids = with_file | {name[:-5] for name in reviews if name.endswith(".json")}
    pending = {
        name.removesuffix(PENDING_SUFFIX) for name in reviews if name.endswith(PENDING_SUFFIX)
    }
    return sorted(ids), ids - with_file, pending


def select_guides(
    project: Project,
    *,
    preview: bool,
    cache: VerdictCache | None = None,
    processes: int = 1,
) -> tuple[list[SiteGuide], dict[str, str]]:
    """Pick the live version of every approved guide whose checks pass; drafts under preview."""
    selection = select(project, preview=preview, cache=cache, processes=processes)
    return selection.guides, selection.left_out


def select(
    project: Project,
    *,
    preview: bool,
    cache: VerdictCache | None = None,
    processes: int = 1,
    known: dict[str, KnownPick] | None = None,
    pick_keys: dict[str, str] | None = None,
    strict: bool = False,
    meanwhile: Callable[[], object] | None = None,
) -> Selection:
    """Pick the guides of a build, and name live guides whose working file is missing.

    known holds the last build's picks by guide: one whose inputs have the same key in
    pick_keys is taken as it is instead of being read and checked again. meanwhile runs
    here while worker processes pick (with none, before the picks).
    """
    by_id = project.sources.by_id()
    chosen: list[SiteGuide] = []
    left_out: dict[str, str] = {}
    flagged: dict[str, str] = {}
    # A pending file is looked for only where the listing showed one: one that appears
    # later belongs to a transition that had not begun when this build looked.
    ids, without_file, pending = guide_ids(project)
    keys = pick_keys or {}
    reused: dict[str, KnownPick] = {}
    if known:
        for guide_id in ids:
            entry = known.get(guide_id)
            if entry is not None and keys.get(guide_id) == entry.key:
                reused[guide_id] = entry
    fresh_ids = [guide_id for guide_id in ids if guide_id not in reused]

    def pick(guide_id: str) -> Picked | None:
        picked = pick_guide(
            project,
            guide_id,
            preview=preview,
            cache=cache,
            strict=strict,
            pending=guide_id in pending,
        )
        return picked.slim() if picked is not None else None

    picks: dict[str, KnownPick] = {}
    # The workers pick; this process does what meanwhile asks, and holds none of the checks'
    # caches, so that the workers forked later to render start from a lean process.
    with WorkerMap(pick, fresh_ids, processes) as fresh:
        if meanwhile is not None:
            meanwhile()
        results = {guide_id: picked for guide_id, picked in zip(fresh_ids, fresh, strict=True)}
    for guide_id in ids:
        entry = reused.get(guide_id)
        picked = entry.picked if entry is not None else results[guide_id]
        if picked is None:
            if guide_id in keys:
                picks[guide_id] = KnownPick(keys[guide_id], None)
            continue
        if guide_id in keys:
            picks[guide_id] = entry or KnownPick.of(keys[guide_id], picked)
        if picked.left_out is not None:
            left_out[picked.id] = picked.left_out
            continue
        if picked.flagged is not None:
            flagged[picked.id] = picked.flagged
        if entry is not None:
            assert entry.meta is not None and entry.content_hash is not None
            meta, content_hash = entry.meta, entry.content_hash
        else:
            assert picked.head is not None and picked.content_hash is not None
            meta, content_hash = picked.head, picked.content_hash
        chosen.append(
            SiteGuide(
                picked.id,
                meta,
                content_hash,
                by_id[meta.source],
                picked.draft,
                picked.first_published,
                picked.updated,
                picked.marked_published,
                loader=_loader(project, picked.id, picked.revision),
            )
        )
    missing = sorted(g.id for g in chosen if g.id in without_file)
    return Selection(chosen, left_out, missing, flagged, picks, set(fresh_ids))


@dataclass(frozen=True)
class KnownPick:
    """A pick kept between builds without its text: valid while its inputs' key is the same."""

    key: str
    picked: Picked | None
    meta: GuideHead | None = None
    content_hash: str | None = None

    @classmethod
    def of(cls, key: str, picked: Picked) -> KnownPick:
        slim = replace(picked.slim(), head=None, content_hash=None)
        return cls(key, slim, picked.head, picked.content_hash)


def _loader(project: Project, guide_id: str, revision: str | None) -> Callable[[], str]:
    """Return what reads a guide's text again: its live revision (by name), else its draft."""

    def load() -> str:
        if revision is not None:
            path = project.guides.history_dir(guide_id) / revision
            try:
                match = FRONT_MATTER.match(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                match = None
            if match is not None:
                return match.group(2)
        else:
            doc = project.guides.read(guide_id)
            if doc is not None:
                return doc.body
        raise PublishError(
            "the guide went away while the site was being built; publish again",
            record_id=guide_id,
            rule="publish.changed",
        )

    return load


def record_publication(project: Project, guides: list[SiteGuide]) -> list[SiteGuide]:
    """Record in the review state that these live guides are published; return them marked.

    Called before the new site is swapped in: a guides folder that cannot be written stops
    the build with the old site untouched.
    """
    unmarked = sorted(g.id for g in guides if not g.draft and not g.marked_published)
    if not unmarked:
        return guides
    try:
        mark_published(project, unmarked)
    except (OSError, StorageError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else exc.message
        where = exc.filename if isinstance(exc, OSError) else exc.path
        raise PublishError(
            f"cannot record the publication in the review state ({why}); the site was "
            "left as it was: make the guides folder writable and publish again",
            path=where or project.guides.dir,
            rule="publish.state",
        ) from exc
    return [replace(g, marked_published=True) if g.id in unmarked else g for g in guides]
