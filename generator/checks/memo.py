"""What a run of the checks gave, kept under the file signatures of everything it read.

A guide's check row is keyed by the world (every record file, the ledger, the settings, the
checks' code version and the date) and its working file; a whole run, by the world and every
row key in order. A command over unchanged files reads its results here, in one lookup,
without loading the rule engine (checks/runner.py runs the rules for the rest).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property

from pydantic import BaseModel, ConfigDict, ValidationError

from generator.checks.verdictstore import FILE_NAME, VerdictStore, code_version, digest, signature
from generator.core.config import CONFIG_NAME
from generator.guides.findings import Finding, Tallied
from generator.guides.project import Project
from generator.guides.store import check_id
from generator.sources.records import source_names
from generator.verify.ledger import ledger_path


@dataclass(frozen=True)
class GuideCheck(Tallied):
    """The findings of one guide, or of why it could not be checked."""

    id: str
    status: str
    findings: list[Finding]

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "status": self.status,
            "findings": [finding.model_dump() for finding in self.findings],
        }


class KeptRun(BaseModel):
    """A whole run's results as kept: each guide's id and status, and any findings it has."""

    model_config = ConfigDict(extra="forbid")

    ids: list[str]
    statuses: list[str]
    findings: dict[str, list[Finding]]


@dataclass
class CheckPlan:
    """The keys of a check run, and its results when a run over the same files kept them."""

    world: str
    wanted: list[str]
    signatures: dict[str, str]  # each guide's working file's signature
    racy: set[str] = field(default_factory=set)
    run: str | None = None  # the whole run's key (None: some file is too fresh to trust)
    results: list[GuideCheck] | None = None

    @cached_property
    def keys(self) -> dict[str, str]:
        """Return each guide's row key (as row_key makes it)."""
        world = self.world
        return {g: digest([world, g, sig]) for g, sig in self.signatures.items()}


def plan_check(
    project: Project, ids: list[str] | tuple[str, ...] = (), warnings: list[str] | None = None
) -> CheckPlan:
    """Key a check of these guides (or every guide) and take its results if they were kept."""
    store = VerdictStore(project.workspace.state_dir / FILE_NAME, warnings)
    try:
        return make_plan(project, store, ids)
    finally:
        store.close()


def make_plan(project: Project, store: VerdictStore, ids: list[str] | tuple[str, ...]) -> CheckPlan:
    """Key a check run through an open store, and take the results it kept of the same files."""
    wanted = list(ids or project.guides.ids())
    racy_world: list[bool] = []
    world = world_key(project, racy_world, store)
    folder = os.fspath(project.guides.dir)
    signatures: dict[str, str] = {}
    racy: set[str] = set(wanted) if racy_world else set()
    flag: list[bool] = []
    for guide_id in wanted:
        signatures[guide_id] = signature(f"{folder}/{check_id(guide_id)}.md", flag)
        if flag:
            racy.add(guide_id)
            flag.clear()
    plan = CheckPlan(world, wanted, signatures, racy)
    if racy:
        return plan
    plan.run = digest(["run", world, *(f"{g}\0{sig}" for g, sig in signatures.items())])
    text = store.raw("checks", plan.run)
    if text is None:
        return plan
    try:
        kept = KeptRun.model_validate_json(text)
    except ValidationError:
        return plan
    if kept.ids == wanted and len(kept.statuses) == len(wanted):
        found = kept.findings
        plan.results = [
            GuideCheck(g, status, found.get(g, []))
            for g, status in zip(wanted, kept.statuses, strict=True)
        ]
    return plan


def keep_run(store: VerdictStore, plan: CheckPlan, results: list[GuideCheck]) -> None:
    """Keep a whole run's results under its key, unless some file was too fresh to trust."""
    if plan.run is None or any(r.status in ("invalid", "missing") for r in results):
        return
    kept = KeptRun(
        ids=[r.id for r in results],
        statuses=[r.status for r in results],
        findings={r.id: r.findings for r in results if r.findings},
    )
    store.put_raw("checks", plan.run, kept.model_dump_json())


def world_key(
    project: Project, racy: list[bool] | None = None, cache: VerdictStore | None = None
) -> str:
    """Key everything a guide's findings read besides its own file, by file signatures.

    The record files (each record, and the database-wide vocabulary made of them all), the
    ledger, the settings, the checks' code version and the date.
    """
    sources = project.workspace.sources_dir
    parts = [code_version(cache), project.today.isoformat(), project.settings.model_dump_json()]
    parts += [signature(project.workspace.root / CONFIG_NAME, racy)]
    parts += [signature(ledger_path(sources), racy)]
    parts += record_signatures(project, racy)
    return digest(parts)


def record_signatures(project: Project, racy: list[bool] | None = None) -> list[str]:
    """Return the signature of every record file, in order."""
    folder = os.fspath(project.workspace.sources_dir)
    names = source_names(project.workspace.sources_dir)
    return [signature(f"{folder}/{name}", racy) for name in names]


def row_key(project: Project, world: str, guide_id: str, racy: list[bool] | None = None) -> str:
    """Key one guide's check row: the world and its working file's signature."""
    path = f"{os.fspath(project.guides.dir)}/{check_id(guide_id)}.md"
    return digest([world, guide_id, signature(path, racy)])


def records_key(project: Project, cache: VerdictStore, racy: list[bool]) -> str:
    """Key what every record file holds, by their signatures, the code version and the date."""
    sources = project.workspace.sources_dir
    parts = ["records", code_version(cache), project.today.isoformat(), str(sources)]
    parts += record_signatures(project, racy)
    return digest(parts)
