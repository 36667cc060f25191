"""The corpus database, read from records.yaml and lessons.yaml beside this module."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Hints:
    """Hand-written knowledge about one record, for templates that need it."""

    systems: tuple[str, ...] = ()  # the company's own products and systems
    components: tuple[str, ...] = ()  # named parts of the design that could be credited
    wrong_credit: tuple[tuple[str, str], ...] = ()  # a result moved to another component
    polarity: tuple[tuple[str, str], ...] = ()  # a negation, hedge or quantifier flipped
    direction: tuple[tuple[str, str], ...] = ()  # a change of direction with the same terms
    arithmetic: tuple[tuple[str, str, str], ...] = ()  # (kind, old, exact restatement)
    joined: tuple[str, ...] = ()  # claims joining a subject and a result of two sentences

    @classmethod
    def load(cls, data: dict[str, Any]) -> Hints:
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise ValueError(f"unknown hints {sorted(unknown)} in records.yaml")
        return cls(
            **{
                k: tuple(tuple(v) if isinstance(v, list) else v for v in vs)
                for k, vs in data.items()
            }
        )


DATA = yaml.safe_load((HERE / "records.yaml").read_text(encoding="utf-8"))
SITE_NAME: str = DATA["site_name"]
REPO: dict[str, tuple[dict[str, Any], Hints]] = {
    key: (entry["complete"], Hints.load(entry["hints"])) for key, entry in DATA["repo"].items()
}
FICTIONAL: list[tuple[dict[str, Any], Hints]] = [
    (entry["record"], Hints.load(entry["hints"])) for entry in DATA["fictional"]
]
SEED_RECORD: dict[str, Any] = DATA["seed"]["record"]
SEED_HINTS = Hints.load(DATA["seed"]["hints"])
LLM_DRAFTS: dict[str, dict[str, Any]] = DATA["llm_drafts"]
EXTRA_LESSONS: list[dict[str, Any]] = yaml.safe_load(
    (HERE / "lessons.yaml").read_text(encoding="utf-8")
)["lessons"]


def complete(stem: str, data: dict[str, Any]) -> tuple[dict[str, Any], Hints]:
    """Give a repo sample record the URL and dates an editor would add; return its hints."""
    extra, hints = REPO.get(stem, ({}, Hints()))
    extra = dict(extra)
    urls = extra.pop("citation_urls", [])
    data = {**data, **extra}
    if urls:
        data["citations"] = [
            {**citation, "url": url}
            for citation, url in zip(data.get("citations", []), urls, strict=True)
        ]
    return data, hints
