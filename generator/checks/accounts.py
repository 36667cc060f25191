"""What an account of the company may not add: hiring and interviews, plans, and comparisons
with the industry or other providers, unless its evidence says so.

Pure functions from a claim (a reported sentence, or the clause of ours about the company) and
its evidence text to (rule, words, message) triples; grounding and ourclaims turn them into
findings. Advice to the reader is not a claim: ourclaims passes only the clause about the
company.
"""

from __future__ import annotations

import re
from functools import lru_cache

from generator.checks.quoting import normalize
from generator.checks.text import STOP, stem, stems

HIRING = "grounding.hiring"
PLAN = "grounding.plan"
COMPARISON = "grounding.comparison"

# The company hiring or interviewing: "is hiring for", "open roles", "asks about it in
# interviews", "its interviewers", "reviews projects like this in interviews".
HIRING_WORDS = re.compile(
    r"(?i)\b(?:hir(?:e|es|ed|ing)(?!\s+managers?\b)|recruit(?:s|ed|ing|ers?|ment)?|headcount"
    r"|(?:job|role)\s+(?:openings?|ads?|postings?|listings?)|vacanc(?:y|ies)"
    r"|open\s+(?:[\w-]+\s+){0,2}(?:roles?|positions?|reqs?|jobs?)"
    r"|(?:is|are)\s+(?:actively\s+)?(?:looking\s+for|seeking|staffing\s+up)"
    r"|(?:its|their)\s+(?:own\s+)?(?:interviews?|interviewers?|interview\s+\w+|hiring\s+\w+)"
    r"|interviewers?\s+(?:at|from|on|in)\b"
    r"|(?:asks?|asked|reviews?|reviewed|tests?|tested|probes?|probed|quiz(?:zes|zed)?"
    r"|grills?|screens?|screened|expects?|looks?\s+for)"
    r"\b[^.;:!?]{0,60}?\b(?:in|during|at|for)\s+(?:its\s+|their\s+|the\s+)?(?:own\s+)?"
    r"(?:[\w-]+\s+)?interviews?"
    r"|(?:grow(?:s|ing)?|expand(?:s|ing)?|doubl(?:es|ing))\s+(?:its|their)\s+(?:[\w-]+\s+){0,2}?"
    r"teams?(?![\w'’]))\b"
)
# The same, said with the company's name: "X's current openings", "roles at X", "X interviews
# for", "a X interview", "X asks candidates". {C} stands for the company's names.
EMPLOYER_WORDS = (
    r"(?i)(?<![\w-])(?:{C})['’]s\s+(?:[\w-]+\s+){{0,2}}?(?:openings?|vacanc(?:y|ies)"
    r"|(?:current|new|latest|advertised)\s+(?:[\w-]+\s+)?(?:roles|positions|jobs)"
    r"|job\s+(?:openings?|ads?|postings?|listings?|offers?|descriptions?)|interviews?"
    r"|interviewers?|interview\s+\w+|recruit(?:ers?|ing)|applicants|hiring\s+\w+"
    r"|careers?\s+page)\b"
    r"|\b(?:roles?|jobs?|positions?|openings?|vacanc(?:y|ies)|careers?|interviews?|interviewing"
    r"|interviewers?|hiring|recruit(?:ers?|ing)|applicants|apply(?:ing)?|applied"
    r"|applications?)\s+(?:to\s+|at\s+|for\s+)(?:a\s+role\s+at\s+)?(?:{C})(?![\w-])"
    r"|(?<![\w-])(?:{C})\s+(?:now\s+|currently\s+|also\s+)?(?:interview(?:s|ed|ing)?"
    r"|(?:asks?|asked|quiz(?:zes|zed)?|expects?|wants?|looks?\s+for|seeks?)"
    r"\s+(?:its\s+|their\s+|new\s+)?(?:candidates|applicants|interviewees|new\s+hires))\b"
)
# A hiring word the evidence may say it with, so that a record about hiring grounds the claim.
HIRING_STEMS = frozenset(
    stems("hire hiring hired recruit recruiting recruiter interview interviews interviewer")
    + stems("candidate candidates applicant applicants vacancy vacancies headcount")
)
# The company's intentions: "plans to", "will next", "is working on", "on its roadmap".
PLAN_WORDS = re.compile(
    r"(?i)\b(?:plans?\s+to|planning\s+to|planned\s+to|intends?\s+to|intending\s+to"
    r"|(?:is|are)\s+going\s+to|will\s+(?:next|soon|eventually|later|shortly)"
    r"|(?:is|are)\s+(?:now\s+)?working\s+(?:on|toward|towards)|hopes?\s+to|expects?\s+to"
    r"|on\s+track\s+to|(?:is|are)\s+set\s+to|roadmap|upcoming|in\s+the\s+(?:near\s+)?future"
    r"|in\s+the\s+coming\s+\w+|next\s+(?:year|quarter|month|phase|release|step\s+for)"
    r"|later\s+this\s+(?:year|quarter|month)|eventually|(?<=\s)next(?=\s*[.;!?]|\s*$))"
)
# What a plan in the evidence is said with.
PLAN_STEMS = frozenset(
    stems("plan plans planned planning intend intends intention roadmap")
    + stems("future next will expect expects toward towards upcoming")
)
# A group outside the company: the industry, most providers, other companies, its peers.
GROUP = (
    r"(?:(?:the\s+)?industry|(?:the\s+)?market|competitors?|competition|rivals?|peers?"
    r"|(?:the\s+)?norm|(?:the\s+)?rest|everyone\s+else|anyone\s+else|others"
    r"|(?:most|many|other|typical|comparable|competing|rival|conventional|traditional|similar"
    r"|hosted|public|commercial|other\s+large|legacy)\s+(?:[\w-]+\s+){0,2}?(?:companies|providers"
    r"|vendors|firms|teams|platforms|services|networks|clouds?|systems|operators|players"
    r"|organi[sz]ations|banks|retailers|apps|products|offerings|setups|deployments|stacks"
    r"|engineering\s+orgs?|shops|businesses|sites|fleets|clusters|databases|processors)"
    r"|(?:the\s+)?(?:industry|market|sector)\s+(?:average|standard|norm|benchmark|median|leaders?"
    r"|baseline|figures?))"
)
COMPARISON_WORDS = re.compile(
    rf"(?i)\b(?:(?:than|unlike|compared\s+(?:with|to)|relative\s+to|versus|vs\.?|beating|beats?"
    r"|outpac\w*|outperform\w*|outdo\w*|ahead\s+of|behind|above|below|exceed\w*|surpass\w*"
    r"|rivall?ing|matching|twice|thrice|half|double|triple|(?:\w+\s+)?times)\s+(?:what\s+|that\s+of\s+"
    rf"|those\s+of\s+|the\s+)?(?:[\w-]+\s+){{0,2}}?{GROUP}"
    r"|(?:the\s+)?(?:industry|market|sector)\s+(?:average|standard|norm|benchmark|median)"
    r"|(?:by|for|among)\s+industry\s+standards|(?:unusual|rare|uncommon)\s+(?:in|for)\s+the"
    r"\s+industry)\b"
)


def _stated(phrase: str, evidence: str) -> bool:
    """Return True when the evidence says a phrase, or every content word of it."""
    if normalize(phrase) in normalize(evidence):
        return True
    words = [s for s in stems(phrase) if s not in STOP]
    have = set(stems(evidence))
    return bool(words) and all(s in have for s in words)


@lru_cache(maxsize=64)
def _employer_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True) if n.strip())
    return re.compile(EMPLOYER_WORDS.format(C=alternatives)) if alternatives else None


@lru_cache(maxsize=16384)
def hiring_shift(claim: str, evidence: str, employer: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Return a claim's hiring or interview words ("is hiring", "in interviews", "roles at X")
    the evidence lacks; employer holds the company's names."""
    found = [m.group() for m in HIRING_WORDS.finditer(claim) if not _stated(m.group(), evidence)]
    pattern = _employer_pattern(employer)
    if pattern is not None and not HIRING_STEMS & set(stems(evidence)):
        found += [m.group() for m in pattern.finditer(claim) if m.group() not in " ".join(found)]
    return tuple(found)


@lru_cache(maxsize=16384)
def plan_shift(claim: str, evidence: str) -> tuple[str, ...]:
    """Return a claim's plan words ("plans to", "next") when the evidence states no plan."""
    found = [m.group() for m in PLAN_WORDS.finditer(claim)]
    if not found or PLAN_STEMS & set(stems(evidence)):
        return ()
    return tuple(found)


# A plan in the evidence and the verb it plans: "which they plan to retire next year".
PLANNED = re.compile(
    r"(?i)\b(?:plans?|planning|intends?|intending|aims?|hopes?|expects?|(?:is|are)\s+going)"
    r"\s+to\s+([a-z]+)"
)
# A finished act: "have since been retired", "was retired", "retired".
DONE = re.compile(
    r"(?i)\b(?:(?:has|have|had)\s+(?:(?:since|now|already|finally)\s+)?(?:been\s+)?"
    r"|(?:was|were)\s+(?:(?:since|now|already|finally)\s+)?)?([a-z]+(?:ed|en|t))\b"
)


def _same_verb(done: str, planned: str) -> bool:
    done, planned = done.casefold(), planned.casefold()
    bases = {done[:-2], done[:-1], done[:-3] + "y"} if done.endswith("ed") else {done}
    return planned in bases or stem(planned) == stem(done)


@lru_cache(maxsize=16384)
def done_shift(claim: str, evidence: str) -> tuple[str, ...]:
    """Return a claim's finished acts that the evidence only plans ("retired" for "plan to
    retire")."""
    planned = [m.group(1) for m in PLANNED.finditer(evidence)]
    if not planned or PLAN_WORDS.search(claim):
        return ()
    return tuple(
        m.group()
        for m in DONE.finditer(claim)
        if any(_same_verb(m.group(1), verb) for verb in planned)
    )


@lru_cache(maxsize=16384)
def comparison_shift(claim: str, evidence: str) -> tuple[str, ...]:
    """Return a claim's comparisons with outsiders ("above the industry average") the
    evidence does not make."""
    return tuple(
        m.group() for m in COMPARISON_WORDS.finditer(claim) if not _stated(m.group(), evidence)
    )


def account_shifts(
    claim: str, evidence: str, plan_evidence: str | None = None, employer: tuple[str, ...] = ()
) -> list[tuple[str, str, str]]:
    """Return (rule, words, message) for each hiring, plan or outside comparison a claim adds.

    A plan is judged against `plan_evidence` when given: the record sentences the claim
    restates, not every plan the record mentions. employer holds the company's names, for
    "roles at X" and "X's interviews".
    """
    plan_text = evidence if plan_evidence is None else plan_evidence
    plans = plan_shift(claim, plan_text)
    out = [
        (PLAN, term, f"{term!r} states as done what the record only plans")
        for term in done_shift(claim, plan_text)
    ]
    for rule, found, what in (
        (HIRING, hiring_shift(claim, evidence, employer), "says the company hires or interviews"),
        (PLAN, plans, "is a plan or intention not stated"),
        (COMPARISON, comparison_shift(claim, evidence), "is a comparison not stated"),
    ):
        for term in found:
            out.append((rule, term, f"{term!r} {what}"))
    return out


FIXES = {
    HIRING: "say nothing of the company's hiring or interviews; the record does not",
    PLAN: "state only what the company did; the record names no such plan",
    COMPARISON: "compare only what the record compares; name no industry or other providers",
}
