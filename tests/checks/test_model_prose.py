"""A small replay of the model-prose corpus through `prepguide generate --backend openai`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes.openai_server import FakeOpenAI
from prose_replay import Replay, load_corpus, make_root, replay

from generator.drafting.openai_drafter import MAX_REASKS

FAITHFUL = "fernway-tile-cache"
FAKE_QUOTE = "dropbox-magic-pocket-storage__fake-quote__1"


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


def variant(corpus, name: str):
    [found] = [v for v in corpus.variants if v.name == name]
    return found


def run(corpus, tmp_path: Path, answers: dict, reask: str) -> tuple[Replay, FakeOpenAI]:
    with FakeOpenAI() as server:
        done = replay(server, make_root(tmp_path / "root"), corpus.titles, answers, reask)
    return done, server


def test_the_corpus_holds_every_record_with_a_faithful_draft_and_a_kind_map(corpus) -> None:
    assert len(corpus.records) == 28
    assert set(corpus.drafts) == set(corpus.records)
    assert {v.kind for v in corpus.variants} <= set(corpus.kinds)
    assert all(v.record in corpus.records and v.corrected != v.draft for v in corpus.variants)


def test_a_replayed_draft_is_written_from_a_structured_output_request(
    corpus, tmp_path: Path
) -> None:
    done, server = run(corpus, tmp_path, {FAITHFUL: [corpus.drafts[FAITHFUL]]}, "repeat")
    assert done.failed == {}
    assert done.provenance[FAITHFUL]["backend"] == "openai"
    assert done.provenance[FAITHFUL]["usage"]["total_tokens"] > 0
    request = server.requests[0]  # later rounds, if any, repair content findings
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["strict"] is True
    guide = (done.root / "guides" / f"{FAITHFUL}.md").read_text(encoding="utf-8")
    assert corpus.drafts[FAITHFUL]["reported"][0]["text"] in guide
    assert [call["outcome"] for call in done.calls[FAITHFUL]] == ["ok"]


def test_a_fake_quote_the_model_repeats_is_never_written_within_the_reask_budget(
    corpus, tmp_path: Path
) -> None:
    fake = variant(corpus, FAKE_QUOTE)
    done, server = run(corpus, tmp_path, {fake.record: [fake.draft]}, "repeat")
    assert not (done.root / "guides" / f"{fake.record}.md").exists()
    assert "verbatim" in done.failed[fake.record]
    assert server.asked[corpus.titles[fake.record]] == 1 + MAX_REASKS
    assert {call["outcome"] for call in done.calls[fake.record]} == {"invalid"}


def test_a_fake_quote_is_repaired_when_the_reask_gets_the_corrected_draft(
    corpus, tmp_path: Path
) -> None:
    fake = variant(corpus, FAKE_QUOTE)
    done, server = run(corpus, tmp_path, {fake.record: [fake.draft, fake.corrected]}, "next")
    assert done.failed == {}
    # The first re-ask is about the quote; any later one repairs what the checks found.
    assert done.provenance[fake.record]["repairs"][0] == {"round": 2, "rules": ["quote"]}
    reask = server.requests[1]["messages"]
    assert reask[-2] == {"role": "assistant", "content": json.dumps(fake.draft)}
    assert "verbatim" in reask[-1]["content"]
    guide = (done.root / "guides" / f"{fake.record}.md").read_text(encoding="utf-8")
    wrong = [s["quote"] for s in fake.draft["reported"]]
    right = [s["quote"] for s in fake.corrected["reported"]]
    [(before, after)] = [(w, r) for w, r in zip(wrong, right, strict=True) if w != r]
    assert after in guide and before not in guide
