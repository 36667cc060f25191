"""Who a sentence is about: the company (its names, publisher, systems) or the reader."""

from __future__ import annotations

import re
from functools import lru_cache

from generator.checks.base import CheckContext, entity_names, entity_pattern, sentence_at
from generator.checks.lexicon import TECH_TERMS_TUPLE
from generator.checks.text import content, record_index, stems, words

DOCUMENT = re.compile(
    r"\b(?:the|this|that)\s+(?:original\s+|source\s+)?(?:paper|source|authors?)\b"
    r"|\b(?:the|this|that)\s+(?:[\w-]+\s+){0,2}?(?:article|write-?up|blog\s+post|post|account"
    r"|story|piece)\b|\baccording\s+to\b",
    re.IGNORECASE,
)
DOCUMENT_HINTS = ("according", "article", "write", "post", "paper", "source", "author")
DOCUMENT_HINTS += ("account", "story", "piece")
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
        # more verbs a practice step starts with
        "compute",
        "calculate",
        "define",
        "serve",
        "replay",
        "normalise",
        "normalize",
        "extend",
        "store",
        "configure",
        "generate",
        "inject",
        "remove",
        "strip",
        "route",
        "send",
        "fetch",
        "tune",
        "plot",
        "chart",
        "swap",
        "replace",
        "enable",
        "disable",
        "install",
        "call",
        "wire",
        "encode",
        "compress",
        "inspect",
        "count",
        "aggregate",
        "merge",
        "filter",
        "group",
        "classify",
        "predict",
        "fit",
        "validate",
        "verify",
        "retry",
        "throttle",
        "drop",
        "delete",
        "insert",
        "migrate",
        "restart",
        "kill",
        "pause",
        "resume",
        "restore",
        "compile",
        "bundle",
        "upgrade",
        "populate",
        "import",
        "export",
        "parse",
        "render",
        "draw",
        "tabulate",
        "put",
        "pair",
        "assign",
        "reserve",
        "emit",
        "enforce",
        "downsample",
        "vary",
        "mark",
        "close",
        "reconcile",
        "rate-limit",
        "stream",
        "query",
        "index",
        "score",
        "trace",
        "sample",
        "model",
        "simulate",
        "load",
        "shard",
        "partition",
        "cache",
        "batch",
        "rotate",
        "isolate",
        "roll",
        "alert",
        "halt",
        # base verbs that end in -ed, so that a past-form test cannot take them for one
        "embed",
        "shed",
        "shred",
        "seed",
        "feed",
        "proceed",
        "exceed",
        "succeed",
        "wed",
        "bed",
        "sled",
        "bleed",
        "breed",
        "speed",
        "heed",
        "weed",
        "reseed",
        "re-embed",
    ]
)
# Base verbs that end in -ed: "Embed the listings …" is an imperative, not a past form.
ED_VERBS = frozenset(w for w in IMPERATIVES if w.endswith("ed"))


def mentions_document(text: str) -> bool:
    """Return True when a text refers to the source document ("the article", "according to")."""
    lowered = text.lower()
    return any(hint in lowered for hint in DOCUMENT_HINTS) and DOCUMENT.search(text) is not None


# Third-party products that a record's stack names beside the built-in list's.
THIRD_PARTY = frozenset(
    ["kafka", "redis", "postgres", "flink", "cassandra", "pytorch", "rocksdb", "vitess"]
    + ["jenkins", "linkerd", "celery", "sqs", "vllm", "prometheus", "mysql", "envoy", "nginx"]
    + ["kubernetes", "spark", "elasticsearch", "opensearch", "scylladb", "cockroachdb"]
    + ["memcached", "bigtable", "spanner", "aurora", "sqlite", "duckdb", "iceberg", "parquet"]
    + ["arrow", "numpy", "pandas", "cuda", "nccl", "slurm", "bazel", "argo", "helm", "vault"]
)
TOOL_WORDS = frozenset(t for t in TECH_TERMS_TUPLE if " " not in t) | THIRD_PARTY


def is_tool(name: str, ctx: CheckContext) -> bool:
    """Return True when a name is a third-party tool, not one of the company's own systems.

    A tool is a name of the built-in product list, or of the database's stack or techniques
    that this record does not list (other records do); the record's own use wins where its
    title names it.
    """
    key = name.casefold()
    source = ctx.source
    if key not in TOOL_WORDS:
        if key not in _lowered(ctx.vocabulary):
            return False
        if key in {t.casefold() for t in (*source.stack, *source.techniques)}:
            return False  # listed by this record: its own system, unless a known product
    return key not in {w.casefold() for w in words(source.title)}


@lru_cache(maxsize=16)
def _lowered(vocabulary: tuple[str, ...]) -> frozenset[str]:
    return frozenset(v.casefold() for v in vocabulary)


def company_names(ctx: CheckContext) -> tuple[str, ...]:
    """Return the names that stand for the company: itself, its publishers, its own systems.

    A third-party tool the record uses (MySQL, Kafka) is not the company.
    """
    systems = {n for n in record_index(ctx.source).system_names if not is_tool(n, ctx)}
    names = set(entity_names(ctx)) | systems
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


THE_COMPANY = re.compile(r"\bthe\s+(?:company|firm|organi[sz]ation)(?:['’]s)?\b", re.IGNORECASE)


def about_company(sentence: str, ctx: CheckContext) -> bool:
    """Return True when a sentence names the company ("the company" too), its publisher, its
    systems or the source, or restates one of its record's sentences."""
    return (
        company_mentions(ctx).search(sentence) is not None
        or mentions_document(sentence)
        or (
            "ompany" in sentence
            or "firm" in sentence
            or "rganis" in sentence
            or "rganiz" in sentence
        )
        and THE_COMPANY.search(sentence) is not None
        or restates_record(sentence, ctx)
        or names_record_event(sentence, ctx)
    )


# Our statement of what happened to a thing the record names, with no name of the company:
# "The nightly batch was dropped …", "The rollout led to …" (past tense, a definite subject).
RECORD_EVENT = re.compile(
    r"^\W*(?:the|this|that)\s+(?P<np>(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:(?:was|were|had\s+been"
    r"|has\s+been|have\s+been|got)\s+(?:\w+ly\s+)?[a-z]+(?:ed|en|wn|lt|nt|ut|ld)"
    r"|(?:led|caused|brought|made|gave|cut|drove|forced|prompted|triggered))\b",
    re.IGNORECASE,
)


def names_record_event(sentence: str, ctx: CheckContext) -> bool:
    """Return True when a statement says, in the past, what happened to something the record
    names ("The nightly batch was dropped"): a claim about the company without its name."""
    match = RECORD_EVENT.match(sentence)
    if match is None or is_instruction(sentence):
        return False
    said = content(stems(match.group("np")))
    vocabulary = record_index(ctx.source).vocabulary
    return bool(said) and all(s in vocabulary for s in said)


# Our sentence restates a record sentence when most of its content words are that sentence's.
RESTATED_SHARE = 0.6
RESTATED_WORDS = 5


def restates_record(sentence: str, ctx: CheckContext) -> bool:
    """Return True when a statement of ours (not an instruction) says what one record
    sentence says, in most of its words: a claim about the company without its name."""
    said = set(content(stems(sentence)))
    if len(said) < RESTATED_WORDS or is_instruction(sentence):
        return False
    need = RESTATED_SHARE * len(said)
    return any(len(said & unit.stems) >= need for unit in record_index(ctx.source).units)


# A sentence that goes on about the company of the sentence before it ("Its engineers wrote …").
CONTINUES = re.compile(
    r"^\W*(?:its|their|his|her|they|it|he|she|the\s+(?:company|firm|team|engineers|authors"
    r"|organi[sz]ation|system|project|platform|service))\b",
    re.IGNORECASE,
)
# Who speaks when no name is given: "one engineer said", "a team lead wrote".
SPEAKER = re.compile(
    r"\b(?:(?:an?|one|the|its|their|some)\s+(?:[\w-]+\s+)?(?:engineers?|leads?|architects?"
    r"|developers?|designers?|researchers?|authors?|managers?|spokesperson|founders?|staff"
    r"|cto|ceo|vp|team|operators?|maintainers?))\s+(?:\w+\s+)?(?:said|says|wrote|writes"
    r"|put\s+it|puts\s+it|called|calls|described|describes|summed|joked|recalled|noted|told)\b",
    re.IGNORECASE,
)


# A sentence that names the speaker of the quotation before it ("That is how X put it.").
ATTRIBUTES_BACK = re.compile(
    r"^\W*(?:(?:that|this|so|thus)\b.{0,40}?\b(?:how|what|words?|says?|said|puts?|put|describes?"
    r"|described|sum|sums|summed|calls?|called|writes?|wrote)\b|(?:says?|said|writes?|wrote)\b)",
    re.IGNORECASE,
)


def speaks_for_company(text: str, position: int, ctx: CheckContext) -> bool:
    """Return True when the sentence at a position of a text gives the company's words.

    That is a sentence about the company, one that continues a sentence about it with a
    pronoun ("Its engineers wrote …"), or one that quotes an unnamed engineer of it.
    """
    sentence = sentence_at(text, position)
    if about_company(sentence, ctx) or SPEAKER.search(sentence):
        return True
    start = text.find(sentence)
    after = start + len(sentence)
    while start >= 0 and after < len(text) and text[after] in '"”’) \t\n':
        after += 1
    following = sentence_at(text, after) if start >= 0 and after < len(text) else ""
    back = following and following != sentence and ATTRIBUTES_BACK.search(following)
    if back and about_company(following, ctx):
        return True  # "“…” That is how X's engineers put it."
    if not CONTINUES.search(sentence):
        return False
    previous = sentence_at(text, max(0, start - 2)) if start > 0 else ""
    return bool(previous) and previous != sentence and about_company(previous, ctx)


@lru_cache(maxsize=16384)
def is_instruction(sentence: str) -> bool:
    """Return True for a sentence addressed to the reader: an imperative or one that says "you"."""
    tokens = [t.casefold() for t in words(sentence)]
    if not tokens:
        return False
    if tokens[0] in IMPERATIVES or any(t in READER_WORDS for t in tokens):
        return True
    if len(tokens) > 1 and tokens[0] in SEQUENCE:
        return True
    lead = LEAD_PHRASE.match(sentence)
    if lead is None:
        return False
    after = [t.casefold() for t in words(sentence[lead.end() :])[:1]]
    return bool(after) and after[0] in IMPERATIVES


SEQUENCE = frozenset(["first", "then", "next", "finally", "now", "afterwards", "also"])
# A lead-in before an instruction's verb: "For each setting, record …", "Finally, add …".
LEAD_PHRASE = re.compile(
    r"(?i)\A\W*(?:(?:first|then|next|finally|afterwards|also|now)\b|(?:for|on|in|with|using"
    r"|after|before|once|at|across|within|from|during|given|to)\b[^,;:.]{1,80}),\s+"
)
