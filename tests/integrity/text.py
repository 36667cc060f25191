"""Small text tools for editing guide bodies: sections, sentences, figures."""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADING = re.compile(r"^## (.+)$", re.M)
SENTENCE = re.compile(r"(?<=[.!?])[\"”’)]*\s+(?=[A-Z0-9\"“‘(])")
# A figure as an editor would see one: digits with separators, decimals and ranges, and an
# optional magnitude and unit sign ("3.6 billion", "54K", "20-25%", "2.5x", "2,400").
FIGURE = re.compile(
    r"(?<![\w.])(\d+(?:,\d{3})*(?:\.\d+)?)(?:[-–](\d+(?:\.\d+)?))?"
    r"(\s?(?:K|M|B|bn)\b|\s(?:thousand|million|billion|trillion)\b)?(%|x\b)?"
)
MAGNITUDES = {
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
    "K": 1e3,
    "M": 1e6,
    "B": 1e9,
    "bn": 1e9,
}

# Section keys in body order, by the first words of their heading.
KINDS = (
    ("reports", lambda h: h.startswith("What ") and h.endswith(" reports")),
    ("interpretation", lambda h: h.startswith("Our career interpretation")),
    ("case_study", lambda h: h.startswith("Build a") and h.endswith("case study")),
    ("steps", lambda h: h == "Put it into practice"),
    ("originals", lambda h: h == "Read the originals"),
)


def kind_of(heading: str) -> str | None:
    for key, test in KINDS:
        if test(heading):
            return key
    return None


@dataclass
class Body:
    """A guide body split into its preamble and '## ' sections, editable in place."""

    preamble: str
    headings: list[str]
    texts: list[str]

    @classmethod
    def parse(cls, body: str) -> Body:
        matches = list(HEADING.finditer(body))
        preamble = body[: matches[0].start()] if matches else body
        headings, texts = [], []
        for index, match in enumerate(matches):
            end = matches[index + 1].start() if index + 1 < len(matches) else len(body)
            headings.append(match.group(1))
            texts.append(body[match.end() : end].strip("\n"))
        return cls(preamble.strip("\n"), headings, texts)

    def render(self) -> str:
        parts = [self.preamble] if self.preamble else []
        for heading, text in zip(self.headings, self.texts, strict=True):
            parts.append(f"## {heading}")
            if text:
                parts.append(text)
        return "\n\n".join(parts) + "\n"

    def index(self, key: str) -> int | None:
        for position, heading in enumerate(self.headings):
            if kind_of(heading) == key:
                return position
        return None

    def get(self, key: str) -> str:
        position = self.index(key)
        return "" if position is None else self.texts[position]

    def set(self, key: str, text: str) -> None:
        position = self.index(key)
        if position is None:
            raise KeyError(key)
        self.texts[position] = text

    def heading(self, key: str) -> str:
        position = self.index(key)
        return "" if position is None else self.headings[position]

    def set_heading(self, key: str, heading: str) -> None:
        position = self.index(key)
        if position is None:
            raise KeyError(key)
        self.headings[position] = heading

    def section_of(self, key: str) -> str:
        """Return the position, heading and text of a section, to compare across an edit."""
        if key == "preamble":
            return self.preamble
        at = self.index(key)
        return "" if at is None else f"{at}\n{self.headings[at]}\n{self.texts[at]}"


def sentences(text: str) -> list[str]:
    """Split one paragraph of prose into sentences."""
    return [part.strip() for part in SENTENCE.split(" ".join(text.split())) if part.strip()]


def paragraphs(text: str) -> list[str]:
    return [part for part in re.split(r"\n\s*\n", text) if part.strip()]


def steps_of(text: str) -> tuple[list[str], list[str], list[str]]:
    """Split the practice section into lines before the list, the items, and lines after."""
    lines = text.split("\n")
    items_at = [i for i, line in enumerate(lines) if line.startswith("- ")]
    if not items_at:
        return lines, [], []
    first, last = items_at[0], items_at[-1]
    items = [line[2:] for line in lines[first : last + 1] if line.startswith("- ")]
    return lines[:first], items, lines[last + 1 :]


def join_steps(before: list[str], items: list[str], after: list[str]) -> str:
    return "\n".join([*before, *(f"- {item}" for item in items), *after]).strip("\n")


def record_sentences(record: dict) -> list[str]:
    """Return the sentences of a record's summary and notes."""
    return sentences(record.get("summary", "")) + sentences(record.get("notes") or "")


def value(match: re.Match[str]) -> float:
    """Return the numeric value of a FIGURE match (the upper end of a range)."""
    number = float((match.group(2) or match.group(1)).replace(",", ""))
    magnitude = (match.group(3) or "").strip()
    return number * MAGNITUDES.get(magnitude, 1.0)


def figures(text: str) -> list[re.Match[str]]:
    return list(FIGURE.finditer(text))


def lower_first(text: str, names: tuple[str, ...] = ()) -> str:
    """Lower-case the first letter unless the sentence opens with a name or an acronym."""
    word = text.split(" ", 1)[0]
    if any(text.startswith(name) for name in names) or word[1:].lower() != word[1:]:
        return text
    return text[:1].lower() + text[1:]


def strip_end(sentence: str) -> str:
    return sentence.rstrip().rstrip(".!?")


def replace_once(text: str, old: str, new: str) -> str | None:
    """Replace the first occurrence, or return None when old is absent."""
    if old not in text:
        return None
    return text.replace(old, new, 1)


def sub_once(text: str, pattern: str, repl, flags: int = 0) -> str | None:
    """Substitute the first regex match, or return None when nothing matches."""
    result, count = re.subn(pattern, repl, text, count=1, flags=flags)
    return result if count else None
