"""Reader for the editable playbook of career lessons (prompts/playbook.yaml)."""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from generator.errors import ConfigError
from generator.sources import normalize_tag

PLAYBOOK_NAME = "playbook.yaml"
PLACEHOLDERS = {"company"}
DIGIT = re.compile(r"\d")


class Lesson(BaseModel):
    """One career lesson; `match` lists the technique or stack tags it suits."""

    model_config = ConfigDict(extra="forbid")

    match: list[str] = []
    angle: str
    interpretation: str
    case_study_title: str
    case_study: str
    steps: list[str] = Field(min_length=3, max_length=5)

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


class Playbook(BaseModel):
    """Lessons keyed by tag, with a general fallback."""

    model_config = ConfigDict(extra="forbid")

    version: int = 1
    lessons: list[Lesson] = []
    fallback: Lesson

    def choose(self, tags: list[str]) -> Lesson:
        """Pick the lesson matching most tags; ties go to the earlier lesson."""
        wanted = {normalize_tag(tag) for tag in tags}
        best, best_score = self.fallback, 0
        for lesson in self.lessons:
            score = len(wanted & {normalize_tag(tag) for tag in lesson.match})
            if score > best_score:
                best, best_score = lesson, score
        return best


def load_playbook(prompts_dir: Path) -> tuple[Playbook, str]:
    """Read and validate the playbook; return it with its raw text."""
    path = prompts_dir / PLAYBOOK_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError("playbook is missing", path=path, rule="playbook") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError("not UTF-8; re-save it as UTF-8", path=path, rule="playbook") from exc
    try:
        return Playbook.model_validate(yaml.safe_load(text)), text
    except yaml.YAMLError as exc:
        raise ConfigError(f"cannot parse: {exc}", path=path, rule="playbook") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ConfigError(message, path=path, field=field, rule="playbook") from exc
