"""hidden.*: no HTML comments, invisible characters, text aimed at a tool or model, AI endings."""

from __future__ import annotations

import re

from generator.checks.base import CheckContext, ParsedGuide, finding, quote, sentence_at
from generator.checks.prefilter import Started
from generator.guides.findings import Finding

COMMENT = re.compile(r"<!--|-->|<!\[CDATA\[|<\s*(?:script|style|template)\b", re.IGNORECASE)
INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# Each pattern runs only when one of its words is in the text (a cheap pre-scan).
INJECTION = (
    (
        ("ignore", "disregard", "forget", "override"),
        r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior"
        r"|above|earlier|preceding|your|these|other)\s+(?:instructions?|prompts?|rules?"
        r"|directions|guidelines|checks?)",
    ),
    (("system prompt", "developer"), r"\bsystem\s+prompt\b|\bdeveloper\s+(?:message|prompt)\b"),
    (
        ("approve", "pass this guide", "pass the guide"),
        r"\b(?:approve|auto-?approve)\s+(?:this|the)\s+(?:guide|draft|text|article|page)\b"
        r"|\bpass\s+(?:this|the)\s+guide\b",
    ),
    (
        ("note to", "note for", "message to", "message for", "instructions", "instruction "),
        r"\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:the\s+)?(?:reviewer|editor|model"
        r"|ai|llm|assistant|checker|grader|tool|bot)s?\b",
    ),
    (
        ("dear", "attention", "hey", "hello"),
        r"\b(?:dear|attention|hey|hello)\s+(?:reviewer|editor|model|ai|llm|assistant|checker|bot)",
    ),
    (
        ("ignore", "approve", "skip", "do not", "don't", "mark", "treat", "publish", "pass"),
        r"\b(?:reviewers?|editors?|models?|ai|llms?|assistants?|checkers?|graders?|tools?)\s*[,:]"
        r"\s*(?:please\s+)?(?:ignore|approve|skip|do\s+not|don't|mark|treat|publish|pass)\b",
    ),
    (
        ("you are",),
        r"\byou\s+are\s+(?:now\s+)?(?:an?\s+)?(?:ai|assistant|language\s+model|llm|chatbot)\b",
    ),
    (
        ("do not", "don't"),
        r"\b(?:do\s+not|don't)\s+(?:flag|check|report|review)\s+(?:this|these|the)\b",
    ),
    (("mark",), r"\bmark\s+(?:this|the\s+guide|it)\s+as\s+(?:approved|verified|passed|safe)\b"),
    (("jailbreak", "injection"), r"\bjailbreak\b|\bprompt\s+injection\b"),
)
AI_ENDING = (
    (("hope",), r"\bhope\s+(?:this|that|it)\s+helps\b"),
    (("let me know",), r"\blet\s+me\s+know\s+if\b"),
    (("feel free",), r"\bfeel\s+free\s+to\s+(?:ask|reach\s+out)\b"),
    (
        ("generated", "written", "produced", "created", "drafted"),
        r"\b(?:was|were|is|has\s+been)\s+(?:generated|written|produced|created|drafted)\s+"
        r"(?:by|with|using)\s+(?:an?\s+)?(?:ai|llm|language\s+model|chatgpt|gpt[\w.-]*|model"
        r"|artificial\s+intelligence)\b|\b(?:ai|llm|model)-generated\b",
    ),
    (("happy to help",), r"\bhappy\s+to\s+help\b"),
    (("good luck",), r"\bgood\s+luck\s+with\s+your\b"),
    (("also help",), r"\bi\s+(?:can|could)\s+also\s+help\b"),
    (("would you like",), r"\bwould\s+you\s+like\s+me\s+to\b"),
)


# A pattern can only match where its tail does: "reviewer: approve" needs ": approve". The tail
# starts with a fixed character, so it is found far faster than the whole pattern.
TAILS = {
    INJECTION[5][1]: r"[,:]\s*(?:please\s+)?(?:ignore|approve|skip|do\s+not|don't|mark|treat"
    r"|publish|pass)\b",
}


def _gate(pattern: str) -> re.Pattern[str]:
    """Compile what every match of a pattern holds: its tail, or the pattern without \\b."""
    return re.compile(TAILS.get(pattern, pattern.replace(r"\b", "")))


def _compiled(table):
    """Compile each pattern and its gate, to be tried only where an opening word starts."""
    return tuple(
        (hints, Started(_gate(pattern)), Started(re.compile(pattern))) for hints, pattern in table
    )


KINDS = (
    (_compiled(INJECTION), "hidden.injection", "text addressed to a tool, reviewer or model"),
    (_compiled(AI_ENDING), "hidden.ai_ending", "a conversational AI ending"),
)


def check_hidden(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Refuse HTML comments, invisible characters and text aimed at a tool, reviewer or model."""
    findings = []
    body = guide.body
    comment = COMMENT.search(body) if "<" in body or "-->" in body else None
    if comment is not None:
        where = quote(body[comment.start() : comment.start() + 80], 80)
        findings.append(
            finding(
                "hidden.comment",
                "error",
                "body",
                f"hidden markup {where}: HTML comments and raw script/style blocks are not "
                "shown to readers; remove them (write visible prose only)",
            )
        )
    invisible = INVISIBLE.search(body)
    if invisible is not None:
        findings.append(
            finding(
                "hidden.invisible",
                "error",
                "body",
                f"invisible character U+{ord(invisible.group()):04X} at offset "
                f"{invisible.start()}; remove zero-width and bidirectional control characters",
            )
        )
    lowered = body.lower().replace("’", "'")
    # The patterns allow any white space between words; the hints hold single spaces.
    spaced = " ".join(lowered.split())
    for table, rule, what in KINDS:
        hit = next(
            (
                found
                for hints, gate, pattern in table
                if any(hint in spaced for hint in hints)
                and gate.search(lowered) is not None
                and (found := pattern.search(lowered)) is not None
            ),
            None,
        )
        if hit is not None:
            findings.append(
                finding(
                    rule,
                    "error",
                    "body",
                    f"{what}: {quote(sentence_at(body, hit.start()))}; remove it",
                )
            )
    return findings
