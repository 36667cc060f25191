"""The draft: the prose a drafter (offline or LLM) returns, before facts are rendered in.

The schema is sent to the model as a strict structured output, which accepts `pattern`,
`format`, `minItems`/`maxItems` and numeric bounds only; every other limit is stated in the
field descriptions and in the re-ask (prompts/repair.j2). The patterns bind the model only:
a draft that breaks them (an editor's playbook, say) is still built, and the checks (ours.*)
refuse it with a message instead of generation failing.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

# At most 8 words, no sentence punctuation, no digits (the checks' ours.angle / ours.title).
SHORT_PHRASE = r"^[^\s.!?;:0-9]+( [^\s.!?;:0-9]+){0,7}$"
# One sentence that starts with a capital letter (an imperative): no sentence break inside.
ONE_SENTENCE = r"^[A-Z][^.!?\n]*[.!?]?$"


class ReportedStatement(BaseModel):
    """One sentence of what the source reports, with the verbatim source text behind it."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(
        description="One sentence stating what the source reports, with no figure, name or "
        "claim that its quote lacks."
    )
    quote: str = Field(description="A verbatim span of the source text that supports it.")


class Draft(BaseModel):
    """Prose only: no titles, URLs, dates or citations, which come from records."""

    model_config = ConfigDict(extra="forbid")

    reported: list[ReportedStatement] = Field(min_length=1, max_length=8)
    angle: str = Field(
        description="Short lower-case career angle of at most 8 words, no punctuation or "
        "figures, e.g. 'connect X to Y'.",
        json_schema_extra={"pattern": SHORT_PHRASE},
    )
    interpretation: str = Field(
        description="Our career interpretation, one or two paragraphs, in our own words: never "
        "copy a source sentence."
    )
    case_study_title: str = Field(
        description="Fills 'Build a ... case study' in at most 8 words, e.g. 'systems-oriented'.",
        json_schema_extra={"pattern": SHORT_PHRASE},
    )
    case_study: str = Field(
        description="How a candidate builds a small case study, in our own words."
    )
    steps: list[str] = Field(
        min_length=3,
        max_length=5,
        description="3 to 5 distinct steps, each one imperative sentence.",
        json_schema_extra={"items": {"type": "string", "pattern": ONE_SENTENCE}},
    )
