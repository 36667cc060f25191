"""Compose a guide body from a draft and the records: words from the model, facts from data."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Protocol

from generator.guides.schema import Draft
from generator.sources.citations import CitationView
from generator.sources.records import Source

DISCLAIMER_TEMPLATE = (
    "This is an original summary and career interpretation by {site}, informed by the linked "
    "sources. It is not authored, endorsed or sponsored by those publishers. Source findings "
    "and our suggested preparation steps serve different purposes."
)


def disclaimer(site_name: str) -> str:
    """Return the disclaimer paragraph for a site."""
    return DISCLAIMER_TEMPLATE.format(site=site_name)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _md_escape(text: str) -> str:
    """Escape Markdown link syntax in record text rendered inside a link."""
    return _one_line(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _date(value: date | None) -> str:
    return value.isoformat() if value else "unknown"


def citation_line(view: CitationView) -> str:
    """Render one original: title ↗, then publisher · Published · Checked."""
    if view.url:
        head = f"- [{_md_escape(view.title)} ↗](<{view.url}>)"
    else:
        head = f"- {_md_escape(view.title)} (link not yet recorded)"
    checked = f"Checked {view.checked.isoformat()}" if view.checked else "Not yet checked"
    detail = f"{_one_line(view.publisher)} · Published {_date(view.published)} · {checked}"
    return f"{head}  \n  {detail}"


def originals_block(views: Iterable[CitationView]) -> str:
    """Render the body of "Read the originals" from citation views."""
    lines = "\n".join(citation_line(view) for view in views)
    return f"Sources & verification dates.\n\n{lines}"


def compose_body(draft: Draft, source: Source, views: list[CitationView], site_name: str) -> str:
    """Return the Markdown body of a guide in contract order."""
    reported = " ".join(_one_line(statement.text) for statement in draft.reported)
    parts = [
        disclaimer(site_name),
        f"## What {_one_line(source.company)} reports",
        reported,
        *our_sections(draft),
        "## Read the originals",
        originals_block(views),
    ]
    return "\n\n".join(parts) + "\n"


class OurDraft(Protocol):
    """What our sections are made from, in a guide's draft or an article's."""

    angle: str
    interpretation: str
    case_study_title: str
    case_study: str
    steps: list[str]


def our_sections(draft: OurDraft) -> list[str]:
    """Return our sections in contract order: interpretation, case study, practice steps."""
    steps = "\n".join(f"- {_one_line(step)}" for step in draft.steps)
    return [
        f"## Our career interpretation: {_one_line(draft.angle)}",
        draft.interpretation.strip(),
        f"## Build a {_one_line(draft.case_study_title)} case study",
        draft.case_study.strip(),
        "## Put it into practice",
        f"Your next research steps.\n\n{steps}",
    ]
