"""Diffs of a guide's text: against its previous revision and against its live version."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from generator.guides.project import Project
from generator.review.queue import live_version, read_current

# A word, a run of white space, or one other character: joined again they give the text back.
TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
# Beyond this many tokens a side, a changed stretch is shown whole, deleted then inserted.
MAX_TOKENS = 20_000


@dataclass(frozen=True)
class Piece:
    """A run of text that both sides share ("same"), or that one side deleted or inserted."""

    kind: str  # "same", "del" or "ins"
    text: str


@dataclass(frozen=True)
class Hunk:
    """One changed stretch of lines, with its words marked deleted or inserted."""

    old_line: int  # first line of the stretch on each side, counted from 1
    new_line: int
    section: str | None  # the heading above it in the new text
    pieces: list[Piece]


@dataclass(frozen=True)
class Diff:
    """A diff between two guide bodies: unified lines, and hunks of words on demand."""

    old_label: str
    new_label: str
    lines: list[str]
    old: str = ""
    new: str = ""

    @property
    def empty(self) -> bool:
        return not self.lines

    def text(self) -> str:
        return "\n".join(self.lines)

    def hunks(self) -> list[Hunk]:
        return word_hunks(self.old, self.new)


def marked(piece: Piece) -> str:
    """Return a piece as text with git's word-diff marks."""
    if piece.kind == "del":
        return f"[-{piece.text}-]"
    if piece.kind == "ins":
        return f"{{+{piece.text}+}}"
    return piece.text


def word_pieces(old: str, new: str) -> list[Piece]:
    """Diff two texts word by word; the changes of a stretch read deleted, then inserted."""
    a, b = TOKEN.findall(old), TOKEN.findall(new)
    if len(a) > MAX_TOKENS or len(b) > MAX_TOKENS:
        return _tidy([Piece("del", old), Piece("ins", new)])
    pieces: list[Piece] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            pieces.append(Piece("same", "".join(a[i1:i2])))
            continue
        pieces.append(Piece("del", "".join(a[i1:i2])))
        pieces.append(Piece("ins", "".join(b[j1:j2])))
    return _tidy(pieces)


def _tidy(pieces: list[Piece]) -> list[Piece]:
    """Fold white space between changes into them; a run of changes: one deletion, one insertion."""
    for n in range(1, len(pieces) - 1):
        piece = pieces[n]
        space = piece.kind == "same" and not piece.text.strip() and "\n" not in piece.text
        if space and pieces[n - 1].kind != "same" and pieces[n + 1].kind != "same":
            pieces[n] = Piece("both", piece.text)
    tidy: list[Piece] = []
    deleted, inserted = [], []
    for piece in [*pieces, Piece("same", "")]:
        if piece.kind in ("del", "both"):
            deleted.append(piece.text)
        if piece.kind in ("ins", "both"):
            inserted.append(piece.text)
        if piece.kind == "same":
            tidy += [Piece(kind, "".join(t)) for kind, t in (("del", deleted), ("ins", inserted))]
            deleted, inserted = [], []
            tidy.append(piece)
    return [piece for piece in tidy if piece.text]


def word_hunks(old: str, new: str) -> list[Hunk]:
    """Return the changed stretches of lines between two texts, each diffed word by word."""
    a, b = old.splitlines(), new.splitlines()
    hunks = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for group in matcher.get_grouped_opcodes(0):
        i1, j1 = group[0][1], group[0][3]
        i2, j2 = group[-1][2], group[-1][4]
        heading = next((line for line in reversed(b[:j1]) if line.startswith("#")), None)
        pieces = word_pieces("\n".join(a[i1:i2]), "\n".join(b[j1:j2]))
        hunks.append(Hunk(i1 + 1, j1 + 1, heading, pieces))
    return hunks


def _diff(old: str, new: str, old_label: str, new_label: str) -> Diff:
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), old_label, new_label, lineterm=""
    )
    return Diff(old_label, new_label, list(lines), old, new)


def diff_previous(project: Project, guide_id: str) -> Diff | None:
    """Diff the current text against the latest other kept revision; None for a first version."""
    _, doc = read_current(project, guide_id)
    revisions = project.guides.revisions(guide_id)
    others = [r for r in revisions if r.digest != doc.content_hash[:12]]
    if not others:
        return None
    previous = others[-1]
    return _diff(
        previous.read().body, doc.body, f"revision {previous.name}", f"current {guide_id}.md"
    )


def diff_published(project: Project, guide_id: str) -> Diff | None:
    """Diff the live (approved or published) text against the current text; None if none."""
    live = live_version(project, guide_id)
    if live is None:
        return None
    doc = project.guides.read(guide_id)
    new = doc.body if doc else ""
    label = f"live version approved by {live.approved_by} at {live.approved_at}"
    return _diff(live.doc.body, new, label, f"current {guide_id}.md")
