"""Reader for the editable playbook of career lessons (prompts/playbook.yaml), and the matcher."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from string import Template

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from generator.checks.ours import HEADING_WORDS, short_phrase_problems
from generator.core.errors import ConfigError
from generator.drafting.prompts import PromptFiles
from generator.sources.yamlread import MAX_NESTING, nesting_too_deep

PLAYBOOK_NAME = "playbook.yaml"
PLACEHOLDERS = {"company"}
DIGIT = re.compile(r"\d")
WORD = re.compile(r"[^\W_]+")
LESSON_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def words(text: str) -> tuple[str, ...]:
    """Return the case-folded words of a text, with a plural "s" dropped ("GPUs" is "gpu")."""
    found = WORD.findall(text.casefold())
    return tuple(
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in found
    )


class Lesson(BaseModel):
    """One career lesson; `match` lists the techniques (and tools) it is about."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = None
    match: list[str] = []
    angle: str
    interpretation: str
    case_study_title: str
    case_study: str
    steps: list[str] = Field(min_length=3, max_length=5)

    @field_validator("angle", "case_study_title")
    @classmethod
    def _short_phrase(cls, value: str) -> str:
        problems = short_phrase_problems(value.replace("$company", "Company"))
        if problems:
            raise ValueError(
                f"{value!r} {' and '.join(problems)}; the checks refuse headings that are not a "
                f"short phrase of at most {HEADING_WORDS} words without sentence punctuation"
            )
        return value

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str | None) -> str | None:
        if value is not None and not LESSON_ID.fullmatch(value):
            raise ValueError("a lesson id is lowercase words joined by hyphens, e.g. caching")
        return value

    @field_validator("angle", "interpretation", "case_study_title", "case_study", "steps")
    @classmethod
    def _prose_only(cls, value: str | list[str]) -> str | list[str]:
        for text in [value] if isinstance(value, str) else value:
            if DIGIT.search(text):
                raise ValueError(
                    f"{text[:60]!r} contains a figure; lessons must not state numbers, "
                    "because a guide may only repeat figures its source states"
                )
            unknown = set(Template(text).get_identifiers()) - PLACEHOLDERS
            if unknown:
                raise ValueError(
                    f"unknown placeholder ${sorted(unknown)[0]}; only $company is replaced"
                )
        return value

    def prose(self) -> str:
        """Return everything of the lesson that reaches a guide, for hashing."""
        return "\n".join(
            [self.angle, self.interpretation, self.case_study_title, self.case_study, *self.steps]
        )


@dataclass(frozen=True)
class Choice:
    """The lesson picked for a record, and whether it is the generic one."""

    lesson: Lesson
    generic: bool


def _phrase(found: tuple[str, ...]) -> str:
    """Return words as one string padded with spaces, so `in` matches whole words only."""
    return f" {' '.join(found)} "


def _hits(tags: list[str], terms: list[tuple[str, int]]) -> tuple[int, int]:
    """Return how many tags contain a term, and the words of the longest term each matched."""
    count = specific = 0
    for tag in tags:
        longest = max((size for term, size in terms if term in tag), default=0)
        if longest:
            count += 1
            specific += longest
    return count, specific


class Playbook(BaseModel):
    """Lessons matched on a record's techniques, then title, then stack; a generic fallback."""

    model_config = ConfigDict(extra="forbid")

    version: int = 2
    lessons: list[Lesson] = []
    fallback: Lesson
    _terms: list[list[tuple[str, int]]] = PrivateAttr(default_factory=list)

    @model_validator(mode="after")
    def _unique_ids(self) -> Playbook:
        seen: set[str] = set()
        for lesson in [*self.lessons, self.fallback]:
            if lesson.id is None:
                continue
            if lesson.id in seen:
                raise ValueError(f"two lessons have the id {lesson.id!r}; ids must be unique")
            seen.add(lesson.id)
        self._terms = [
            [(_phrase(words(term)), len(words(term))) for term in lesson.match if words(term)]
            for lesson in self.lessons
        ]
        return self

    def choose(self, techniques: list[str], stack: list[str] = (), title: str = "") -> Choice:
        """Pick the lesson whose terms the techniques name most, most specifically.

        Techniques decide first; the title and then the stack only break ties, so a tool
        the record uses (PyTorch) never outweighs what the record is about (fraud scoring).
        Equal scores go to the lesson listed first; no match at all gives the generic lesson.
        """
        title_words = _phrase(words(title))
        technique_words = [_phrase(words(tag)) for tag in techniques]
        stack_words = [_phrase(words(tag)) for tag in stack]
        best, best_key = None, (0, 0, 0, 0, 0)
        for lesson, terms in zip(self.lessons, self._terms, strict=True):
            key = (
                *_hits(technique_words, terms),
                sum(1 for term, _ in terms if term in title_words),
                *_hits(stack_words, terms),
            )
            if key > best_key:
                best, best_key = lesson, key
        if best is None:
            return Choice(self.fallback, generic=True)
        return Choice(best, generic=False)


def load_playbook(prompts_dir: Path) -> tuple[Playbook, str]:
    """Read and validate the playbook (the root's copy, else the shipped one) and its text."""
    files = PromptFiles(prompts_dir)
    path = Path(str(files.location(PLAYBOOK_NAME)))
    text = files.read(PLAYBOOK_NAME)
    if text is None:
        raise ConfigError(
            "playbook is missing; `prepguide prompts export` restores the default",
            path=path,
            rule="playbook",
        )
    if nesting_too_deep(text):
        message = f"cannot parse: nested more than {MAX_NESTING} levels deep"
        raise ConfigError(message, path=path, rule="playbook")
    try:
        return Playbook.model_validate(yaml.safe_load(text)), text
    except yaml.YAMLError as exc:
        raise ConfigError(f"cannot parse: {exc}", path=path, rule="playbook") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ConfigError(message, path=path, field=field, rule="playbook") from exc
