"""Select: which guides go on the site, in which version, after the checks at publish."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import date

from generator.clock import now
from generator.errors import PrepguideError, PublishError, StorageError
from generator.guides import GuideDoc
from generator.livecheck import failure_note, judge_live
from generator.project import Project
from generator.review import live_version, mark_published, read_state
from generator.site.cache import BuildCache
from generator.sources import Source
from generator.store import REVIEW_DIR
from generator.workers import WorkerMap


@dataclass(frozen=True)
class SiteGuide:
    """A guide that goes on the site, in the version that is live (or the draft, in preview)."""

    id: str
    doc: GuideDoc
    source: Source
    draft: bool
    first_published: date | None
    updated: date | None
    marked_published: bool = False

    @property
    def published(self) -> date | None:
        return self.first_published or self.updated

    @property
    def href(self) -> str:
        return f"guides/{self.id}/index.html"


@dataclass(frozen=True)
class Picked:
    """What selection decided for one guide: the version to build, or why it is left out."""

    id: str
    doc: GuideDoc | None = None
    draft: bool = False
    first_published: date | None = None
    updated: date | None = None
    left_out: str | None = None
    verdict_key: str | None = None
    new_verdict: list[str] | None = None
    marked_published: bool = False
    # Why a live text that stays on the site fails current checks.
    flagged: str | None = None


@dataclass
class Selection:
    """The guides a build puts on the site, those it leaves out, and missing working files."""

    guides: list[SiteGuide]
    left_out: dict[str, str]
    missing: list[str]
    # Live guides kept on the site although they fail checks changed since their approval.
    flagged: dict[str, str]


def _date(value: object) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def pick_guide(
    project: Project, guide_id: str, *, preview: bool, cache: BuildCache, strict: bool = False
) -> Picked | None:
    """Decide whether and in which version one guide goes on the site.

    A live text that fails only rules changed since its approval stays live, flagged, unless
    strict; one whose record changed since approval, or whose dated checks fail, is left out.
    """
    try:
        state = read_state(project, guide_id)
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
    if live is not None:
        verdict = judge_live(project, live.doc, source, state.live, cache.verdict)
        remember = {
            "verdict_key": None if verdict.key == state.live.checks_key else verdict.key,
            "new_verdict": verdict.fresh,
        }
        flagged = None
        if verdict.rules:
            note = failure_note(guide_id, verdict)
            if strict or not verdict.fails_new_rules:
                return Picked(guide_id, left_out=note, **remember)
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
            **remember,
            marked_published=marked,
            flagged=flagged,
        )
    status = state.status if state else "draft"
    if preview and status == "draft":
        return Picked(guide_id, doc, draft=True)
    if status == "draft":
        return Picked(guide_id, left_out="draft, not approved yet; run `prepguide review approve`")
    if status == "withdrawn":
        return Picked(guide_id, left_out=f"withdrawn ({state.note})" if state.note else "withdrawn")
    return Picked(guide_id, left_out=status)


def guide_ids(project: Project) -> tuple[list[str], set[str]]:
    """Return every guide with a working file or a review state, and those without the file.

    A guide whose working file was deleted keeps its review state, and so its live version.
    """
    ids = set(project.guides.ids())
    review_dir = project.guides.dir / REVIEW_DIR
    if review_dir.is_dir():
        ids.update(p.stem for p in review_dir.glob("*.json"))
    return sorted(ids), {i for i in ids if not project.guides.path(i).exists()}


def select_guides(
    project: Project,
    *,
    preview: bool,
    cache: BuildCache | None = None,
    processes: int = 1,
) -> tuple[list[SiteGuide], dict[str, str]]:
    """Pick the live version of every approved guide whose checks pass; drafts under preview."""
    selection = select(project, preview=preview, cache=cache, processes=processes)
    return selection.guides, selection.left_out


def select(
    project: Project,
    *,
    preview: bool,
    cache: BuildCache | None = None,
    processes: int = 1,
    strict: bool = False,
) -> Selection:
    """Pick the guides of a build, and name live guides whose working file is missing."""
    cache = cache or BuildCache(None)
    by_id = project.sources.by_id()
    chosen: list[SiteGuide] = []
    left_out: dict[str, str] = {}
    flagged: dict[str, str] = {}
    ids, without_file = guide_ids(project)

    def pick(guide_id: str) -> Picked | None:
        return pick_guide(project, guide_id, preview=preview, cache=cache, strict=strict)

    with WorkerMap(pick, ids, processes) as picks:
        for picked in picks:
            if picked is None:
                continue
            if picked.verdict_key is not None:
                verdict = picked.new_verdict
                cache.record(
                    "verdicts", picked.verdict_key, None if verdict is None else json.dumps(verdict)
                )
            if picked.left_out is not None:
                left_out[picked.id] = picked.left_out
                continue
            assert picked.doc is not None
            if picked.flagged is not None:
                flagged[picked.id] = picked.flagged
            source = by_id[picked.doc.meta.source]
            chosen.append(
                SiteGuide(
                    picked.id,
                    picked.doc,
                    source,
                    picked.draft,
                    picked.first_published,
                    picked.updated,
                    picked.marked_published,
                )
            )
    missing = sorted(g.id for g in chosen if g.id in without_file)
    return Selection(chosen, left_out, missing, flagged)


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
