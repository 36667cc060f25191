"""The corpus model: edit templates, the guides they apply to, and the resulting cases."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .records import Hints
from .text import Body

Group = str  # "wrong" (must be caught), "legit" (must pass), "limit" (beyond the spec)


@dataclass(frozen=True)
class GuideInput:
    """One generated guide and what templates may know about its record."""

    id: str
    body: str
    record: dict
    hints: Hints
    others: tuple[str, ...]  # the other companies of the database

    @property
    def company(self) -> str:
        return self.record["company"]

    @property
    def publisher(self) -> str:
        return self.record.get("publisher") or self.company

    @property
    def names(self) -> tuple[str, ...]:
        """The company and its own system names: what counts as the company speaking."""
        return (self.company, *self.hints.systems)

    def parsed(self) -> Body:
        return Body.parse(self.body)


Edit = Callable[[GuideInput, random.Random], "str | None"]


@dataclass(frozen=True)
class Kind:
    name: str
    group: Group
    families: tuple[
        str, ...
    ]  # rule-id prefixes allowed to catch it ("figures.", "structure.angle")
    about: str


@dataclass(frozen=True)
class Template:
    id: str
    kind: Kind
    section: str  # the section the edit changes: preamble, reports, interpretation, ...
    edit: Edit
    held_out: bool = False
    whole: bool = False  # the edit may change more than its section (headings, order)


@dataclass(frozen=True)
class Case:
    """One template applied to one guide."""

    id: str
    template: str
    kind: str
    group: Group
    families: tuple[str, ...]
    section: str
    held_out: bool
    whole: bool
    guide: str
    before: str
    after: str


def section_edit(key: str, change: Callable[[str, GuideInput, random.Random], str | None]) -> Edit:
    """Lift an edit of one section's text into an edit of the whole body."""

    def edit(guide: GuideInput, rng: random.Random) -> str | None:
        body = guide.parsed()
        if body.index(key) is None:
            return None
        new = change(body.get(key), guide, rng)
        if not new or new == body.get(key):
            return None
        body.set(key, new)
        return body.render()

    return edit


class Registry:
    """Collects templates as they are declared."""

    def __init__(self) -> None:
        self.templates: list[Template] = []

    def add(
        self,
        kind: Kind,
        template_id: str,
        section: str,
        *,
        held_out: bool = False,
        whole: bool = False,
    ):
        """Register a template: fn(text, guide, rng) edits one section, or the whole body."""

        def wrap(fn):
            edit = fn if whole else section_edit(section, fn)
            self.templates.append(
                Template(f"{kind.name}.{template_id}", kind, section, edit, held_out, whole)
            )
            return fn

        return wrap
