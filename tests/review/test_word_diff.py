"""Word-level diffs: a one-word edit shows as that word, in the page and in `review diff --word`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_review import SEARCH, STEP, hand_edit, make_review_workspace, run

from generator.review.diffs import Piece, word_hunks, word_pieces
from generator.review.web import create_app

EDITED = "- Build a judged query set before changing the ranker."


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = make_review_workspace(tmp_path / "ws")
    assert run(root, "review", "approve", SEARCH, "--by", "Ada").exit_code == 0
    hand_edit(root, SEARCH, STEP, EDITED)
    return root


def test_a_changed_word_is_one_deletion_and_one_insertion_in_its_sentence() -> None:
    old = "The system cut p99 latency by 40% while serving 12 million queries."
    new = "The system cut p99 latency by 45% while serving 12 million queries a day."
    assert word_pieces(old, new) == [
        Piece("same", "The system cut p99 latency by "),
        Piece("del", "40"),
        Piece("ins", "45"),
        Piece("same", "% while serving 12 million queries"),
        Piece("ins", " a day"),
        Piece("same", "."),
    ]
    # Neighbouring changed words read as one phrase replaced, not word by word.
    assert word_pieces("the cat sat down", "a dog ran down") == [
        Piece("del", "the cat sat"),
        Piece("ins", "a dog ran"),
        Piece("same", " down"),
    ]


def test_only_the_changed_lines_are_hunks_each_under_its_heading() -> None:
    old = "## One\n\nkept paragraph\n\n## Two\n\nfirst words here\n\nlast\n"
    new = "## One\n\nkept paragraph\n\n## Two\n\nfirst word here\n\nlast\n\nan added line\n"
    hunks = word_hunks(old, new)
    assert [(h.new_line, h.section) for h in hunks] == [(7, "## Two"), (10, "## Two")]
    assert hunks[0].pieces == [
        Piece("same", "first "),
        Piece("del", "words"),
        Piece("ins", "word"),
        Piece("same", " here"),
    ]
    assert hunks[1].pieces == [Piece("ins", "\nan added line")]


def test_the_page_marks_the_changed_word_inline(ws: Path) -> None:
    page = create_app(ws, secret="t").test_client().get(f"/guides/{SEARCH}").get_data(True)
    diffs = page[page.index('id="diffs"') :]
    words = re.findall(r'<p class="words">(.*?)</p>', diffs, re.S)
    changed = "- Build a judged query set before changing the <del>ranking</del><ins>ranker</ins>."
    assert words == [changed, changed]  # against the previous revision and the live version
    assert "· ## Put it into practice" in diffs


def test_inserted_markup_is_shown_as_text(ws: Path) -> None:
    hand_edit(ws, SEARCH, EDITED, "- Build a <b>judged</b> query set before changing the ranker.")
    page = create_app(ws, secret="t").test_client().get(f"/guides/{SEARCH}").get_data(True)
    assert "<ins>&lt;b&gt;</ins>judged<ins>&lt;/b&gt;</ins>" in page
    assert "<b>judged</b>" not in page


def test_review_diff_word_prints_the_word_not_the_lines(ws: Path) -> None:
    result = run(ws, "review", "diff", SEARCH, "--published", "--word")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("--- live version approved by Ada")
    assert re.fullmatch(r"@@ -\d+ \+\d+ @@ ## Put it into practice", lines[2])
    assert lines[3] == "- Build a judged query set before changing the [-ranking-]{+ranker+}."
    assert len(lines) == 4
    plain = run(ws, "review", "diff", SEARCH, "--published")
    assert f"-{STEP}" in plain.output and f"+{EDITED}" in plain.output
