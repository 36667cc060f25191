"""Who a sentence is about: the company (its names, publisher, systems) or the reader."""

from __future__ import annotations

import re
from functools import lru_cache

from generator.checks.base import CheckContext, entity_names, entity_pattern
from generator.checks.text import record_index, words

DOCUMENT = re.compile(
    r"\b(?:the|this|that)\s+(?:original\s+|source\s+)?(?:article|write-?up|blog\s+post|post"
    r"|paper|source|authors?)\b|\baccording\s+to\b",
    re.IGNORECASE,
)
DOCUMENT_HINTS = ("according to", "article", "write", "post", "paper", "source", "author")
READER_WORDS = frozenset(["you", "your", "yours", "yourself"])
IMPERATIVES = frozenset(
    [
        "write",
        "summarise",
        "summarize",
        "build",
        "use",
        "compare",
        "measure",
        "profile",
        "record",
        "report",
        "pick",
        "choose",
        "train",
        "run",
        "keep",
        "explain",
        "describe",
        "draft",
        "list",
        "prepare",
        "practise",
        "practice",
        "read",
        "study",
        "add",
        "limit",
        "spend",
        "aim",
        "try",
        "start",
        "set",
        "change",
        "separate",
        "avoid",
        "conclude",
        "identify",
        "simulate",
        "label",
        "state",
        "show",
        "name",
        "plan",
        "budget",
        "time",
        "reproduce",
        "implement",
        "design",
        "estimate",
        "benchmark",
        "collect",
        "track",
        "present",
        "give",
        "target",
        "cap",
        "take",
        "make",
        "find",
        "ask",
        "answer",
        "include",
        "focus",
        "note",
        "document",
        "create",
        "test",
        "review",
        "rehearse",
        "outline",
        "sketch",
        "apply",
        "follow",
        "check",
        "look",
        "be",
        "do",
        "don't",
        "never",
        "always",
        "treat",
        "turn",
        "connect",
        "frame",
        "quantify",
        "replicate",
        "map",
        "break",
        "split",
        "sort",
        "rank",
        "cluster",
        "retrieve",
        "distil",
        "distill",
        "evaluate",
        "monitor",
        "instrument",
        "log",
        "deploy",
        "ship",
        "prototype",
        "tell",
        "walk",
        "work",
        "learn",
        "spend",
        "prioritise",
        "prioritize",
        "skip",
        "stop",
    ]
)


def mentions_document(text: str) -> bool:
    """Return True when a text refers to the source document ("the article", "according to")."""
    lowered = text.lower()
    return any(hint in lowered for hint in DOCUMENT_HINTS) and DOCUMENT.search(text) is not None


def company_names(ctx: CheckContext) -> tuple[str, ...]:
    """Return the names that stand for the company: itself, its publishers, its own systems."""
    names = set(entity_names(ctx)) | set(record_index(ctx.source).names)
    return tuple(sorted(names, key=len, reverse=True))


_LAST_MENTIONS: tuple[CheckContext | None, re.Pattern[str] | None] = (None, None)


def company_mentions(ctx: CheckContext) -> re.Pattern[str]:
    """Match the company, its publishers and the proper nouns of its record, as whole words."""
    global _LAST_MENTIONS
    last = _LAST_MENTIONS  # one check asks once per sentence; build the pattern once per context
    if last[0] is ctx and last[1] is not None:
        return last[1]
    pattern = entity_pattern(company_names(ctx))
    _LAST_MENTIONS = (ctx, pattern)
    return pattern


def about_company(sentence: str, ctx: CheckContext) -> bool:
    """Return True when a sentence names the company, its publisher, its systems or the source."""
    return company_mentions(ctx).search(sentence) is not None or mentions_document(sentence)


@lru_cache(maxsize=16384)
def is_instruction(sentence: str) -> bool:
    """Return True for a sentence addressed to the reader: an imperative or one that says "you"."""
    tokens = [t.casefold() for t in words(sentence)]
    if not tokens:
        return False
    if tokens[0] in IMPERATIVES or any(t in READER_WORDS for t in tokens):
        return True
    return len(tokens) > 1 and tokens[0] in ("first", "then", "next", "finally", "now")
