"""Repair rounds for content findings and revisions from an editor's note, over real HTTP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fakes.openai_server import FakeOpenAI, Reply, draft_for

from generator.cli import cli
from generator.guides.document import parse
from generator.llm.calllog import read_calls

GUIDE = "meta-gem"
BAD = "Meta trained GEM on 12,000 GPUs."
MATCH = "per-surface ad prediction"  # in meta-gem's summary only


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        server.batch_schedule = ["validating"]
        yield server


def run(workspace: Path, fake: FakeOpenAI | None, *args: str):
    env = (
        {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": fake.base_url}
        if fake
        else {"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    )
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def with_figure(request: dict) -> dict:
    draft = draft_for(request)
    draft["interpretation"] += " " + BAD
    return draft


def guide(workspace: Path, guide_id: str = GUIDE):
    return parse((workspace / "guides" / f"{guide_id}.md").read_text(encoding="utf-8"))


def roles(request: dict) -> list[str]:
    return [message["role"] for message in request["messages"]]


def test_content_error_is_reasked_naming_sentence_and_rule_then_accepted(workspace, fake):
    fake.script(Reply(with_figure), match=MATCH)
    result = run(workspace, fake, "generate", GUIDE)
    assert result.exit_code == 0, result.output
    assert fake.request_count == 2
    first, second = fake.requests
    assert roles(second) == ["system", "user", "assistant", "user"]
    assert second["messages"][:2] == first["messages"]
    assert BAD in second["messages"][2]["content"]  # the last answer
    repair = second["messages"][3]["content"]
    assert "[figures.attributed]" in repair and f"“{BAD}”" in repair
    assert "remove the figure" in repair
    doc = guide(workspace)
    assert BAD not in doc.body
    assert doc.meta.provenance.rounds == 2
    assert [(r.round, r.rules) for r in doc.meta.provenance.repairs] == [
        (2, ["figures.attributed"])
    ]
    assert doc.meta.provenance.usage.prompt_tokens == fake.tokens["prompt"]
    outcomes = [call.outcome for call in read_calls(workspace / ".prepguide")]
    assert outcomes == ["findings", "ok"]


def test_model_that_never_fixes_yields_a_draft_with_findings_after_two_reasks(workspace, fake):
    fake.script(Reply(with_figure), match=MATCH, times=None)
    result = run(workspace, fake, "generate", GUIDE)
    assert result.exit_code == 0, result.output
    assert "generated 1" in result.output
    assert fake.request_count == 3
    for request in fake.requests[1:]:  # each re-ask: first messages, last answer, findings
        assert roles(request) == ["system", "user", "assistant", "user"]
        assert request["messages"][:2] == fake.requests[0]["messages"]
    assert len(json.dumps(fake.requests[2])) == len(json.dumps(fake.requests[1]))
    doc = guide(workspace)
    assert doc.meta.status == "draft"
    assert BAD in doc.body
    assert "figures.attributed" in {finding.rule for finding in doc.meta.findings}
    assert doc.meta.provenance.rounds == 3
    assert [r.round for r in doc.meta.provenance.repairs] == [2, 3]


def test_rerun_of_repaired_guides_sends_zero_requests(workspace, fake):
    fake.script(Reply(with_figure), match=MATCH, times=None)
    run(workspace, fake, "generate")
    asked = fake.request_count
    assert asked == 3 + 3  # three rounds for meta-gem, one each for the others
    fake.reset()
    result = run(workspace, fake, "generate", "--force")
    assert "generated 4" in result.output
    assert fake.request_count == 0
    assert guide(workspace).meta.provenance.rounds == 3


def test_cached_answer_failing_the_current_checks_is_repaired(workspace, fake):
    fake.script(Reply(with_figure), match=MATCH)
    run(workspace, fake, "generate", GUIDE, "--no-cache")  # nothing cached
    fake.reset()
    fake.script(Reply(with_figure), match=MATCH)
    run(workspace, fake, "generate", GUIDE, "--force")
    assert fake.request_count == 2
    fake.reset()
    run(workspace, fake, "generate", GUIDE, "--force")
    assert fake.request_count == 0
    assert BAD not in guide(workspace).body


def test_record_and_citation_findings_never_cause_a_reask(workspace, fake):
    result = run(workspace, fake, "generate", GUIDE)
    assert result.exit_code == 0, result.output
    assert fake.request_count == 1
    rules = {finding.rule for finding in guide(workspace).meta.findings}
    assert "citations.url" in rules and "citations.unverified" in rules
    assert guide(workspace).meta.provenance.rounds == 1


def test_revise_from_the_rejection_note_writes_a_new_audited_revision(workspace, fake):
    run(workspace, fake, "generate", GUIDE)
    rejected = guide(workspace).body
    note = "The case study is vague; name one concrete workload to profile."
    result = run(workspace, fake, "review", "reject", GUIDE, "--by", "ana", "--note", note)
    assert result.exit_code == 0, result.output

    def revised(request: dict) -> dict:
        draft = draft_for(request)
        draft["case_study"] = "Profile one training step of a small model on your own GPU."
        return draft

    fake.reset()
    fake.script(Reply(revised))
    result = run(workspace, fake, "generate", GUIDE, "--revise")
    assert result.exit_code == 0, result.output
    assert f"revised {GUIDE}: new draft revision after 1 round" in result.output
    [request] = fake.requests
    assert roles(request) == ["system", "user", "user"]
    assert note in request["messages"][2]["content"]
    assert rejected.split("\n")[2] in request["messages"][2]["content"]
    doc = guide(workspace)
    assert doc.meta.status == "draft" and "one training step" in doc.body
    log = run(workspace, None, "review", "log", GUIDE).output
    assert f"revised for the editor's note: {note}" in log
    diff = run(workspace, None, "review", "diff", GUIDE).output
    assert "+Profile one training step of a small model on your own GPU." in diff
    assert "-Pick a small workload" in diff


def test_a_note_asking_for_a_missing_figure_still_fails_the_checks(workspace, fake):
    run(workspace, fake, "generate", GUIDE)
    fake.reset()
    fake.script(Reply(with_figure), times=None)  # the model obeys the note every time
    note = "Add that Meta trained GEM on 12,000 GPUs."
    result = run(workspace, fake, "generate", GUIDE, "--revise", "--note", note)
    assert result.exit_code == 0, result.output
    assert fake.request_count == 3
    assert "figures.attributed" in result.output
    for request in fake.requests[1:]:
        assert roles(request) == ["system", "user", "user", "assistant", "user"]
    assert "figures.attributed" in {f.rule for f in guide(workspace).meta.findings}


def test_revise_refuses_the_offline_backend_and_a_missing_note(workspace, fake):
    run(workspace, fake, "generate", GUIDE)
    result = run(workspace, None, "generate", GUIDE, "--revise", "--note", "Shorter.")
    assert result.exit_code == 2
    assert "--revise needs the openai backend" in result.output
    result = run(workspace, fake, "generate", GUIDE, "--revise")
    assert result.exit_code == 2
    assert "no rejection note" in result.output


def test_batch_content_error_gets_a_follow_up_round(workspace, fake):
    fake.script(Reply(with_figure), match=MATCH)
    result = run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    assert result.exit_code == 0, result.output
    first, follow = sorted(fake.batches)
    data = fake.files[fake.batches[follow]["input_file_id"]]["data"].decode()
    [line] = [json.loads(text) for text in data.splitlines()]
    assert line["custom_id"].startswith(f"{GUIDE}~1~")
    messages = line["body"]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert "[figures.attributed]" in messages[-1]["content"]
    doc = guide(workspace)
    assert BAD not in doc.body
    assert (doc.meta.provenance.via, doc.meta.provenance.rounds) == ("batch", 2)
    fake.reset()
    run(workspace, fake, "generate", "--force")
    assert fake.request_count == 0


def test_dry_run_estimates_the_reask_share_from_the_call_log(workspace, fake):
    result = run(workspace, fake, "generate", "--dry-run")
    assert "re-asks: no calls logged yet" in result.output
    fake.script(Reply(with_figure), match=MATCH)
    run(workspace, fake, "generate")
    result = run(workspace, fake, "generate", "--dry-run", "--force")
    share = result.output.split("re-asks: +")[1].split("%")[0]
    assert int(share) > 0
