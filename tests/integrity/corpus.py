"""Build the measurement corpus: a real prepguide database, its drafted guides, and every
edit template applied to several of them, deterministically for a seed."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import yaml

from generator.drafting.backends import make_drafter
from generator.drafting.plan import plan_generation
from generator.drafting.run import run_generation
from generator.guides.compose import originals_block
from generator.guides.document import GuideDoc, serialize
from generator.guides.project import Project

from . import (
    legit_more,
    legit_ours,
    legit_reports,
    wrong_caught,
    wrong_claims,
    wrong_figures,
    wrong_hidden,
    wrong_more,
    wrong_ours,
)
from .model import Case, GuideInput, Template
from .records import (
    EXTRA_LESSONS,
    FICTIONAL,
    LLM_DRAFTS,
    SEED_HINTS,
    SEED_RECORD,
    SITE_NAME,
    Hints,
    complete,
)
from .text import kind_of

REPO = Path(__file__).resolve().parents[2]
SEED_GUIDE = REPO / "tests" / "data" / "seed_004_guide.txt"
TODAY = date(2026, 11, 30)
PER_TEMPLATE = 4
TEMPLATES: list[Template] = [
    *wrong_claims.R.templates,
    *wrong_figures.R.templates,
    *wrong_hidden.R.templates,
    *wrong_ours.R.templates,
    *wrong_caught.R.templates,
    *wrong_more.R.templates,
    *legit_reports.R.templates,
    *legit_ours.R.templates,
    *legit_more.R.templates,
]


@dataclass
class Corpus:
    root: Path
    project: Project
    guides: dict[str, GuideInput]
    cases: list[Case]


def database_records() -> list[tuple[dict, Hints]]:
    """Every record of the corpus database with its hints: repo samples, fictional, seed."""
    records = []
    for path in sorted((REPO / "sources").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        records.append(complete(path.stem, {"id": path.stem, **data}))
    records += FICTIONAL
    records.append((SEED_RECORD, SEED_HINTS))
    return records


def write_database(root: Path) -> list[tuple[dict, Hints]]:
    """Write sources/, prompts/ (with the editor's extra lessons) and prepguide.toml."""
    records = database_records()
    (root / "sources").mkdir(parents=True)
    for data, _ in records:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        (root / "sources" / f"{data['id']}.yaml").write_text(text, encoding="utf-8")
    shutil.copytree(REPO / "prompts", root / "prompts")
    playbook_path = root / "prompts" / "playbook.yaml"
    playbook = yaml.safe_load(playbook_path.read_text(encoding="utf-8"))
    playbook["lessons"] += EXTRA_LESSONS
    playbook_path.write_text(yaml.safe_dump(playbook, sort_keys=False), encoding="utf-8")
    (root / "prepguide.toml").write_text(
        f'[site]\nname = "{SITE_NAME}"\nbase_url = "https://prepguide.example.org"\n'
        "[checks]\nfreshness_days = 180\n",
        encoding="utf-8",
    )
    return records


def generate(project: Project, backend: str = "offline", ids: list[str] | None = None) -> None:
    """Draft guides through the library's generate path."""
    drafter = make_drafter(project, backend, cache=False)
    plan = plan_generation(project, drafter, ids, force=True)
    report = asyncio.run(run_generation(project, drafter, plan, concurrency=4))
    if report.failed or report.aborted:
        raise RuntimeError(f"generation failed: {report.failed or report.aborted}")


@contextmanager
def environment(**values: str) -> Iterator[None]:
    """Set environment variables for a block, then put the old values back."""
    old = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def generate_with_model(project: Project) -> None:
    """Draft the LLM_DRAFTS guides with the real openai client against the fake server."""
    from fakes.openai_server import FakeOpenAI, Reply

    with FakeOpenAI() as server:
        for guide_id, answer in LLM_DRAFTS.items():
            server.script(Reply(answer), match=project.source(guide_id).title, times=None)
        local = "127.0.0.1,localhost"
        with environment(
            OPENAI_API_KEY="sk-corpus",
            OPENAI_BASE_URL=server.base_url,
            NO_PROXY=local,
            no_proxy=local,
        ):
            generate(project, "openai", list(LLM_DRAFTS))


def seed_body(project: Project) -> str:
    """The human-written seed 004 guide as a guide body of the seed's own record."""
    views = project.originals(project.source(SEED_RECORD["id"]))
    parts: list[str] = []
    for line in SEED_GUIDE.read_text(encoding="utf-8").splitlines():
        if kind_of(line) is not None:
            parts.append(f"## {line}")
            if kind_of(line) == "originals":
                parts.append(originals_block(views))
                break
        elif line.startswith("- ") and parts[-1].startswith("- "):
            parts[-1] += f"\n{line}"
        else:
            parts.append(line)
    return "\n\n".join(parts) + "\n"


def write_body(project: Project, guide_id: str, body: str) -> None:
    """Put a body into a guide file, as an editor saving the file would."""
    doc = project.guides.read(guide_id)
    path = project.guides.path(guide_id)
    path.write_text(serialize(GuideDoc(meta=doc.meta, body=body)), encoding="utf-8")


def build_database(root: Path) -> tuple[Project, dict[str, GuideInput]]:
    """Write the database, generate its guides, and return them as template inputs."""
    records = write_database(root)
    project = Project(root, on_date=TODAY)
    if project.sources.problems:
        raise RuntimeError(f"corpus records invalid: {project.sources.problems}")
    generate(project)
    generate_with_model(project)
    write_body(project, SEED_RECORD["id"], seed_body(project))
    companies = tuple(sorted({data["company"] for data, _ in records}))
    guides = {}
    for data, hints in records:
        doc = project.guides.read(data["id"])
        others = tuple(c for c in companies if c != data["company"])
        guides[data["id"]] = GuideInput(data["id"], doc.body, data, hints, others)
    return project, guides


def apply_templates(
    guides: dict[str, GuideInput],
    seed: int = 13,
    per_template: int = PER_TEMPLATE,
    templates: list[Template] = TEMPLATES,
) -> list[Case]:
    """Apply each template to up to per_template guides it fits, chosen by the seed."""
    cases = []
    for template in templates:
        edited = {}
        for guide_id, guide in sorted(guides.items()):
            after = template.edit(guide, random.Random(f"{seed}:{template.id}:{guide_id}"))
            if after and after != guide.body:
                edited[guide_id] = after
        chosen = sorted(edited)
        random.Random(f"{seed}:{template.id}").shuffle(chosen)
        for guide_id in sorted(chosen[:per_template]):
            kind = template.kind
            cases.append(
                Case(
                    id=f"{template.id}@{guide_id}",
                    template=template.id,
                    kind=kind.name,
                    group=kind.group,
                    families=kind.families,
                    section=template.section,
                    held_out=template.held_out,
                    whole=template.whole,
                    guide=guide_id,
                    before=guides[guide_id].body,
                    after=edited[guide_id],
                )
            )
    return cases


def build_corpus(root: Path, seed: int = 13, per_template: int = PER_TEMPLATE) -> Corpus:
    project, guides = build_database(root)
    return Corpus(root, project, guides, apply_templates(guides, seed, per_template))
