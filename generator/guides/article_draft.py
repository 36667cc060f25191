"""The article draft: one block per source, our shared sections, and composing its body."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from generator.guides.compose import _one_line, citation_line, disclaimer, our_sections
from generator.guides.schema import ONE_SENTENCE, SHORT_PHRASE, ReportedStatement
from generator.sources.citations import CitationView
from generator.sources.records import Source

MAX_BLOCKS = 6


class SourceBlock(BaseModel):
    """What one source reports: its record id and statements quoted from that record only."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(description="The record id of the write-up this block reports.")
    reported: list[ReportedStatement] = Field(min_length=1, max_length=6)


class ArticleDraft(BaseModel):
    """Prose only for an article: no titles, URLs, dates or citations."""

    model_config = ConfigDict(extra="forbid")

    blocks: list[SourceBlock] = Field(
        min_length=1,
        max_length=MAX_BLOCKS,
        description="One block per write-up, in the order given, each quoting only its own source.",
    )
    angle: str = Field(
        description="Short lower-case angle of at most 8 words, no punctuation or figures.",
        json_schema_extra={"pattern": SHORT_PHRASE},
    )
    interpretation: str = Field(
        description="Our interpretation comparing the write-ups, in our own words; every "
        "sentence that names a company states only what that company's own write-up says."
    )
    case_study_title: str = Field(
        description="Fills 'Build a ... case study' in at most 8 words.",
        json_schema_extra={"pattern": SHORT_PHRASE},
    )
    case_study: str = Field(description="How a candidate builds a small case study.")
    steps: list[str] = Field(
        min_length=3,
        max_length=5,
        description="3 to 5 distinct steps, each one imperative sentence.",
        json_schema_extra={"items": {"type": "string", "pattern": ONE_SENTENCE}},
    )


def block_heading(source: Source) -> str:
    """Return a source block's heading: "What <Company> reports: <write-up title>"."""
    return f"What {_one_line(source.company)} reports: {_one_line(source.title)}"


def originals_lines(views: Sequence[CitationView]) -> str:
    """Render the body of an article's "Read the originals" from every source's citations."""
    lines = "\n".join(citation_line(view) for view in views)
    return f"Sources & verification dates.\n\n{lines}"


def compose_article_body(
    draft: ArticleDraft,
    sources: Sequence[Source],
    views: Sequence[CitationView],
    site_name: str,
) -> str:
    """Return the Markdown body of an article: each source's block, then ours."""
    by_id = {block.source: block for block in draft.blocks}
    parts = [disclaimer(site_name)]
    for source in sources:
        block = by_id.get(source.key)
        reported = (
            " ".join(_one_line(s.text) for s in block.reported) if block else "(no statements)"
        )
        parts += [f"## {block_heading(source)}", reported]
    parts += [
        *our_sections(draft),
        "## Read the originals",
        originals_lines(views),
    ]
    return "\n\n".join(parts) + "\n"


def sources_hash(sources: Sequence[Source]) -> str:
    """Hash the article's resolved records: their ids, order and content."""
    digest = hashlib.sha256()
    for source in sources:
        digest.update(f"{source.key}\0{source.content_hash()}\0".encode())
    return digest.hexdigest()


def company_names(sources: Sequence[Source]) -> str:
    """Name the article's companies in order of first appearance: "Meta, Shopify and Uber"."""
    names = list(dict.fromkeys(s.company for s in sources))
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
