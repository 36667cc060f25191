"""Our sentences about the company are claims: in the interpretation, the case study and the
steps, a sentence (or, in an instruction, the clause) that names the company, its people, its
systems, its publisher or the write-up is held to what its record states.

Advice to the reader and general career reasoning stay free: an instruction's own words are
ours; only the clause about the company ("Explain how X cut its cost") is a claim. With no
single evidence sentence, the record as a whole is the evidence, and the record sentence the
claim aligns with best is the evidence for its direction and order.
"""

from __future__ import annotations

import re

from generator.checks.accounts import COMPARISON, account_shifts, comparison_shift
from generator.checks.accounts import FIXES as ACCOUNT_FIXES
from generator.checks.analysis import analysis
from generator.checks.base import CheckContext, ParsedGuide, entity_names, finding, quote
from generator.checks.bindings import record_hedges, rounded_hedges
from generator.checks.claimnames import company_pattern, proper_nouns
from generator.checks.claims import GENERIC_NOUNS, WORD, noun_run, run_words
from generator.checks.claimwords import (
    CAUSE,
    CHANGED,
    GAINS,
    KIND_PHRASE,
    MONTHS_DAYS,
    OUTCOME_NOUNS,
    OUTCOMES,
    THAN_ANY,
    benefit_backed,
    benefit_words,
    in_sequence,
    superlative,
)
from generator.checks.grounding import _dates as record_dates
from generator.checks.grounding import figured
from generator.checks.lexicon import KNOWN_COMPANIES as KNOWN
from generator.checks.prefilter import gated
from generator.checks.quoting import QUOTED, normalize
from generator.checks.restated import (
    explained_benefit,
    general_reason,
    removed_problem,
    restricted_subset,
    shared_by_all,
    whole_kind,
)
from generator.checks.shifts import (
    AXES,
    SENTIMENT,
    direction_shift,
    release_shift,
    sentiment_shift,
    time_shift,
)
from generator.checks.shifts import FIXES as SHIFT_FIXES
from generator.checks.subjects import (
    IMPERATIVES,
    THE_COMPANY,
    is_instruction,
    is_tool,
    mentions_document,
)
from generator.checks.text import (
    GENERIC_ACRONYMS,
    STOP,
    RecordIndex,
    align,
    content,
    name_head,
    stem,
    stems,
    words,
)
from generator.guides.document import CASE_STUDY, INTERPRETATION, PRACTICE
from generator.guides.findings import Finding

OURS = (INTERPRETATION, CASE_STUDY, PRACTICE)
# Where the clause about the company starts inside an instruction.
CLAUSE_START = re.compile(
    r"(?i)(?:[,;:(]|\s[-–—]\s|\b(?:how|why|that|what|whether|where|when|which|while"
    r"|because|as|where|after|before|the\s+way)\b)"
)
CLAUSE_END = re.compile(
    r"[;:()]|\s[-–—]\s|,\s+(?:and|but|then|so)\s+(?=[a-z])|,\s+(?!which|who|whose)(?=[a-z]+\s)"
    r"|\s+(?:before|after|when|while|if|so\s+that|until|and|then|as|once|so)\s+(?=(?:you|your)\b)"
)
# A company set beside the reader's object: what the clause goes on to say holds for both.
LIKENED = re.compile(r"(?i)^\W*(?:just\s+)?(?:like|as\s+(?:in|at|with))\s+$")
AND_THEN = re.compile(r"\s+(?:and|or|then)\s+([a-z]+)\b")
ALTERNATIVE = re.compile(r"\b(?:rather\s+than|instead\s+of|not\s+only|without)\b")
READER = re.compile(r"(?i)\b(?:you|your|yours|yourself)\b")
# Quantifiers a claim about the company may not add ("everything downstream" is a pronoun).
SWEEPING = frozenset(
    ["always", "never", "every", "everyone", "none", "nobody"]
    + ["all", "only", "solely", "exclusively", "entirely", "completely", "constantly"]
    + ["invariably", "unfailingly", "universally", "consistently", "perpetually"]
)
SWEEPING_PHRASE = gated(
    re.compile(
        r"(?i)\b(?:at\s+all\s+times|without\s+(?:exception|fail)|in\s+every\s+case|each\s+and\s+every"
        r"|no\s+matter\s+what|under\s+any\s+circumstances|across\s+the\s+board|100\s?%\s+of\s+the\s+time"
        r"|(?:not|never)\s+once|time\s+and\s+again)\b"
    )
)
# A motive or cause credited to the company: "to avoid …", "because it wanted …".
MOTIVE = gated(
    re.compile(
        r"(?i)\b(?:because|since\s+it|in\s+order\s+to|so\s+that|wanted\s+to|aimed\s+to|hoped\s+to"
        r"|motivated\s+by|driven\s+by|in\s+response\s+to|out\s+of\s+(?:frustration|necessity|fear)"
        r"|decided\s+to|set\s+out\s+to|was\s+forced\s+to|had\s+no\s+choice"
        r"|(?:prompted|triggered|spurred|sparked|inspired)\s+(?:on\s+)?by|in\s+a\s+bid\s+to"
        r"|in\s+an\s+(?:effort|attempt)\s+to|with\s+the\s+(?:aim|goal|intention|idea)\s+of|so\s+as\s+to"
        r"|(?:aiming|seeking|striving|hoping)\s+to|(?:was|were)\s+(?:meant|intended)\s+to"
        r"|(?:goal|aim|motivation|motive|reason|intent|intention|purpose)\s+(?:[\w'’-]+\s+){0,4}?"
        r"(?:was|is|had\s+been)\s+to|to\s+prepare\s+for|(?:frustrated|fed\s+up|unhappy)\s+with)\b"
    )
)
# A general lesson credited to the company: "X's experience shows that …".
LESSON = re.compile(
    r"(?i)\b(?:experience|story|example|journey|success|case|results?|work)\s+(?:clearly\s+)?"
    r"(?:shows?|proves?|demonstrates?|teaches|confirms?)\s+that\b"
)
ACTOR, TERM, POLARITY, CLAIM = (
    "grounding.actor",
    "grounding.term",
    "grounding.polarity",
    ("grounding.claim"),
)
FIXES = {
    ACTOR: "name no other company in a sentence about this one, unless the record does",
    TERM: "remove the name or term, or say it is our own example and not the company's",
    POLARITY: "drop the quantifier, or keep the record's own words",
    CLAIM: "state only what the record reports about the company; keep general lessons ours",
    **SHIFT_FIXES,
    **ACCOUNT_FIXES,
}


def _mention(sentence: str, ctx: CheckContext, mentions: re.Pattern[str]) -> int:
    """Return where the sentence first names the company, or -1."""
    positions = [m.start() for m in mentions.finditer(sentence) if not is_tool(m.group(), ctx)]
    hit = THE_COMPANY.search(sentence)
    if hit:
        positions.append(hit.start())
    if mentions_document(sentence):
        document = re.search(r"(?i)\b(?:the|this|that|according)\b", sentence)
        positions.append(document.start() if document else 0)
    return min(positions) if positions else -1


def claim_part(sentence: str, ctx: CheckContext, mentions: re.Pattern[str]) -> str:
    """Return the words of our sentence that are a claim about the company ("" for none)."""
    if not is_instruction(sentence):
        return sentence  # a statement about the company, named or restating its record
    at = _mention(sentence, ctx, mentions)
    if at < 0 or _reader_tool(sentence, at, ctx, mentions):
        return ""
    starts = [m.end() for m in CLAUSE_START.finditer(sentence, 0, at)]
    start = starts[-1] if starts else at
    end = CLAUSE_END.search(sentence, at)
    if end and LIKENED.search(sentence[start:at]) and sentence[end.start()] == ",":
        end = CLAUSE_END.search(sentence, end.end())  # "that, like X's, rejects …": both do
    claim = sentence[start : end.start() if end else len(sentence)]
    for match in AND_THEN.finditer(claim):
        if match.group(1).casefold() in IMPERATIVES:
            claim = claim[: match.start()]  # "… and say which parts you designed": ours again
            break
    reader = READER.search(claim, at - start)  # the reader after the company: ours again
    return (claim[: reader.start()] if reader else claim).strip()


# What makes a name after it part of a clause about the company, not the reader's object.
ABOUT_AFTER = re.compile(
    r"(?i)['’]s\b|,?\s+(?:that|which|who|does|did|do|uses?|used|has|had|is|was)\b"
)


def _beyond_all(tokens: list[str], texts) -> bool:
    """Return True when a record sentence on the claim's subject compares a thing with all
    the others ("took longer to settle than any technical work"), as a superlative does."""
    said = {stem(t.casefold()) for t in tokens if t.casefold() not in STOP}
    return any(
        THAN_ANY.search(text) and len(said & {stem(t.casefold()) for t in words(text)}) >= 2
        for text in texts
    )


def _reader_tool(sentence: str, at: int, ctx: CheckContext, mentions: re.Pattern[str]) -> bool:
    """Return True when an instruction names a record's system as the reader's own object
    ("Serve AVIF from a small service"): in the imperative's clause, with nothing said of it."""
    name = mentions.match(sentence, at)
    if name is None or not name.group()[:1].isupper() or CLAUSE_START.search(sentence, 0, at):
        return False  # the document, "the company", or a name in a clause of its own
    said = name.group()
    owners = [ctx.source.company, *(p for p in [ctx.source.publisher] if p)]
    if not said or any(said.casefold().startswith(o.casefold()) for o in owners):
        return False
    return ABOUT_AFTER.match(sentence, at + len(said)) is None


# Adjectives that rank a part of the write-up by its use to the reader: "the most
# transferable part of this write-up" is our reading of it, not a superlative about the company.
READER_VALUE = frozenset(
    ["useful", "transferable", "instructive", "relevant", "interesting", "valuable"]
    + ["practical", "reusable", "portable", "important", "telling", "memorable", "helpful"]
    + ["applicable", "quotable", "teachable", "actionable", "underrated", "overlooked"]
)
# "only" that contrasts, not a quantifier: "rather than only", "not only".
CONTRAST_BEFORE = frozenset(["not", "than", "of", "if", "just"])
# Words that make a noun an outcome: a change, a figure or a comparison beside it.
CHANGE_WORDS = frozenset(AXES) | frozenset(OUTCOMES)


def _reader_value(claim: str, hit: re.Match[str]) -> bool:
    """Return True when a "most …" phrase ranks what the reader gets from the write-up."""
    return any(w.casefold() in READER_VALUE for w in words(hit.group())[-1:])


def _outcome(tokens: list[str], at: int) -> bool:
    """Return True when the outcome noun at a position is said to change ("cut incidents",
    "higher retention", "revenue grew 4%"), not only named ("becoming an outage")."""
    near = tokens[max(0, at - 3) : at] + tokens[at + 1 : at + 3]
    return any(
        stem(t) in CHANGE_WORDS or t.casefold() in CHANGE_WORDS or t[:1].isdigit() for t in near
    )


# "led to fewer rollbacks" restates a record sentence in which rollbacks became rarer after a
# change: the effect named after the phrase, in a sentence that orders, explains or changes it.
RESULT_PHRASE = re.compile(r"(?i)\A(?:led|leads|leading|result|gave|brought|paved)\b")
EFFECT_END = re.compile(r"[,;:.()]|\s(?:and|or|but|in|for|at|across|with|by|after|since)\s")
FOLLOWS = frozenset(
    ["after", "following", "since", "once", "because", "so", "thanks", "due", "result", "when"]
)


def _effect_follows(claim: str, hit: re.Match[str], texts: list[str]) -> bool:
    """Return True when a "led to …" phrase names an effect that a record sentence states
    after, or because of, something."""
    if RESULT_PHRASE.match(hit.group()) is None:
        return False
    effect = EFFECT_END.split(claim[hit.end() :], maxsplit=1)[0]
    said = words(effect)[:6]
    if not said:
        return False
    head = stem(said[-1])
    for text in texts:
        tokens = words(text)
        if head not in {stem(t) for t in tokens}:
            continue
        said = {t.casefold() for t in tokens}
        if FOLLOWS & said or CHANGED & said or any(stem(t) in OUTCOMES for t in said):
            return True
    return False


SO_THAT = re.compile(r"(?i)\Aso\s+that\b")
BECAUSE = re.compile(r"(?i)\Abecause\b")
# A record sentence that gives its own reason: "Encoding is slower, so …", "… so an unclean
# build cannot poison CI".
RECORD_REASON = re.compile(
    r"(?i)(?:,\s*|\s)so\s+(?!far\b|much\b|many\b)|\bbecause\b|\bsince\s+(?!\d)"
)
# What set the company's work off: "started the project after an auditor flagged …".
TRIGGER = re.compile(
    r"(?i)\b(?:start(?:ed|s)?|began|begun|launch(?:ed|es)?|kick(?:ed|s)?\s+off|undert(?:ook|akes)"
    r"|embark(?:ed|s)?\s+on|turn(?:ed|s)?\s+to|decid(?:ed|es)|cho(?:se|oses)|switch(?:ed|es)"
    r"|mov(?:ed|es)|built|buil(?:d|ds)|adopt(?:ed|s)|introduc(?:ed|es)|creat(?:ed|es))\b"
    r"[^.;:]{0,60}?\b(?:after|following|once|when)\s+([^.;:,]{4,90})"
)
TRIGGER_UNSTATED = 2  # content words of the event the record lacks before it is a claim


def _unstated_trigger(claim: str, index) -> list[str]:
    """Return the events named as what set the company's work off that the record lacks."""
    out = []
    for hit in TRIGGER.finditer(claim):
        event = hit.group(1)
        missing = [
            t
            for t in words(event)
            if t.casefold() not in STOP
            and t.casefold() not in index.vocabulary
            and stem(t.casefold()) not in index.vocabulary
        ]
        if len(missing) >= TRIGGER_UNSTATED:
            out.append(event.strip())
    return out


def _result_stated(claim: str, hit: re.Match[str], texts: list[str]) -> bool:
    """Return True when "so that …" names a change that one record sentence states, or when
    "because …" or "so that …" restates a cause or purpose a record sentence gives with its
    own "so", "because" or "since"."""
    if SO_THAT.match(hit.group()) is None and BECAUSE.match(hit.group()) is None:
        return False
    effect = EFFECT_END.split(claim[hit.end() :], maxsplit=1)[0]
    wanted = {w for w in content(stems(effect)) if "-" not in w}  # a compound by its parts
    if len(wanted) < 2:
        return False
    for text in texts:
        tokens = words(text)
        said = {t.casefold() for t in tokens}
        if not wanted <= {stem(t) for t in tokens}:
            continue
        if (SO_THAT.match(hit.group()) and CHANGED & said) or RECORD_REASON.search(text):
            return True
    return False


def _outcome_verbs(claim: str, index: RecordIndex) -> list[tuple[str, str, str]]:
    """Return what an outcome verb says the company changed when the record names no such
    thing: "lowered its infrastructure costs", "boosted courier earnings"."""
    out = []
    vocabulary = index.vocabulary
    for hit in WORD.finditer(claim):
        if stem(hit.group()) not in OUTCOMES:
            continue
        before = [t.casefold() for t in words(claim[max(0, hit.start() - 40) : hit.start()])]
        if before[-1:] == ["to"] or ALTERNATIVE.search(" ".join(before[-5:])):
            continue  # "trying to raise …", "rather than cutting …": no outcome is stated
        run = noun_run(claim, hit.end())
        head = run[-1] if run else ""
        if not head or figured(run) or head in GENERIC_NOUNS or stem(hit.group()) in GAINS:
            continue
        if head not in vocabulary and not removed_problem(claim, hit, index):
            what = " ".join([hit.group(), *run_words(claim, hit.end(), run)])
            out.append((CLAIM, what, f"outcome {what!r} is not in the record"))
    return out


def _actors(text: str, ctx: CheckContext, record: str) -> list[tuple[str, str, str]]:
    """Return the other companies a sentence names that the record does not."""
    own = {normalize(n) for n in (ctx.source.company, ctx.source.publisher_name)}
    others = company_pattern(tuple(c for c in ctx.companies if normalize(c) not in own))
    named = [hit.group() for hit in others.finditer(text)] if others is not None else []
    named += [
        name_head(t) for t in words(text) if t[:1].isupper() and name_head(t).casefold() in KNOWN
    ]
    out = []
    for name in dict.fromkeys(named):
        if normalize(name) not in record and normalize(name) not in own:
            out.append((ACTOR, name, f"{name!r} is another company, not in the record"))
    return out


def _problems(claim: str, ctx: CheckContext, shared) -> list[tuple[str, str, str]]:
    index = shared.index
    vocabulary = index.vocabulary
    record = index.norm_text
    own = {normalize(n) for n in (ctx.source.company, ctx.source.publisher_name)}
    tokens = words(claim)
    others = company_pattern(tuple(c for c in ctx.companies if normalize(c) not in own))
    out = _actors(claim, ctx, record)
    for name in proper_nouns(claim):
        key = name.casefold()
        if key in MONTHS_DAYS or key in GENERIC_ACRONYMS or normalize(name) in own:
            continue
        if key in KNOWN or (others is not None and others.fullmatch(name)):
            continue
        if key not in vocabulary and stem(name) not in vocabulary:
            out.append((TERM, name, f"{name!r} is not named in the record"))
    for at, token in enumerate(tokens):
        lowered = token.casefold()
        key = stem(lowered)
        known = lowered in vocabulary or key in vocabulary
        contrast = lowered == "only" and at and tokens[at - 1].casefold() in CONTRAST_BEFORE
        if (
            lowered in SWEEPING
            and not known
            and not contrast
            and not (lowered == "only" and restricted_subset(tokens, at, index))
            and not whole_kind(tokens, at, index)
            and not shared_by_all(tokens, at, index)
        ):
            out.append((POLARITY, token, f"{token!r} is not in the record"))
        if (
            superlative(token)
            and key not in vocabulary
            and not in_sequence(tokens, at)
            and not _beyond_all(tokens, index.texts)
        ):
            out.append((CLAIM, token, f"superlative {token!r} is not in the record"))
        elif stem(token) in OUTCOME_NOUNS and not known and _outcome(tokens, at):
            out.append((CLAIM, token, f"outcome {token!r} is not in the record"))
    for phrase, word in benefit_words(tokens):
        if not benefit_backed(word, vocabulary, tuple(index.texts)) and not explained_benefit(
            tokens, phrase, index
        ):
            out.append((CLAIM, phrase, f"benefit {phrase!r} is not in the record"))
    out += _outcome_verbs(claim, index)
    for hit in SWEEPING_PHRASE.finditer(claim):
        if normalize(hit.group()) not in record:
            out.append((POLARITY, hit.group(), f"{hit.group()!r} is not in the record"))
    for pattern, what in ((KIND_PHRASE, "is not stated"), (CAUSE, "is a cause not stated")):
        for hit in pattern.finditer(claim):
            if pattern is CAUSE and _effect_follows(claim, hit, index.texts):
                continue
            if normalize(hit.group()) not in record and not _reader_value(claim, hit):
                out.append((CLAIM, hit.group(), f"{hit.group()!r} {what}"))
    for pattern, what in ((MOTIVE, "is a motive not stated"), (LESSON, "credits a lesson")):
        for hit in pattern.finditer(claim):
            if pattern is MOTIVE and (
                _result_stated(claim, hit, index.texts) or general_reason(claim, hit, index)
            ):
                continue
            if normalize(hit.group()) not in record:
                out.append((CLAIM, hit.group(), f"{hit.group()!r} {what} to the company"))
    for event in _unstated_trigger(claim, index):
        out.append((CLAIM, event, f"{event!r} is an event or cause not stated"))
    text = "\n".join(index.texts)
    ranked = align(content(stems(claim)), index, limit=2)
    best = ranked[0][1].text if ranked else ""
    for rule, found, what in (
        ("grounding.direction", direction_shift(claim, best) if best else (), "turns around"),
        ("grounding.time", time_shift(claim, text, record_dates(ctx)), "is not in the record"),
        ("grounding.release", release_shift(claim, text), "is a release not stated"),
        ("grounding.sentiment", sentiment_shift(claim, text), "is a judgement not stated"),
    ):
        out += [(rule, term, f"{term!r} {what}") for term in found]
    plans = " ".join(unit.text for _, unit in ranked)
    out += account_shifts(claim, text, plans, entity_names(ctx))
    return out


def _heading_problems(heading: str, ctx: CheckContext, shared) -> list[tuple[str, str, str]]:
    """Hold the angle and the case-study title to the record: they name its lesson, so they
    carry no praise or blame and no other company."""
    text = "\n".join(shared.index.texts)
    phrase = heading.split(":", 1)[-1]
    out = _actors(phrase, ctx, shared.index.norm_text)
    for term in sentiment_shift(phrase, text):
        out.append((SENTIMENT, term, f"{term!r} is a judgement not stated"))
    return out


def check_our_claims(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Hold our sentences about the company to the record, as reported claims are; name no
    other company anywhere in our sections."""
    shared = analysis(guide, ctx)
    mentions = shared.mentions
    record = shared.index.norm_text
    findings = []
    for block in guide.blocks:
        if block.section not in OURS:
            continue
        heading = block.text.split("\n", 1)[0].strip()
        for sentence in shared.sentences(block.text):
            unquoted = QUOTED.sub('""', sentence)
            if sentence == heading:
                problems = _heading_problems(sentence, ctx, shared)
                about = "names the record's lesson"
            elif shared.about_company(sentence):
                claim = claim_part(unquoted, ctx, mentions)
                problems = _problems(claim, ctx, shared) if claim else []
                problems += _actors(unquoted, ctx, record)
                about = "is about the company"
            else:
                problems = _actors(unquoted, ctx, record)
                # A record figure keeps its hedge; a comparison with the industry is a claim
                # about someone's results.
                problems += list(record_hedges(unquoted, tuple(shared.index.texts)))
                if not is_instruction(unquoted) and not READER.search(unquoted):
                    problems += list(rounded_hedges(unquoted, tuple(shared.index.texts)))
                if not is_instruction(unquoted):
                    problems += [
                        (COMPARISON, term, f"{term!r} is a comparison not stated")
                        for term in comparison_shift(unquoted, "\n".join(shared.index.texts))
                    ]
                about = "is ours"
            by_rule: dict[str, list[str]] = {}
            for rule, _term, message in problems:
                said = by_rule.setdefault(rule, [])
                if message not in said:
                    said.append(message)
            for rule, messages in by_rule.items():
                findings.append(
                    finding(
                        rule,
                        "error",
                        block.section,
                        f"{quote(sentence)} {about}: {'; '.join(messages)}; {FIXES[rule]}",
                    )
                )
    return findings
