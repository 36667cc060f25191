"""A hostile or broken LLM endpoint and damaged LLM state (hardening items C15-C18, E23)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from fakes.openai_server import BadUsage, Drip, FakeOpenAI, Hang, Html, Huge

from generator.cli import cli
from generator.guides.project import Project

REPO = Path(__file__).resolve().parents[2]


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


def set_llm(workspace: Path, **values: object) -> None:
    config = workspace / "prepguide.toml"
    kept = [
        line
        for line in config.read_text(encoding="utf-8").splitlines(keepends=True)
        if line.split("=")[0].strip() not in values
    ]
    text = "".join(kept)
    lines = "".join(f"{name} = {value}\n" for name, value in values.items())
    config.write_text(text.replace("[llm]\n", f"[llm]\n{lines}"), encoding="utf-8")


def guide_ids(workspace: Path) -> list[str]:
    return sorted(path.stem for path in (workspace / "guides").glob("*.md"))


def all_ids(workspace: Path) -> list[str]:
    return sorted(Project(workspace).sources.by_id())


def test_c15_html_page_fails_that_guide_and_the_rest_go_on(workspace, fake):
    fake.script(Html(), match="Shopify")
    result = run(workspace, fake, "generate")
    assert result.exit_code == 1
    assert "shopify-catalog-clustering" in result.output
    assert "text/html, not a chat completion" in result.output
    assert "Sign in to Wi-Fi" in result.output
    assert guide_ids(workspace) == [
        i for i in all_ids(workspace) if i.startswith("shopify") is False
    ]


@pytest.mark.parametrize("usage", ["lots", {"prompt_tokens": -5, "completion_tokens": 3}, [1]])
def test_c15_nonsense_usage_fails_that_guide_and_the_rest_go_on(workspace, fake, usage):
    fake.script(BadUsage(usage), match="Shopify")
    result = run(workspace, fake, "generate")
    assert result.exit_code == 1
    assert "shopify-catalog-clustering" in result.output
    assert "not a valid chat completion: usage" in result.output
    assert len(guide_ids(workspace)) == len(all_ids(workspace)) - 1


def test_c15_unusable_answer_is_logged_as_such(workspace, fake):
    fake.script(Html(), match="Shopify")
    run(workspace, fake, "generate")
    result = run(workspace, fake, "logs", "--guide", "shopify-catalog-clustering")
    assert "error: response" in result.output


# Started from a small launcher: a process forked from pytest counts pytest's memory in its
# own peak (the peak survives exec), which made the figure depend on the suite before it.
MEASURE = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(code, peak)\n"
)


def peak_rss_mb(command: list[str], env: dict[str, str]) -> tuple[int, float, bytes]:
    """Run a command; return its exit code, its own peak RSS in MB and its stderr."""
    launched = [sys.executable, "-c", MEASURE, *command]
    proc = subprocess.run(launched, env=env, capture_output=True, timeout=300)
    code, peak_kb = map(int, proc.stdout.split())
    return code, peak_kb / 1024, proc.stderr


def test_c16_a_200_mb_answer_is_cut_off_and_memory_stays_small(workspace, fake):
    fake.script(Huge(200 * 1024 * 1024), match="Shopify")
    set_llm(workspace, max_retries=0)
    env = {**os.environ, **env_for(fake), "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "generator", "--root", str(workspace), "generate"]
    code, peak, stderr = peak_rss_mb(command, env)
    assert code == 1
    assert b"larger than" in stderr and b"shopify-catalog-clustering" in stderr
    assert peak < 180, f"peak RSS {peak:.0f} MB"
    assert len(guide_ids(workspace)) == len(all_ids(workspace)) - 1


def test_c17_a_dripped_answer_fails_when_the_whole_request_timeout_ends(workspace, fake):
    fake.script(Drip(rate=50), match="Shopify", times=None)  # a whole answer: about a minute
    set_llm(workspace, timeout=1.5, max_retries=2)
    result = run(workspace, fake, "generate")
    assert result.exit_code == 1
    assert "shopify-catalog-clustering  timed out (1.5s)" in result.output
    logged = run(workspace, fake, "logs", "--json", "--guide", "shopify-catalog-clustering")
    [call] = json.loads(logged.output)["calls"]
    assert call["outcome"] == "error: timeout"
    assert call["latency_ms"] < 3500, call  # bounded by the timeout, not by the drip
    assert fake.request_count == 4  # one try: a server that drips is not asked again
    assert len(guide_ids(workspace)) == len(all_ids(workspace)) - 1


def test_c17_no_answer_within_the_timeout_is_still_retried_by_the_sdk(workspace, fake):
    fake.script(Hang(seconds=5), match="Shopify", times=None)
    set_llm(workspace, timeout=0.5, max_retries=1)
    result = run(workspace, fake, "generate", "shopify-catalog-clustering")
    assert "timed out (0.5s) after 1 retry" in result.output
    assert fake.request_count == 2


@pytest.mark.parametrize("url", ["http://127.0.0.1:99999/v1", "http://[::1", "ftp://host/v1"])
def test_c18_a_bad_base_url_exits_2_with_a_clear_message(workspace, url):
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": url}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(workspace), "generate"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert f"error: OPENAI_BASE_URL: {url!r} is not a usable URL" in proc.stderr


def test_e23_a_corrupted_cache_is_set_aside_and_rebuilt(workspace, fake):
    state = workspace / ".prepguide"
    state.mkdir()
    (state / "llm-cache.sqlite3").write_bytes(b"this is not a database" * 100)
    result = run(workspace, fake, "generate")
    assert result.exit_code == 0, result.output
    assert "warning:" in result.output and "llm-cache.sqlite3.corrupt-1" in result.output
    assert (state / "llm-cache.sqlite3.corrupt-1").read_bytes().startswith(b"this is not")
    fake.reset()
    result = run(workspace, fake, "generate", "--force")
    assert result.exit_code == 0, result.output
    assert fake.request_count == 0  # the rebuilt cache answers
    assert "warning" not in result.output


def test_e23_a_corrupted_call_log_is_kept_aside_and_a_new_one_started(workspace, fake):
    state = workspace / ".prepguide"
    state.mkdir()
    garbage = b"SQLite format 3\x00" + b"\xff" * 4000
    (state / "llm-calls.sqlite3").write_bytes(garbage)
    result = run(workspace, fake, "logs")
    assert result.exit_code == 0, result.output
    assert "kept it as llm-calls.sqlite3.corrupt-1" in result.output
    assert (state / "llm-calls.sqlite3.corrupt-1").read_bytes() == garbage
    result = run(workspace, fake, "generate", "meta-gem")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    result = run(workspace, fake, "logs")
    assert "meta-gem #1" in result.output


def test_e23_an_older_call_log_keeps_its_rows_and_gains_the_new_columns(workspace, fake):
    state = workspace / ".prepguide"
    state.mkdir()
    db = sqlite3.connect(state / "llm-calls.sqlite3")
    db.execute(
        "create table calls (id integer primary key, time text not null, model text not null, "
        "prompt_hash text not null, guide_id text not null, attempt integer not null, "
        "prompt_tokens integer not null, completion_tokens integer not null, "
        "latency_ms integer not null, retries integer not null, cached integer not null, "
        "outcome text not null)"
    )
    db.execute(
        "insert into calls values (1, '2026-11-01T00:00:00+00:00', 'old-model', 'p', "
        "'old-guide', 1, 10, 20, 5, 0, 0, 'ok')"
    )
    db.commit()
    db.close()
    run(workspace, fake, "generate", "meta-gem")
    result = run(workspace, fake, "logs")
    assert "warning" not in result.output
    assert "old-guide #1" in result.output and "meta-gem #1" in result.output
    assert not list(state.glob("*.corrupt-*"))
