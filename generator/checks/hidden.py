"""hidden.*: no HTML comments, invisible characters, text aimed at a tool or model, AI endings."""

from __future__ import annotations

import re

from generator.checks.base import CheckContext, ParsedGuide, finding, quote, sentence_at
from generator.findings import Finding

COMMENT = re.compile(r"<!--|-->|<!\[CDATA\[|<\s*(?:script|style|template)\b", re.IGNORECASE)
INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
INJECTION = re.compile(
    r"(?i:\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior"
    r"|above|earlier|preceding|your|these|other)\s+(?:instructions?|prompts?|rules?|directions"
    r"|guidelines|checks?)"
    r"|\bsystem\s+prompt\b|\bdeveloper\s+(?:message|prompt)\b"
    r"|\b(?:approve|auto-?approve|publish|pass|accept)\s+(?:this|the)\s+(?:guide|draft|text"
    r"|article|page)\b"
    r"|\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:the\s+)?(?:reviewer|editor|model"
    r"|ai|llm|assistant|checker|grader|tool|bot)s?\b"
    r"|\b(?:dear|attention|hey|hello)\s+(?:reviewer|editor|model|ai|llm|assistant|checker|bot)"
    r"|\b(?:reviewers?|editors?|models?|ai|llms?|assistants?|checkers?|graders?|tools?)\s*[,:]"
    r"\s*(?:please\s+)?(?:ignore|approve|skip|do\s+not|don't|mark|treat|publish|pass)\b"
    r"|\byou\s+are\s+(?:now\s+)?(?:an?\s+)?(?:ai|assistant|language\s+model|llm|chatbot)\b"
    r"|\b(?:do\s+not|don't)\s+(?:flag|check|report|review)\s+(?:this|these|the)\b"
    r"|\bmark\s+(?:this|the\s+guide|it)\s+as\s+(?:approved|verified|passed|safe)\b"
    r"|\bjailbreak\b|\bprompt\s+injection\b)"
)
AI_ENDING = re.compile(
    r"(?i:\bI\s+hope\s+(?:this|that|it)\s+helps\b|\bhope\s+this\s+helps\b"
    r"|\blet\s+me\s+know\s+if\b|\bfeel\s+free\s+to\s+(?:ask|reach\s+out)\b"
    r"|\b(?:was|were|is|has\s+been)\s+(?:generated|written|produced|created|drafted)\s+"
    r"(?:by|with|using)\s+(?:an?\s+)?(?:ai|llm|language\s+model|chatgpt|gpt[\w.-]*|model"
    r"|artificial\s+intelligence)\b"
    r"|\b(?:ai|llm|model)-generated\b|\bhappy\s+to\s+help\b|\bgood\s+luck\s+with\s+your\b"
    r"|\bi\s+(?:can|could)\s+also\s+help\b|\bwould\s+you\s+like\s+me\s+to\b)"
)
KINDS = (
    (INJECTION, "hidden.injection", "text addressed to a tool, reviewer or model"),
    (AI_ENDING, "hidden.ai_ending", "a conversational AI ending"),
)


def check_hidden(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Refuse HTML comments, invisible characters and text aimed at a tool, reviewer or model."""
    findings = []
    body = guide.body
    comment = COMMENT.search(body)
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
    for pattern, rule, what in KINDS:
        hit = pattern.search(body)
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
