"""attribution.advice: no advice, recommendation or endorsement in the company's mouth.

The company is its name, its publishers, the proper nouns of its record (its products and
systems) and "the article"; paraphrases ("the engineers behind X advise", "X says you should")
count. A verbatim quotation with no directive around it is not advice.
"""

from __future__ import annotations

import re
from functools import lru_cache

from generator.checks.analysis import analysis
from generator.checks.base import CheckContext, ParsedGuide, finding, quote
from generator.checks.prefilter import gated
from generator.checks.quoting import QUOTED
from generator.checks.subjects import company_mentions, mentions_document
from generator.guides.document import REPORTS
from generator.guides.findings import Finding

ADVICE = (
    r"recommend(?:s|ed|ing)?|advis(?:e|es|ed|ing)|endors(?:e|es|ed|ing)|urg(?:e|es|ed)"
    r"|encourag(?:e|es|ed)|counsel(?:s|ed)?|prescrib(?:e|es|ed)|approv(?:e|es|ed)"
    r"|vouch(?:es|ed)?\s+for|insist(?:s|ed)?\s+(?:that\s+)?(?:you|candidates)"
    r"|suggest(?:s|ed)?\s+(?:that\s+)?(?:you|candidates|readers|applicants|job\s+seekers)"
    r"|suggest(?:s|ed)?\s+(?!that\b)[a-z]+ing\b"
    r"|(?:want|expect|tell|ask)(?:s|ed)?\s+(?:you|candidates|readers|applicants|job\s+seekers)"
    r"|looks?\s+for\s+(?:candidates|engineers|applicants|people)"
    r"|hires?\s+(?:candidates|engineers|applicants|people)\s+who"
)
READER = (
    r"(?:you|candidates?|readers?|applicants?|job\s+seekers|everyone|anyone|one|we|people"
    r"|interviewees|(?:(?:every|each|any|a|an|all|[a-z]+)\s+)?(?:engineering\s+)?"
    r"(?:teams?|engineers?|developers?|candidates?|builders?|newcomers))"
)
# Whom advice is told to: "teaches engineers to", "would tell you to".
LISTENER = (
    r"(?:you|us|candidates?|readers?|applicants?|job\s+seekers|everyone|anyone|people"
    r"|interviewees|(?:(?:its|their|every|each|any|all|other)\s+)?(?:engineering\s+)?"
    r"(?:teams?|engineers?|developers?|builders?|newcomers|staff))"
)
TEACH = (
    r"(?:tell|tells|told|teach|teaches|taught|remind|reminds|reminded|want|wants|wanted|ask"
    r"|asks|asked|encourage|encourages|push|pushes|pushed|train|trains|trained|warn|warns"
    r"|warned|expect|expects|expected|invite|invites|challenge|challenges)"
)
# What turns a lesson into advice: "… is to measure", "… is simple: measure", "… is that
# teams should"; "the lesson from X is that profiling matters" is our reading, not advice.
LESSON_TAIL = (
    r"\s*(?:(?:is|was)\s+(?:(?:simple|clear|plain|short)\s*)?(?::|to\s+[a-z]"
    r"|that\s+[^.;:!?]{0,80}?\b(?:should|must|ought|need|needs|have\s+to|has\s+to)\b)"
    r"|:|boils\s+down\s+to|comes\s+down\s+to)"
)
# A modal of obligation with any subject: "According to X, a careful team should …".
MODAL = (
    r"(?:should|must|ought\s+to|had\s+better|'d\s+better|would\s+do\s+well\s+to"
    r"|(?:need|needs|have|has)\s+to(?!\s+be\b))\b"
)
# Nouns that carry a lesson or advice: "X's guidance is to", "the message of X is".
LESSON = (
    r"(?:message|lesson|advice|guidance|takeaway|moral|motto|mantra|rule|tip|recommendation"
    r"|philosophy|principle|counsel|instruction|verdict)s?"
)
# Who a guide's reader is: advice aimed at them has no place in what a source reports.
AUDIENCE = re.compile(
    r"\b(?:you|your|candidates?|readers?|applicants?|job\s+seekers|interviewees)\b", re.I
)
DIRECTIVE = (
    rf"{READER}\s+(?:(?:always|really|simply|first|also)\s+)?(?:should|must|ought\s+to"
    r"|need\s+to|needs\s+to|have\s+to|has\s+to|had\s+better|'d\s+better|would\s+do\s+well\s+to"
    r"|are\s+(?:advised|expected|encouraged|urged)\s+to|shouldn't|mustn't)"
)
SAYING = (
    r"(?:says?|said|states?|stated|claims?|believes?|thinks?|argues?|writes?|insists?|shows?"
    r"|showed|suggests?|notes?|explains?|teaches|taught|demonstrates?|proves?|reminds?\s+us)"
)
ROLE = (
    r"(?:\s+(?:engineers?|engineering(?:\s+team)?|teams?|researchers?|authors?|leadership"
    r"|hiring\s+managers?|recruiters?|interviewers?|staff|itself|people|folks|experts?"
    r"|designers?|architects?|developers?|builders?|creators?|maintainers?|operators?|makers?))?"
)
AUXILIARY = r"(?:\s+(?:also|strongly|explicitly|officially|now|even|would|does|did|do|not|n't))*"
NEGATION = re.compile(r"\b(?:not|never|neither|nor|no)\b|n't\b", re.IGNORECASE)
SYSTEM_NOUNS = (
    r"systems?|models?|engines?|infrastructure|stack|pipelines?|services?|algorithms?|ranking"
    r"|feeds?|products?|surfaces?|teams?|workloads?|quality|problems?|tasks?"
)
# What an endorsement can be of: the guide, its advice, the reader ("an endpoint backed by
# MySQL" is no endorsement).
ENDORSED = (
    r"(?:(?:this|the|our|these|such|its|each|every)\s+(?:[\w-]+\s+)?(?:guides?|pages?|site"
    r"|advice|recommendations?|suggestions?|steps?|tips?|plans?|interpretation|case\s+study"
    r"|approach|method|preparation|exercises?|materials?|content|summary|checklists?|lists?"
    r"|practice|course|curriculum|roadmap|strategy|portfolio|projects?|answers?)"
    r"|you|candidates?|readers?|applicants?|we|us|this|that)"
)
# Entity names are masked with one private-use character, so the attribution patterns below
# are compiled once instead of once per company.
ENTITY_MARK = "\ue000"
QUOTE_MARK = "\ue001"
_ENTITY = (
    rf"(?:(?:the\s+)?{ENTITY_MARK}(?:['’]s?)?{ROLE}"
    r"|\b(?:the|this)\s+(?:original\s+)?(?:article|write-?up|blog\s+post|post|paper"
    r"|source|authors?))"
)
_PEOPLE = (
    r"\b(?:engineers?|teams?|people|folks|staff|researchers?|authors?|leaders?|leadership"
    r"|experts?|builders?|creators?)\s+(?:behind|at|from|of|who\s+built)\s+(?:the\s+)?"
    rf"{ENTITY_MARK}(?:['’]s)?(?:\s+[\w-]+)?"
)
# Words without which a pattern cannot match: a sentence is searched only with the patterns
# whose cues it holds, so most sentences meet one cheap search instead of every pattern.
ADVICE_CUES = ("recommend", "advis", "endors", "urg", "encourag", "counsel", "prescrib", "approv")
ADVICE_CUES += ("vouch", "insist", "suggest", "want", "expect", "tell", "ask", "look", "hire")
MODAL_CUES = ("should", "must", "ought", "need", "have", "has", "had", "would", "are", "shouldn")
MODAL_CUES += ("mustn",)
WOULD_CUES = ("would", "will", "could")
TEACH_CUES = ("tell", "told", "teach", "taught", "remind", "want", "ask", "encourag", "push")
TEACH_CUES += ("train", "warn", "expect", "invit", "challeng")
LESSON_CUES = ("message", "lesson", "advice", "guidance", "takeaway", "moral", "motto", "mantra")
LESSON_CUES += ("rule", "tip", "recommend", "philosophy", "principle", "counsel", "instruction")
LESSON_CUES += ("verdict", "endorsement", "suggestion")
_PATTERNS = (
    (
        rf"(?:{_ENTITY}|{_PEOPLE}){AUXILIARY}\s+(?:{ADVICE})(?![\w-])",
        ADVICE_CUES,
    ),
    (
        rf"\baccording\s+to\s+(?:{_ENTITY}|{_PEOPLE}).{{0,300}}?\b{MODAL}",
        ("according",),
    ),
    (
        rf"\b{MODAL}.{{0,300}}?\baccording\s+to\s+(?:{_ENTITY}|{_PEOPLE})",
        ("according",),
    ),
    (
        rf"{ENTITY_MARK}[^.;!?]{{0,80}}?(?<!\bwe)(?<!\bi)(?<!\byou)\s+(?:would|will|'d|could)"
        rf"\s+(?:\w+\s+)?{TEACH}\s+{LISTENER}\s+(?:not\s+)?to\s+[a-z]",
        WOULD_CUES,
    ),
    (
        rf"{ENTITY_MARK}[^.;!?]{{0,80}}?(?<!\bwe)(?<!\bi)(?<!\byou)\s+(?:would|will|'d|could)"
        rf"\s+(?:say|tell\s+\w+|argue|insist|answer|reply)\W{{0,3}}\s*(?:that\s+)?{DIRECTIVE}",
        WOULD_CUES,
    ),
    (
        rf"(?:{_ENTITY}|{_PEOPLE}){AUXILIARY}\s+{SAYING}\s+(?:that\s+)?{DIRECTIVE}\b",
        MODAL_CUES,
    ),
    (
        rf"\bas\s+{_ENTITY}{AUXILIARY}\s+(?:{ADVICE}|suggest(?:s|ed)?|teach(?:es)?|taught)(?![\w-])",
        ("as",),
    ),
    (
        rf"\bas\s+{_ENTITY}\s+(?:{SAYING}|puts\s+it)\W{{0,3}}\s*{DIRECTIVE}\b",
        MODAL_CUES,
    ),
    (
        rf"\b(?:in|per|following)\s+{_ENTITY}(?:['’]s?)?(?:\s+(?:view|opinion|words|advice"
        rf"|experience|book))?\W{{0,3}}\s*{DIRECTIVE}\b",
        MODAL_CUES,
    ),
    (
        rf"(?:{_ENTITY}|{_PEOPLE}){AUXILIARY}(?:\s+(?:would|will|could|might)"
        rf"(?:\s+\w+)?)?\s+{TEACH}\s+{LISTENER}\s+(?:not\s+)?to\s+[a-z]",
        TEACH_CUES,
    ),
    (
        rf"\b(?:taught|showed|told|reminded|convinced|persuaded)\s+(?:the\s+)?{_ENTITY}"
        rf"\W{{0,3}}\s*(?:that\s+)?{DIRECTIVE}\b",
        MODAL_CUES,
    ),
    (
        rf"{ENTITY_MARK}['’]s?\s+(?:[\w-]+\s+)?{LESSON}(?:\s+(?:for|to)\s+[\w\s-]{{1,30}}?)?"
        rf"{LESSON_TAIL}",
        LESSON_CUES,
    ),
    (
        rf"\b{LESSON}\s+(?:of|from|behind)\s+(?:the\s+)?{_ENTITY}(?:\s+(?:for|to)\s+"
        rf"[\w\s-]{{1,30}}?)?{LESSON_TAIL}",
        LESSON_CUES,
    ),
    (
        rf"\b{LESSON}\s+(?:that\s+)?{_ENTITY}\s+(?:wants|would|gives|offers|shares|leaves"
        rf"|hopes|draws|takes)",
        LESSON_CUES,
    ),
    (
        rf"\b(?:take\s+it\s+from|listen\s+to|if\s+you\s+(?:were\s+to\s+)?ask)"
        rf"\s+(?:the\s+)?{_ENTITY}",
        ("take", "listen", "ask"),
    ),
    (
        rf"{ENTITY_MARK}(?:['’]s|(?:['’]s)?{ROLE[:-1]}['’]s?)\s+(?:own\s+)?(?:advice|recommendations?"
        rf"|endorsement|guidance|tips?|suggestions?|verdict)\b(?!\s+(?:{SYSTEM_NOUNS})\b)",
        LESSON_CUES,
    ),
    (
        rf"\b{ENDORSED}(?:\s+[\w-]+){{0,3}}?\s+(?:endorsed|recommended|approved|sponsored|backed"
        rf"|vetted|certified|sanctioned|commissioned|blessed)\s+by\s+{_ENTITY}",
        (
            "endors",
            "recommend",
            "approv",
            "sponsor",
            "back",
            "vet",
            "certif",
            "sanction",
            "commission",
            "bless",
        ),
    ),
)
# In reports, advice verbs with the company or the write-up as their agent, reader or not:
# "The post recommends …", "X suggests caching …" (unless the record itself says so); "X
# recommends GEM for its ad surfaces" is a choice it reports, not advice.
REPORT_ADVICE = gated(
    re.compile(
        rf"(?:{_ENTITY}|{_PEOPLE}){AUXILIARY}\s+(?:recommend|advis|suggest|urg|encourag|counsel"
        r"|prescrib|propos)\w*\s+(?:that\b|to\s+[a-z]|[a-z]+ing\b|(?:teams|engineers|others"
        r"|everyone|anyone|people|developers)\b)"
        rf"|\b(?:the|this)\s+(?:original\s+)?(?:article|write-?up|blog\s+post|post|paper)"
        rf"{AUXILIARY}\s+(?:recommend|advis|suggest|urg|encourag|counsel|prescrib|propos)\w*",
        re.IGNORECASE,
    )
)
ATTRIBUTION_PATTERNS = tuple(gated(re.compile(pattern, re.IGNORECASE)) for pattern, _ in _PATTERNS)
PATTERN_CUES = tuple(frozenset(cues) for _, cues in _PATTERNS)
ALL_CUES = frozenset(c for _, cues in _PATTERNS for c in cues)


@lru_cache(maxsize=64)
def _runs(mentions: re.Pattern[str]) -> re.Pattern[str]:
    """Match a run of names as one ("Universal Product Identifier" from its three words)."""
    one = mentions.pattern
    return re.compile(rf"{one}(?:[ \t]+{one})*", mentions.flags)


def _masked(text: str, found: list[re.Match[str]]) -> str:
    """Return text with each match replaced by ENTITY_MARK (pattern.sub, from its matches)."""
    if not found:
        return text
    pieces, last = [], 0
    for match in found:
        pieces += [text[last : match.start()], ENTITY_MARK]
        last = match.end()
    pieces.append(text[last:])
    return "".join(pieces)


@lru_cache(maxsize=16384)
def _attributed_advice(
    sentence: str, mentions: re.Pattern[str], patterns: tuple[re.Pattern[str], ...]
) -> str | None:
    """Return the words that put advice in an entity's mouth, or None."""
    unquoted = QUOTED.sub(QUOTE_MARK, sentence)
    found = list(mentions.finditer(unquoted))
    if len(found) > 1:
        found = list(_runs(mentions).finditer(unquoted))
        names = [" ".join(run.group().split()) for run in found]
    else:
        names = [run.group() for run in found]
    masked = _masked(unquoted, found)
    lowered = masked.casefold()
    present = {cue for cue in ALL_CUES if cue in lowered}
    for index, pattern in enumerate(patterns):
        if present.isdisjoint(PATTERN_CUES[index]):
            continue
        match = pattern.search(masked)
        if match is None:
            continue
        if index == len(ATTRIBUTION_PATTERNS) - 1 and NEGATION.search(masked, 0, match.end()):
            continue
        hit = match.group()
        before = masked[: match.start()].count(ENTITY_MARK)
        for name in names[before:]:
            hit = hit.replace(ENTITY_MARK, name, 1)
        return hit
    return None


# Advice in other words: "the post argues that teams should …", "… is the way to go".
REPORT_SHOULD = gated(
    re.compile(
        rf"(?:{_ENTITY}|{_PEOPLE}){AUXILIARY}\s+(?:argu|say|said|writ|wrote|note|conclud|believ"
        r"|think|thought|maintain|contend|stress|hold|held|make|made)\w*\s+(?:the\s+case\s+)?"
        r"(?:that\s+)?[^.;]{0,80}?\b(?:should|ought\s+to|must|needs?\s+to|have\s+to|has\s+to)\b"
        r"|\b(?:is|are)\s+(?:the\s+way\s+to\s+go|the\s+right\s+(?:call|choice|approach|move|way)"
        r"|a\s+must|(?:the\s+)?best\s+practice|worth\s+(?:copying|adopting|emulating|following))\b",
        re.IGNORECASE,
    )
)
ADVICE_STEMS = ("reco", "advi", "sugg", "urge", "urgi", "enco", "coun", "pres", "prop")


def _report_advice(sentence: str, mentions: re.Pattern[str], record: str) -> str | None:
    """Return the words of a reported sentence that put an advice verb in the company's mouth."""
    unquoted = QUOTED.sub(QUOTE_MARK, sentence)
    found = list(mentions.finditer(unquoted))
    masked = _masked(unquoted, found)
    match = REPORT_ADVICE.search(masked)
    if match is None:
        other = REPORT_SHOULD.search(masked)
        if other is None or re.search(rf"\b{other.group().split()[-1]}\b", record, re.I):
            return None  # the record itself says what one should do
        names = iter(m.group() for m in found)
        return re.sub(ENTITY_MARK, lambda _: next(names, ""), other.group())
    verb = next(w for w in match.group().split()[1:] if w[:4].casefold() in ADVICE_STEMS)
    verb = verb.casefold()[:6]
    if verb in record:
        return None  # the record itself says who recommends what
    names = iter(m.group() for m in found)
    return re.sub(ENTITY_MARK, lambda _: next(names, ""), match.group())


def check_attribution(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Refuse advice, recommendations or endorsements put in the company's or publisher's mouth."""
    mentions = company_mentions(ctx)
    reader_patterns = ATTRIBUTION_PATTERNS[:1]
    findings = []
    shared = analysis(guide, ctx)
    for block in guide.blocks:
        reports = block.section == REPORTS
        # In reports only advice aimed at a reader is refused; a sentence's reader word is one
        # of its block too (sentences are cut at spaces, marks and quotes).
        if not mentions.search(block.text) and not mentions_document(block.text):
            continue
        for sentence in shared.sentences(block.text):
            if not mentions.search(sentence) and not mentions_document(sentence):
                continue
            if reports:
                patterns = reader_patterns if AUDIENCE.search(sentence) else ()
                hit = _attributed_advice(sentence, mentions, patterns) if patterns else None
                hit = hit or _report_advice(sentence, mentions, shared.normalized_source)
                if hit is None:
                    continue
                if " ".join(sentence.casefold().split()) in shared.normalized_source:
                    continue
            else:
                hit = _attributed_advice(sentence, mentions, ATTRIBUTION_PATTERNS)
                if hit is None:
                    continue
            findings.append(
                finding(
                    "attribution.advice",
                    "error",
                    block.section,
                    f"{quote(sentence)} puts advice or endorsement in the mouth of "
                    f"{quote(hit, 60)}; the publishers do not advise candidates. Rewrite it as "
                    "our own suggestion (e.g. 'We suggest …') or state only what the source "
                    "reports",
                )
            )
    return findings
