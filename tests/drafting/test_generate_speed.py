"""What makes generate fast keeps its behaviour: the request as sent, finishing drafts in a
forked worker, and a CLI that imports only what a command needs."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from fakes.openai_server import FakeOpenAI, Reply, draft_for, write_synthetic_sources
from openai import AsyncOpenAI

from generator.cli import cli
from generator.cli.root import COMMANDS
from generator.core.errors import WorkerError
from generator.drafting import finish
from generator.drafting.backends import openai_drafter_id
from generator.drafting.finish import Finisher
from generator.drafting.openai_drafter import OpenAIDrafter
from generator.drafting.plan import plan_generation
from generator.drafting.prompts import PromptSet
from generator.drafting.run import run_generation
from generator.guides.project import Project
from generator.llm.calllog import CallLog

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


def make_root(parent: Path, name: str, count: int) -> Path:
    root = parent / name
    root.mkdir()
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    write_synthetic_sources(root / "sources", count)
    return root


def generate_online(root: Path, fake: FakeOpenAI, *, process: bool):
    """Draft every record of root with the fake server, finishing here or in a worker."""
    project = Project(root)

    async def go():
        client = AsyncOpenAI(api_key="sk-test", base_url=fake.base_url, max_retries=0)
        prompts = PromptSet(project.workspace.prompts_dir, project.settings.site.name)
        log = CallLog.in_state_dir(project.workspace.state_dir)
        drafter = OpenAIDrafter(client, "test-model", prompts, log=log)
        plan = plan_generation(project, drafter, None, force=False)
        return await run_generation(project, drafter, plan, concurrency=4, finisher=finisher)

    with Finisher(project, process=process) as finisher:
        finisher.take_sources()
        return asyncio.run(go())


def test_the_drafter_sends_what_the_sdks_typed_create_would_send(workspace: Path, fake) -> None:
    project = Project(workspace)
    source = project.source("meta-gem")

    async def go():
        client = AsyncOpenAI(api_key="sk-test", base_url=fake.base_url, max_retries=0)
        drafter = OpenAIDrafter(client, "test-model", PromptSet(workspace / "prompts"))
        body = drafter.request_body(drafter.prompts.messages(source))
        await client.chat.completions.create(**body)
        await drafter.draft(source)
        await drafter.aclose()

    asyncio.run(go())
    typed, ours = fake.requests
    assert ours == typed
    assert ours["response_format"]["json_schema"]["strict"] is True


def written(root: Path) -> dict[str, bytes]:
    guides = root / "guides"
    return {
        str(path.relative_to(guides)): path.read_bytes()
        for path in sorted(guides.rglob("*"))
        if path.is_file() and not path.name.endswith(".lock")
    }


def test_a_worker_writes_the_same_guides_and_history_as_finishing_here(tmp_path, fake) -> None:
    here = make_root(tmp_path, "here", 12)
    worker = make_root(tmp_path, "worker", 12)
    # One record's answers always break the schema, so its guide fails in both runs alike.
    fake.script(Reply({"angle": "x"}), match="queue number 3 without", times=None)

    in_process = generate_online(here, fake, process=False)
    in_worker = generate_online(worker, fake, process=True)

    assert in_worker.generated == in_process.generated
    assert len(in_worker.generated) == 11
    assert set(in_worker.failed) == set(in_process.failed) == {"synthetic-00003"}
    assert written(worker) == written(here)


def test_a_run_finished_in_a_worker_is_resumed_without_redoing_any_guide(tmp_path, fake) -> None:
    root = make_root(tmp_path, "ws", 8)
    first = generate_online(root, fake, process=True)
    assert len(first.generated) == 8
    sent = fake.request_count

    again = generate_online(root, fake, process=True)

    assert again.generated == []
    assert len(again.skipped) == 8
    assert fake.request_count == sent


def test_a_worker_that_dies_fails_the_run_with_a_message(tmp_path, fake) -> None:
    root = make_root(tmp_path, "ws", 6)
    project = Project(root)
    with Finisher(project, process=True) as finisher:
        finisher.take_sources()
        for child in finisher._pool._processes.values():  # type: ignore[union-attr]
            child.kill()
            child.join()

        async def go():
            client = AsyncOpenAI(api_key="sk-test", base_url=fake.base_url, max_retries=0)
            drafter = OpenAIDrafter(client, "test-model", PromptSet(root / "prompts"))
            plan = plan_generation(project, drafter, None, force=False)
            return await run_generation(project, drafter, plan, concurrency=2, finisher=finisher)

        with pytest.raises(WorkerError, match="worker process .* died"):
            asyncio.run(go())
    assert not list((root / "guides").glob("*.md"))


class _BuggyDrafter(OpenAIDrafter):
    """A drafter with a bug for one record, noting how many tasks were alive at each draft."""

    alive: list[int]

    async def draft(self, source):
        self.alive.append(len(asyncio.all_tasks()))
        if source.key == "synthetic-00001":
            raise RuntimeError("a bug in the drafter")
        return await super().draft(source)


def test_a_drafting_bug_stops_no_other_guide_and_surfaces_at_the_end(tmp_path, fake) -> None:
    root = make_root(tmp_path, "ws", 6)
    project = Project(root)

    async def go():
        client = AsyncOpenAI(api_key="sk-test", base_url=fake.base_url, max_retries=0)
        drafter = _BuggyDrafter(client, "test-model", PromptSet(root / "prompts"))
        drafter.alive = []
        plan = plan_generation(project, drafter, None, force=False)
        try:
            await run_generation(project, drafter, plan, concurrency=1)
        finally:
            alive.extend(drafter.alive)

    alive: list[int] = []
    with pytest.raises(RuntimeError, match="a bug in the drafter"):
        asyncio.run(go())
    # With one slot, the other five guides were still drafted, one after the other; the first
    # draft started with only the run and its slot alive, not one task per planned guide.
    assert fake.request_count == 5
    assert len(list((root / "guides").glob("*.md"))) == 5
    assert len(alive) == 6 and alive[0] == 2


def test_the_worker_plans_the_run_as_this_process_would_for_the_same_drafter(
    tmp_path, fake
) -> None:
    root = make_root(tmp_path, "ws", 8)
    generate_online(root, fake, process=True)
    write_synthetic_sources(root / "sources", 3, start=8)
    (root / "guides" / "synthetic-00002.md").write_text("not a guide", encoding="utf-8")
    project = Project(root)
    client = AsyncOpenAI(api_key="sk-test", base_url=fake.base_url)
    prompts = PromptSet(project.workspace.prompts_dir, project.settings.site.name)
    drafter = OpenAIDrafter(client, "test-model", prompts)

    with Finisher(project, process=True) as finisher:
        finisher.plan_ahead(openai_drafter_id, "test-model", None, False)
        finisher.take_sources()
        ahead = finisher.planned(drafter)
        here = plan_generation(project, drafter, None, False)
        # A plan made for another drafter (here another model) is not used.
        finisher.plan_ahead(openai_drafter_id, "another-model", None, False)
        assert finisher.planned(drafter) is None

    def rows(plan):
        return [(item.source.key, item.action, item.reason) for item in plan]

    assert ahead is not None and rows(ahead) == rows(here)
    assert {item.reason for item in here} >= {"new", "unchanged"}
    assert any(item.reason.startswith("existing guide unreadable") for item in here)
    assert all(item.source is project.source(item.source.key) for item in ahead)


def test_a_large_online_run_uses_a_worker_and_a_small_one_does_not(tmp_path) -> None:
    small = Project(make_root(tmp_path, "small", finish.PROCESS_MIN_RECORDS - 1))
    large = Project(make_root(tmp_path, "large", finish.PROCESS_MIN_RECORDS))
    with Finisher.for_run(small) as finisher:
        assert finisher.in_process
    with Finisher.for_run(large) as finisher:
        assert finisher.in_process == (finish.available_cpus() < 2)


def test_the_cli_drafts_a_large_database_online_and_a_rerun_sends_nothing(tmp_path, fake) -> None:
    root = make_root(tmp_path, "ws", finish.PROCESS_MIN_RECORDS)
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": fake.base_url}
    command = [sys.executable, "-m", "generator", "--root", str(root), "generate"]

    first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)

    assert first.returncode == 0, first.stderr
    assert f"generated {finish.PROCESS_MIN_RECORDS}, skipped 0 unchanged, failed 0" in first.stdout
    assert len(list((root / "guides").glob("*.md"))) == finish.PROCESS_MIN_RECORDS
    assert second.returncode == 0, second.stderr
    assert f"generated 0, skipped {finish.PROCESS_MIN_RECORDS} unchanged" in second.stdout
    assert fake.request_count == finish.PROCESS_MIN_RECORDS
    assert draft_for(fake.requests[0])["reported"]


def test_help_lists_every_command_with_its_own_summary() -> None:
    cli.load_all()
    assert sorted(cli.commands) == sorted(COMMANDS)
    for name, command in cli.commands.items():
        placeholder = click.Command(name, help=COMMANDS[name][1])
        assert placeholder.get_short_help_str(200) == command.get_short_help_str(200), name


def imported_modules(*args: str, env: dict[str, str] | None = None) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "generator", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )
    assert result.returncode == 0, result.stderr
    return {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "|" in line}


def test_help_imports_neither_the_sdk_nor_the_checks(workspace: Path) -> None:
    modules = imported_modules("--root", str(workspace), "--help")
    assert "openai" not in modules
    assert "generator.checks" not in modules
    assert "generator.guides.project" not in modules


def test_an_online_dry_run_does_not_import_the_checks(workspace: Path) -> None:
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    modules = imported_modules("--root", str(workspace), "generate", "--dry-run", env=env)
    assert "generator.guides.project" in modules
    assert "openai" in modules
    assert "generator.checks" not in modules


def test_an_online_run_imports_neither_httpcore2_nor_trio(workspace: Path, fake) -> None:
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": fake.base_url}
    modules = imported_modules("--root", str(workspace), "generate", "meta-gem", env=env)
    assert fake.request_count == 1
    assert {"openai", "h11"} <= modules
    assert "httpcore2" not in modules
    assert "trio" not in modules
