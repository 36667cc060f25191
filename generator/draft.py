"""The draft: the prose a drafter (offline or LLM) returns, before facts are rendered in."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ReportedStatement(BaseModel):
    """One sentence of what the source reports, with the verbatim source text behind it."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="One sentence stating what the source reports.")
    quote: str = Field(description="A verbatim span of the source text that supports it.")


class Draft(BaseModel):
    """Prose only: no titles, URLs, dates or citations, which come from records."""

    model_config = ConfigDict(extra="forbid")

    reported: list[ReportedStatement] = Field(min_length=1, max_length=8)
    angle: str = Field(description="Short lower-case career angle, e.g. 'connect X to Y'.")
    interpretation: str = Field(description="Our career interpretation, one or two paragraphs.")
    case_study_title: str = Field(
        description="Fills 'Build a ... case study', e.g. 'systems-oriented'."
    )
    case_study: str = Field(description="How a candidate builds a small case study.")
    steps: list[str] = Field(min_length=3, max_length=5)
