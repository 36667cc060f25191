"""The openai backend through the real CLI: cache, dry run, concurrency, resume after SIGKILL."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from fakes.openai_server import FakeOpenAI, Refusal, Unauthorized, write_synthetic_sources

from generator.cli import cli
from generator.drafting.backends import make_drafter, resolve_backend
from generator.guides.document import parse
from generator.guides.project import Project


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


def env_for(fake: FakeOpenAI) -> dict[str, str]:
    return {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": fake.base_url}


def run(workspace: Path, fake: FakeOpenAI, *args: str):
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args], env=env_for(fake))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_auto_backend_uses_openai_and_says_so(workspace, fake):
    result = run(workspace, fake, "generate")
    assert result.exit_code == 0, result.output
    assert "backend: openai (model gpt-4o-mini)" in result.output
    assert fake.request_count == 4
    assert sorted(path.stem for path in (workspace / "guides").glob("*.md")) == sorted(
        Project(workspace).sources.by_id()
    )


def test_rerun_with_nothing_changed_sends_zero_requests(workspace, fake):
    run(workspace, fake, "generate")
    fake.reset()
    result = run(workspace, fake, "generate")
    assert "skipped 4 unchanged" in result.output
    result = run(workspace, fake, "generate", "--force")
    assert "generated 4" in result.output
    assert fake.request_count == 0


def test_served_snapshot_name_does_not_defeat_the_skip(workspace):
    with FakeOpenAI(served_model="gpt-4o-mini-2024-07-18") as fake:
        run(workspace, fake, "generate")
        fake.reset()
        result = run(workspace, fake, "generate")
        assert "skipped 4 unchanged" in result.output
        assert fake.request_count == 0
    guide = parse((workspace / "guides" / "meta-gem.md").read_text(encoding="utf-8"))
    assert guide.meta.provenance.model == "gpt-4o-mini"


def test_no_cache_asks_again(workspace, fake):
    run(workspace, fake, "generate")
    fake.reset()
    run(workspace, fake, "generate", "--force", "--no-cache")
    assert fake.request_count == 4


def test_changed_prompt_regenerates_every_guide(workspace, fake):
    run(workspace, fake, "generate")
    fake.reset()
    system = workspace / "prompts" / "system.j2"
    system.write_text(system.read_text(encoding="utf-8") + "Write plainly.\n", encoding="utf-8")
    result = run(workspace, fake, "generate")
    assert "generated 4" in result.output
    assert fake.request_count == 4


def test_dry_run_sends_nothing_and_estimates_tokens(workspace, fake):
    result = run(workspace, fake, "generate", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "dry run: 4 to generate, 0 to skip" in result.output
    tokens = int(result.output.split("~")[1].split()[0])
    assert tokens > 400
    assert fake.request_count == 0
    assert not (workspace / "guides").exists() or not list((workspace / "guides").glob("*.md"))


def test_concurrency_bound_is_what_the_server_sees(workspace, fake):
    write_synthetic_sources(workspace / "sources", 12)
    fake.latency = 0.15
    result = run(workspace, fake, "generate", "--concurrency", "3")
    assert result.exit_code == 0, result.output
    assert fake.request_count == 16
    assert fake.peak_concurrency == 3


def test_auth_failure_stops_the_run_and_exits_1(workspace, fake):
    fake.script(Unauthorized(), times=None)
    result = run(workspace, fake, "generate", "--concurrency", "1")
    assert result.exit_code == 1
    assert "check OPENAI_API_KEY" in result.output
    assert fake.request_count == 1


def test_failure_table_lists_each_failed_guide(workspace, fake):
    fake.script(Refusal("No."), match="Shopify")
    result = run(workspace, fake, "generate")
    assert result.exit_code == 1
    assert "1 failed:" in result.output
    assert "shopify-catalog-clustering  the model refused: No." in result.output


def test_logs_command_shows_calls(workspace, fake):
    run(workspace, fake, "generate", "meta-gem")
    result = run(workspace, fake, "logs")
    assert "gpt-4o-mini" in result.output and "meta-gem #1" in result.output


def test_empty_base_url_counts_as_unset(workspace, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", "")
    drafter = make_drafter(Project(workspace), "openai")
    assert str(drafter.client.base_url) == "https://api.openai.com/v1/"


def test_empty_key_means_offline(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "  ")
    assert resolve_backend("auto") == "offline"


def test_model_from_environment(workspace, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("PREPGUIDE_MODEL", "local-llama")
    assert make_drafter(Project(workspace), "openai").model == "local-llama"


def cli_env(fake: FakeOpenAI) -> dict[str, str]:
    return {**os.environ, **env_for(fake), "PYTHONUNBUFFERED": "1"}


def test_progress_shows_on_a_terminal(workspace, fake):
    controller, terminal = pty.openpty()
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(workspace), "generate"],
        env=cli_env(fake),
        stdout=subprocess.PIPE,
        stderr=terminal,
        timeout=60,
    )
    os.close(terminal)
    shown = os.read(controller, 65536).decode()
    os.close(controller)
    assert proc.returncode == 0
    assert "4/4 done, 0 failed" in shown and "tokens" in shown and "elapsed" in shown
    assert "done" not in proc.stdout.decode()


def test_sigkill_then_rerun_leaves_no_partial_guide_and_redoes_nothing(workspace, fake):
    ids = write_synthetic_sources(workspace / "sources", 40)
    fake.latency = 0.2
    guides = workspace / "guides"
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "--root", str(workspace), "generate"],
        env=cli_env(fake),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(list(guides.glob("*.md"))) < 10:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    finished = sorted(path.stem for path in guides.glob("*.md"))
    assert 10 <= len(finished) < 44
    for path in guides.glob("*.md"):
        parse(path.read_text(encoding="utf-8"), str(path))
    answered_before = fake.request_count
    fake.reset()
    result = run(workspace, fake, "generate")
    assert result.exit_code == 0, result.output
    asked_again = {
        message["content"].split("Title: ")[1].split("\n")[0]
        for request in fake.requests
        for message in request["messages"]
        if message["role"] == "user" and "Title: " in message["content"]
    }
    project = Project(workspace)
    finished_titles = {project.source(guide_id).title for guide_id in finished}
    assert asked_again.isdisjoint(finished_titles)
    # Answers that arrived before the kill but were not yet written come from the cache.
    assert fake.request_count <= 44 - len(finished)
    assert fake.request_count + answered_before >= 44
    assert sorted(path.stem for path in guides.glob("*.md")) == sorted(project.sources.by_id())
    assert set(ids) <= set(project.sources.by_id())
    assert not list(guides.glob("*.tmp"))
