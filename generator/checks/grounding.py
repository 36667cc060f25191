"""grounding.* and figures.claim/unit: each sentence of "What X reports" against its evidence."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from generator.checks.accounts import FIXES as ACCOUNT_FIXES
from generator.checks.accounts import account_shifts
from generator.checks.base import (
    CheckContext,
    Evidence,
    ParsedGuide,
    entity_names,
    finding,
    quote,
    record_file,
    sentences,
)
from generator.checks.bindings import (
    hedge_shifts,
    moved_figures,
    off_quote,
    one_unit_shift,
    unquoted_figures,
)
from generator.checks.claimnames import (
    all_terms,
    company_pattern,
    contains,
    named_terms,
    proper_nouns,
)
from generator.checks.claims import (
    GENERIC_NOUNS,
    MAX_RECORD_NUMBERS,
    derived,
    lists_count,
    match,
    noun_run,
    quantities,
    run_words,
    too_many_numbers,
)
from generator.checks.claimwords import (
    BOUNDS,
    CAUSE,
    CONTRAST,
    EVIDENCE_CAUSE,
    GAINS,
    KIND_PHRASE,
    MONTHS_DAYS,
    NEGATED_ADVERBS,
    NEGATION,
    OUTCOME_NOUNS,
    OUTCOMES,
    PERMISSION,
    POLARITY,
    THAN_ANY,
    benefit_backed,
    benefit_words,
    polarity_words,
    superlative,
)
from generator.checks.joins import (
    borrowed,
    borrowed_subject,
    co_evidence,
    credited_elsewhere,
    misplaced,
    spliced,
    swapped,
    with_antecedent,
)
from generator.checks.lexicon import KNOWN_COMPANIES, introduced_phrases, unknown_phrase
from generator.checks.quoting import normalize
from generator.checks.shifts import FIXES as SHIFT_FIXES
from generator.checks.shifts import shifts
from generator.checks.text import (
    LEAD_IN,
    STOP,
    WORD,
    RecordIndex,
    Unit,
    _unit,
    align,
    content,
    name_head,
    record_index,
    stem,
    stems,
    words,
)
from generator.guides.document import REPORTS
from generator.guides.findings import Finding


@dataclass(frozen=True)
class Problem:
    """Why a claim is not supported by its evidence: a rule, the words at fault, a message."""

    rule: str
    term: str
    message: str
    whole: bool = False  # a finding about the whole sentence, which its clauses cannot clear


@dataclass
class Claim:
    """One reported sentence, its evidence sentence and what the evidence does not support."""

    text: str
    evidence: str = ""
    verbatim: bool = False
    problems: list[Problem] = field(default_factory=list)


def _problems(claim: str, unit: Unit, index: RecordIndex, ctx: CheckContext) -> list[Problem]:
    """List what one evidence sentence does not support in a claim."""
    problems: list[Problem] = []
    claim_tokens = words(claim)
    claim_stems = stems(claim)
    evidence_stems = unit.all_stems
    evidence_tokens = unit.tokens
    own = {normalize(n) for n in (ctx.source.company, ctx.source.publisher_name)}
    # Figures: each must be a figure of the evidence, counting the same thing.
    result = False
    restated = False  # a claim figure the evidence states: its outcome word is a restatement
    skip = too_many_numbers(claim) or too_many_numbers(index.norm_text, MAX_RECORD_NUMBERS)
    claim_q = () if skip else quantities(claim)
    evidence_q = quantities(unit.text) if claim_q else ()
    for q in claim_q:
        if q.figure.kind == "ident":
            continue
        result = result or q.figure.kind != "vague"  # "thousands of GPUs" is scale, not a result
        verdict = match(q, evidence_q, evidence_stems)
        restated = restated or (verdict is None and q.figure.kind != "vague")
        if verdict == "unit":
            problems.append(
                Problem(
                    "figures.unit",
                    q.figure.text,
                    f"{q.figure.text!r} counts {q.noun!r}, but its evidence counts something else",
                )
            )
        elif (
            verdict == "value"
            and not derived(q, evidence_q)
            and not lists_count(claim, q, unit.text)
            and any(
                match(q, quantities(u.text, nouns=False), u.stems) != "value" for u in index.units
            )
        ):
            problems.append(
                Problem("figures.claim", q.figure.text, f"{q.figure.text!r} is not stated there")
            )
    # Polarity: negations, hedges and quantifiers must agree with the evidence.
    claim_polarity = polarity_words(claim_tokens)
    evidence_polarity = polarity_words(evidence_tokens, evidence=True)
    for word in sorted(claim_polarity.keys() - evidence_polarity.keys()):
        said = claim_polarity[word]
        problems.append(Problem("grounding.polarity", said, f"{said!r} is not in the evidence"))
    claim_set = set(content(claim_stems))
    lowered = [t.casefold() for t in _closest_clause(unit.text, claim_set, evidence_tokens)]
    for i, token in enumerate(lowered):
        word = "not" if token.endswith("n't") or token in NEGATION else token
        if word not in POLARITY or word in claim_polarity:
            continue
        if word == "not" and CONTRAST.search(claim):
            continue
        skipped = STOP | PERMISSION | NEGATED_ADVERBS
        following = [stem(t) for t in lowered[i + 1 : i + 4] if t not in skipped]
        if following and following[0] in claim_set:
            problems.append(
                Problem("grounding.polarity", token, f"the evidence says {token!r}; the claim not")
            )
    # Superlatives and outcomes the evidence does not state.
    for token in claim_tokens:
        lowered_token = token.casefold()
        if (
            superlative(token)
            and stem(lowered_token) not in evidence_stems
            and lowered_token not in unit.norm
            and not THAN_ANY.search(unit.text)
        ):
            problems.append(
                Problem("grounding.claim", token, f"superlative {token!r} is not in the evidence")
            )
    cause = CAUSE.search(claim)
    if cause and not EVIDENCE_CAUSE.search(unit.text):
        problems.append(
            Problem("grounding.claim", cause.group(), f"cause {cause.group()!r} is not stated")
        )
    evidence_bounds = {" ".join(b.casefold().split()) for b in BOUNDS.findall(unit.text)}
    for bound in BOUNDS.findall(claim):
        if evidence_bounds and " ".join(bound.casefold().split()) not in evidence_bounds:
            problems.append(
                Problem("grounding.polarity", bound, f"{bound!r} is not in the evidence")
            )
    for phrase in KIND_PHRASE.finditer(claim):
        if normalize(phrase.group()) not in unit.norm:
            problems.append(
                Problem("grounding.claim", phrase.group(), f"{phrase.group()!r} is not stated")
            )
    for phrase, word in benefit_words(claim_tokens):
        if not benefit_backed(word, index.vocabulary, tuple(index.texts)):
            problems.append(
                Problem("grounding.claim", phrase, f"outcome {phrase!r} is not in the record")
            )
    for token in claim_tokens:
        key = stem(token)
        if key in OUTCOME_NOUNS and key not in evidence_stems and key not in index.vocabulary:
            problems.append(
                Problem("grounding.claim", token, f"outcome {token!r} is not in the evidence")
            )
    previous = ""
    evidence_outcome = any(s in OUTCOMES for s in evidence_stems)
    for hit in WORD.finditer(claim):
        token = hit.group()
        if stem(token) not in OUTCOMES or figured((previous.casefold(),)):
            previous = token  # "a 300% increase" names a figure, which the figure rules judge
            continue
        previous = token
        result = True
        run = noun_run(claim, hit.end())
        head = run[-1] if run else ""
        if restated and evidence_outcome and (not head or head in GENERIC_NOUNS or figured(run)):
            continue  # "achieved a threefold increase" for "tripled"
        if restated and BY_FIGURE.match(claim, hit.end()):
            continue  # "grew 2.5x" for "2.5x more": the verb only gives a stated figure's way
        if not head and stem(token) in GAINS and evidence_outcome:
            continue  # "gains" for the evidence's "doubled the efficiency"
        if (head and head not in evidence_stems) or (
            not head and stem(token) not in evidence_stems
        ):
            what = " ".join([token, *run_words(claim, hit.end(), run)])
            problems.append(
                Problem("grounding.claim", what, f"outcome {what!r} is not in the evidence")
            )
    # Names and terms: in the record; and with a result, in the same sentence as the result.
    companies = company_pattern(tuple(c for c in ctx.companies if normalize(c) not in own))
    if companies is not None:
        for hit in companies.finditer(claim):
            if normalize(hit.group()) not in index.norm_text:
                problems.append(
                    Problem(
                        "grounding.actor",
                        hit.group(),
                        f"{hit.group()!r} is another company of the database, not in the record",
                    )
                )
    named: list[tuple[str, tuple[str, ...]]] = []
    own_stems = {s for name in (ctx.source.company, ctx.source.publisher_name) for s in stems(name)}
    for name in proper_nouns(claim):
        key = name.casefold()
        if key in MONTHS_DAYS or normalize(name) in own:
            continue
        if companies is not None and companies.fullmatch(name):
            continue
        if key not in index.vocabulary and stem(name) not in index.vocabulary:
            problems.append(
                Problem(
                    "grounding.term", name, f"{name!r} is not named in {record_file(ctx.source)}"
                )
            )
        else:
            named.append((name, stems(name)))
    first = words(claim)[:1]
    if first and first[0] in index.names and normalize(first[0]) not in own:
        named.append((first[0], stems(first[0])))  # a record name opening the sentence
    opener = name_head(first[0]) if first else ""
    if (
        opener.casefold() in KNOWN_COMPANIES
        and normalize(opener) not in own
        and opener.casefold() not in index.vocabulary
    ):
        problems.append(
            Problem("grounding.actor", opener, f"{opener!r} is another company, not in the record")
        )
    for phrase in introduced_phrases(claim):
        if unknown_phrase(phrase, index.vocabulary):
            problems.append(
                Problem("grounding.term", phrase, f"{phrase!r} is not named in the record")
            )
    for phrase in named_terms(claim_stems, all_terms(ctx.vocabulary)):
        text = " ".join(phrase)
        if not contains(index.sequence, phrase):
            problems.append(
                Problem("grounding.term", text, f"technical term {text!r} is not in the record")
            )
        else:
            named.append((text, phrase))
    problems += [Problem(*p) for p in shifts(claim, unit.text, _dates(ctx))]
    problems += [Problem(*p) for p in account_shifts(claim, unit.text, None, entity_names(ctx))]
    problems += [Problem(*p) for p in hedge_shifts(claim, unit.text)]
    problems += [Problem(*p) for p in one_unit_shift(claim, unit.text)]
    problems += [Problem(*p) for p in borrowed(claim, unit, index, own_stems)]
    problems += [Problem(*p) for p in misplaced(claim, unit, named, own_stems)]
    problems += [Problem(*p) for p in credited_elsewhere(claim, unit)]
    problems += [Problem(*p) for p in swapped(claim, unit, named, own_stems)]
    if result:
        problems += [Problem(*p) for p in borrowed_subject(claim, unit, index, own_stems)]
        # The system a record is about (named in its title) may carry any of its results.
        title = set(stems(ctx.source.title))
        for name, name_stems in named:
            if all(p in title or p in own_stems for p in name_stems):
                continue
            if not all(p in evidence_stems for p in name_stems):
                problems.append(
                    Problem(
                        "grounding.joined",
                        name,
                        f"{name!r} comes from another sentence of the record than the result",
                    )
                )
    return problems


def _dates(ctx: CheckContext) -> tuple[str, ...]:
    """Return the records' published and checked dates (ISO), which a lead-in may name."""
    return tuple(str(d) for view in ctx.originals for d in (view.published, view.checked) if d)


BY_FIGURE = re.compile(r"\s+(?:by\s+|to\s+)?(?:about\s+|over\s+|nearly\s+)?\d")
CLAUSE = re.compile(r";\s+|,\s+(?:and|while|whereas|but)\s+|\s+and\s+(?=the\s|its\s|it\s)")


# What several record sentences about one subject can clear together.
JOIN_RULES = frozenset(["figures.claim", "grounding.joined"])
# A lower-ranked sentence may serve as evidence only when it aligns nearly as well as the best.
CLOSE_SCORE = 0.6


def figured(run: tuple[str, ...]) -> bool:
    """Return True when a noun run holds a figure word ("twofold", "3x")."""
    return any(w.endswith("fold") or any(ch.isdigit() for ch in w) for w in run)


def _closest_clause(text: str, claim_set: set[str], tokens: tuple[str, ...]) -> list[str]:
    """Return the tokens of the evidence clauses a claim restates (half their words or more)."""
    clauses = [c for c in CLAUSE.split(text) if c]
    if len(clauses) < 2:
        return list(tokens)
    shared = []
    for clause in clauses:
        own = set(content(stems(clause)))
        if len(claim_set & own) >= 0.5 * len(own):
            shared.extend(words(clause))
    return shared or list(tokens)


def _evidence_units(claim: str, guide: ParsedGuide, index: RecordIndex) -> list[tuple[float, Unit]]:
    """Return the record sentences a claim may rest on: its drafted quote first, then the best."""
    units: list[tuple[float, Unit]] = []
    for item in _drafted(claim, guide, index):
        quoted = normalize(item.quote).strip(" .")
        holders = [unit for unit in index.units if quoted in unit.norm]
        units.extend((float("inf"), unit) for unit in holders or [_unit(item.quote)])
    units.extend(align(content(stems(claim)), index))
    return units


def _drafted(claim: str, guide: ParsedGuide, index: RecordIndex) -> list[Evidence]:
    """Return the drafted statements (with their record quotes) a claim is, or was edited from."""
    key = normalize(claim)
    claim_stems = set(content(stems(claim)))
    out = []
    for item in guide.evidence:
        quoted = normalize(item.quote).strip(" .")
        if not quoted or quoted not in index.norm_text:
            continue
        drafted = set(content(stems(item.text)))
        same = normalize(item.text) == key
        # An edited statement keeps its drafted quote while most of its words remain.
        if same or len(claim_stems & drafted) >= 0.6 * max(1, len(drafted | claim_stems)):
            out.append(item)
    return out


def _judge(claim: str, guide: ParsedGuide, index: RecordIndex, ctx: CheckContext) -> Claim:
    ranked = _evidence_units(claim, guide, index) or [(0.0, unit) for unit in index.units[:1]]
    # The drafted quote is tried first; the record sentences that align nearly as well as the
    # best one may still support the claim when the quote does not.
    aligned = [score for score, _ in ranked if score != float("inf")]
    top = aligned[0] if aligned else ranked[0][0]
    best: Claim | None = None
    for score, unit in ranked:
        if best is not None and score != float("inf") and score < top * CLOSE_SCORE:
            break
        problems = _problems(claim, unit, index, ctx)
        if best is None or len(problems) < len(best.problems):
            best = Claim(claim, unit.text, False, problems)
        if not problems:
            break
    assert best is not None
    best.problems += [Problem(*p, whole=True) for p in moved_figures(claim, tuple(index.texts))]
    quotes = tuple(item.quote for item in _drafted(claim, guide, index))
    best.problems += [Problem(*p, whole=True) for p in unquoted_figures(claim, quotes)]
    for quoted in off_quote(claim, quotes, index):
        said = f"its quote {quote(quoted, 80)} is about another record sentence"
        best.problems.append(Problem("grounding.claim", quoted, said, whole=True))
    if best.problems and all(p.rule in JOIN_RULES for p in best.problems):
        own_names = frozenset(
            s for name in (ctx.source.company, ctx.source.publisher_name) for s in stems(name)
        )
        joined = co_evidence(claim, ranked[0][1], index, tuple(ctx.source.scale), own_names)
        if joined is not None:
            problems = _problems(claim, joined, index, ctx)
            if len(problems) < len(best.problems):
                best = Claim(claim, joined.text, False, problems)
    if best.problems and all(_named_back(p) for p in best.problems):
        # "… reduced the effect." speaks of what the sentence before it names; that sentence
        # may name what the claim's words refer to, never give its result another subject.
        for _, unit in ranked[:2]:
            joined = with_antecedent(unit, index)
            if joined is None:
                continue
            problems = _problems(claim, joined, index, ctx)
            if not problems:
                best = Claim(claim, joined.text, False, problems)
                break
    return best


def _named_back(problem: Problem) -> bool:
    """Return True for a problem that the sentence an evidence refers back to may clear: an
    outcome or a word pair it names, not the claim's subject."""
    if problem.rule == "grounding.claim":
        return problem.message.startswith("outcome")
    return problem.rule == "grounding.joined" and problem.message.endswith("than this one")


def is_verbatim_claim(claim: str, index: RecordIndex) -> bool:
    """Return True when a claim (minus a lead-in such as "According to X:") is record text."""
    core = normalize(LEAD_IN.sub("", claim.strip())).rstrip(".!? ")
    return bool(core) and core in index.norm_text


def analyze(guide: ParsedGuide, ctx: CheckContext) -> list[Claim]:
    """Judge every sentence of "What X reports" against its best evidence sentence."""
    reports = guide.section(REPORTS)
    if reports is None or not reports.text:
        return []
    index = record_index(ctx.source)
    claims = []
    for sentence in sentences(reports.text):
        if is_verbatim_claim(sentence, index):
            best = _best_unit(sentence, index)
            claims.append(Claim(sentence, best, True, []))
            continue
        judged = _judge(sentence, guide, index, ctx)
        if judged.problems:
            clauses = [c for c in CLAUSE.split(sentence) if c and len(words(c)) >= 3]
            if len(clauses) > 1:
                split = [_judge(c, guide, index, ctx) for c in clauses]
                if not any(c.problems for c in split):
                    judged.problems = [p for p in judged.problems if p.whole]
                    evidence = [c.evidence for c in split]
                    judged.problems += [Problem(*p) for p in spliced(sentence, clauses, evidence)]
        claims.append(judged)
    return claims


def _best_unit(sentence: str, index: RecordIndex) -> str:
    core = normalize(LEAD_IN.sub("", sentence.strip())).rstrip(".!? ")
    for unit in index.units:
        if core in unit.norm:
            return unit.text
    return core


FIXES = {
    "figures.claim": "use the figure its evidence sentence states, or quote the sentence it "
    "comes from",
    "figures.unit": "keep the figure with the noun the record gives it",
    "grounding.term": "remove the name or term, or add it to the record if the original states it",
    "grounding.actor": "a reported sentence may only describe the record's own company",
    "grounding.polarity": "keep the record's negation, hedge or quantifier exactly",
    "grounding.claim": "state only what the record reports",
    "grounding.joined": "report each source sentence separately; do not credit one sentence's "
    "result to another's subject",
    **SHIFT_FIXES,
    **ACCOUNT_FIXES,
}


def _merged(problems: list[Problem]) -> str:
    """Say every word of one rule's problems at once: one message per kind of problem."""
    templates: dict[str, list[str]] = {}
    for problem in problems:
        said = repr(problem.term)
        template = problem.message.replace(said, "{}", 1) if said in problem.message else ""
        templates.setdefault(template or problem.message, []).append(said)
    parts = []
    for template, terms in templates.items():
        parts.append(template.replace("{}", ", ".join(terms), 1) if "{}" in template else template)
    return "; ".join(parts)


def check_grounding(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require each reported claim's figures, names, polarity and outcomes in its evidence."""
    findings = []
    for claim in analyze(guide, ctx):
        by_rule: dict[str, list[Problem]] = {}
        for problem in claim.problems:
            same = by_rule.setdefault(problem.rule, [])
            if all(p.term.casefold() != problem.term.casefold() for p in same):
                same.append(problem)
        for rule, problems in by_rule.items():
            messages = _merged(problems)
            findings.append(
                finding(
                    rule,
                    "error",
                    REPORTS,
                    f"{quote(claim.text)}: {messages} (evidence: "
                    f"{quote(claim.evidence, 100)}); {FIXES[rule]}",
                )
            )
    return findings


__all__ = ["Claim", "Evidence", "Problem", "analyze", "check_grounding"]
