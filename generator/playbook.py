"""Reader for the editable playbook of career lessons (prompts/playbook.yaml)."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from generator.errors import ConfigError
from generator.sources import normalize_tag

PLAYBOOK_NAME = "playbook.yaml"


class Lesson(BaseModel):
    """One career lesson; `match` lists the technique or stack tags it suits."""

    model_config = ConfigDict(extra="forbid")

    match: list[str] = []
    angle: str
    interpretation: str
    case_study_title: str
    case_study: str
    steps: list[str] = Field(min_length=3, max_length=5)


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
    try:
        return Playbook.model_validate(yaml.safe_load(text)), text
    except yaml.YAMLError as exc:
        raise ConfigError(f"cannot parse: {exc}", path=path, rule="playbook") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise ConfigError(first["msg"], path=path, field=field, rule="playbook") from exc
