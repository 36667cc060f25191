"""The queue index's keys: each guide's row by the signatures of its files, and the whole queue.

A row is kept in the verdict store under the signatures of the guide's working file, its
review state and pending files, and the world (checks.memo.world_key); the whole queue, under
the world and every row key in order. A listing over unchanged files reads the queue here in
one lookup, without loading the rules (review/queue.py makes the rows that changed).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property

from pydantic import ConfigDict, TypeAdapter, ValidationError
from typing_extensions import TypedDict  # pydantic reads typing.TypedDict only on 3.12+

from generator.checks.memo import world_key
from generator.checks.verdictstore import FILE_NAME, VerdictStore, digest, signature
from generator.guides.project import Project
from generator.guides.store import GROUP_FILE, PENDING_SUFFIX

STATUSES: tuple[str, ...] = ("draft", "approved", "published", "rejected", "withdrawn")
WITHDRAW_REASONS = ("published in error", "superseded", "withdrawn by request")
# What the index keeps of a guide beyond GuideReview.as_json().
INDEX_EXTRA = ("labels", "title", "company", "topics", "rules")


class QueueRow(TypedDict):
    """What the queue shows of a guide, as review.queue.index_row makes it."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]

    id: str
    status: str
    stale: bool
    edited_after_approval: bool
    missing_file: bool
    errors: int
    warnings: int
    content_hash: str | None
    live_hash: str | None
    live_published: bool
    fails_current_checks: bool
    unaudited: bool
    live_failures: list[str]
    problem: str | None
    labels: list[str]
    title: str | None
    company: str | None
    topics: list[str]
    rules: list[str]


QUEUE = TypeAdapter(list[QueueRow])


@dataclass
class QueuePlan:
    """The keys of a queue listing, and the rows a listing of the same files kept."""

    world: str  # with the group file, when one is under way
    racy_world: bool
    signatures: dict[str, str]  # each guide's files' signatures, joined
    racy: set[str] = field(default_factory=set)
    rows: list[dict] | None = None

    @cached_property
    def keys(self) -> dict[str, str]:
        """Return each guide's row key."""
        world = self.world
        return {g: digest([world, g, sig]) for g, sig in self.signatures.items()}

    @property
    def key(self) -> str | None:
        """Return the whole queue's key (None: some file is too fresh to trust)."""
        if self.racy or self.racy_world:
            return None
        return digest(["queue", self.world, *(f"{g}\0{s}" for g, s in self.signatures.items())])


def plan_queue(project: Project, warnings: list[str] | None = None) -> QueuePlan:
    """Key the queue of every guide and take its rows if a listing of the same files kept them."""
    store = VerdictStore(project.workspace.state_dir / FILE_NAME, warnings)
    try:
        return make_plan(project, store)
    finally:
        store.close()


def make_plan(
    project: Project,
    store: VerdictStore,
    world: tuple[str, bool] | None = None,
    kept: bool = True,
) -> QueuePlan:
    """Key the queue through an open store (world: its key and raciness, if just made).

    kept: also take the kept queue when its key is the same (False: the caller holds the
    last rows itself and needs only the keys).
    """
    if world is None:
        racy_world: list[bool] = []
        world = (world_key(project, racy_world, store), bool(racy_world))
    racy_world = [True] if world[1] else []
    full, signatures, racy = row_signatures(project, world[0], racy_world)
    plan = QueuePlan(full, bool(racy_world), signatures, racy)
    key = plan.key
    text = store.raw("queue", key) if key is not None and kept else None
    if text is None:
        return plan
    try:
        rows = QUEUE.validate_json(text)
    except ValidationError:
        return plan
    if [row["id"] for row in rows] == list(signatures):
        plan.rows = rows  # type: ignore[assignment]
    return plan


def keep_queue(store: VerdictStore, plan: QueuePlan, rows: list[dict]) -> None:
    """Keep the whole queue's rows under its key, unless some file was too fresh to trust."""
    key = plan.key
    if key is not None and all(row["status"] != "unreadable" for row in rows):
        store.put_raw("queue", key, QUEUE.dump_json(rows).decode())  # type: ignore[arg-type]


def row_signatures(
    project: Project, world: str, racy_world: list[bool]
) -> tuple[str, dict[str, str], set[str]]:
    """Sign each guide's working file, review state and pending file; name the racy guides.

    One listing of guides/.review tells which state files exist: only those are looked at.
    Returns the world (with the group file's signature while one exists), the signatures by
    guide and the guides changed too recently to trust; racy_world becomes [True] if the
    group file is.
    """
    guides = project.guides
    ids = guides.ids()
    if not ids:
        return world, {}, set()
    folder = os.fspath(guides.dir)
    states = os.fspath(guides.review_path(ids[0]).parent)
    try:
        present = set(os.listdir(states))
    except OSError:
        present = set()
    if GROUP_FILE in present:  # a group under way or killed: its states come from its file
        group = signature(f"{states}/{GROUP_FILE}", racy_world)
        world = digest([world, group, signature(os.fspath(guides.audit_path), [])])
    signatures: dict[str, str] = {}
    racy: set[str] = set(ids) if racy_world else set()
    flag: list[bool] = []
    for guide_id in ids:
        parts = [signature(f"{folder}/{guide_id}.md", flag)]
        for name in (f"{guide_id}.json", f"{guide_id}{PENDING_SUFFIX}"):
            path = f"{states}/{name}"
            parts.append(signature(path, flag) if name in present else f"{path}:absent")
        signatures[guide_id] = "\0".join(parts)
        if flag:
            racy.add(guide_id)
            flag.clear()
    return world, signatures, racy
