"""check --judge: a second opinion from the configured model, warnings only, cached."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from checkhelp import complete_records, prepguide_against
from fakes.openai_server import FakeOpenAI, Reply

INVENTED = "The cluster also halved its on-call pages."


def _claim(request: dict) -> str:
    return request["messages"][-1]["content"].split("Claim-to-judge: ", 1)[1]


def _source(request: dict) -> str:
    return request["messages"][-1]["content"].split("\n", 1)[1].split("\n</source-data", 1)[0]


def judge_answer(request: dict) -> dict:
    """Support every claim with the first source sentence, except the invented one."""
    if INVENTED in _claim(request):
        return {"supported": False, "span": ""}
    return {"supported": True, "span": _source(request).split(". ")[0]}


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


def prepguide(root: Path, fake: FakeOpenAI, *args: str) -> subprocess.CompletedProcess[str]:
    return prepguide_against(fake.base_url, root, *args)


def findings(done: subprocess.CompletedProcess[str]) -> list[dict]:
    [guide] = json.loads(done.stdout)["guides"]
    return guide["findings"]


def test_judge_adds_a_warning_for_an_unsupported_claim_and_caches(workspace: Path, fake) -> None:
    complete_records(workspace)
    assert prepguide(workspace, fake, "generate", "--backend", "offline").returncode == 0
    path = workspace / "guides" / "meta-gem.md"
    text = path.read_text(encoding="utf-8")
    anchor = "## Our career interpretation"
    path.write_text(text.replace(anchor, f"{INVENTED}\n\n{anchor}", 1), encoding="utf-8")
    plain = prepguide(workspace, fake, "check", "meta-gem", "--json")
    assert fake.request_count == 0  # off by default

    fake.script(Reply(judge_answer), match="Claim-to-judge", times=None)
    judged = prepguide(workspace, fake, "check", "meta-gem", "--json", "--judge")
    assert judged.returncode == plain.returncode  # warnings never change the verdict
    opinions = [f for f in findings(judged) if f["rule"] == "grounding.judge"]
    assert len(opinions) == 1 and opinions[0]["severity"] == "warning"
    assert INVENTED in opinions[0]["message"]
    # It only adds: every finding of the plain check is still there.
    assert all(f in findings(judged) for f in findings(plain))
    asked = fake.request_count
    assert asked >= 1 and all("Claim-to-judge" in json.dumps(r) for r in fake.requests)

    again = prepguide(workspace, fake, "check", "meta-gem", "--json", "--judge")
    assert fake.request_count == asked  # answered from the cache
    assert findings(again) == findings(judged)

    # The review shows the stored opinion without asking again.
    shown = prepguide(workspace, fake, "review", "show", "meta-gem")
    assert shown.returncode == 0, shown.stderr
    assert "grounding.judge" in shown.stdout and fake.request_count == asked


def test_a_supported_verdict_needs_a_verbatim_span() -> None:
    from generator.checks.judge import verdict_problem

    source = "Meta replaced separate per-surface ad prediction systems with GEM."
    ok = json.dumps({"supported": True, "span": "replaced separate per-surface"})
    invented = json.dumps({"supported": True, "span": "replaced every system"})
    assert verdict_problem(ok, source) is None
    assert "not verbatim" in verdict_problem(invented, source)
    assert "no support" in verdict_problem(json.dumps({"supported": False, "span": ""}), source)
    assert "not a valid verdict" in verdict_problem("<html>", source)
