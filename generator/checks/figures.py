"""figures.*: every figure in the record; an error in "reports" and wherever it is the company's.

Figures compare after normalisation ("54K" is "54,000"); consistent rounding ("more than
3 billion" for 3.6 billion) and exact arithmetic restatements ("doubled" as "a 100% increase")
pass. Number words count as figures in "reports" and in our sentences about the company.
"""

from __future__ import annotations

import re
from dataclasses import replace

from generator.checks.analysis import analysis
from generator.checks.base import CheckContext, ParsedGuide, finding, quote
from generator.checks.claims import (
    MAX_NUMBERS,
    MAX_RECORD_NUMBERS,
    NUMBER_WORDS,
    Quantity,
    counted_in_points,
    derived,
    lists_count,
    match,
    may_hold_quantities,
    noun_after,
    noun_run,
    quantities,
    same_figure,
    too_many_numbers,
)
from generator.checks.figureindex import Grounding
from generator.checks.subjects import is_instruction
from generator.checks.text import STOP, RecordIndex, record_index, stem, stems
from generator.guides.document import REPORTS
from generator.guides.findings import Finding

# What a reader's own work is counted in: "in under 300 words" is an instruction, not a fact.
READER_UNITS = frozenset(
    stem(w)
    for w in [
        "word",
        "sentence",
        "paragraph",
        "page",
        "slide",
        "line",
        "bullet",
        "step",
        "minute",
        "hour",
        "day",
        "week",
        "month",
        "example",
        "question",
        "point",
        "item",
        "idea",
        "note",
        "draft",
        "version",
        "experiment",
        "run",
        "trial",
        "attempt",
        "case",
        "iteration",
        "round",
        "pass",
        "tab",
        "metric",
        "chart",
    ]
)


# What our framing counts: "the two figures the write-up leans on", "three choices worth
# discussing" count parts of the story, not anything the company measured.
FRAMING_NOUNS = frozenset(
    stem(w)
    for w in ["figure", "number", "metric", "lesson", "idea", "choice", "decision", "theme"]
    + ["thread", "question", "trade-off", "tradeoff", "takeaway", "detail", "thing", "way"]
    + ["side", "move", "lever", "habit", "reason", "mistake", "principle", "insight", "angle"]
    + ["signal", "skill", "aspect", "part", "concept", "topic", "habit", "pattern", "story"]
)


# Metric and tier identifiers are names, not figures: p99 latency, P99.9, L2 cache, BM25.
METRIC_ID = re.compile(
    r"(?i)(?:p\d{1,2}(?:\.\d+)?|l[1-9]|bm\d{2}|top-?\d{1,3}|f[12]|ndcg@?\d*|mrr@?\d*"
    r"|recall@\d+|int[48]|fp(?:4|8|16|32|64)|bf16|tf32|h[1-6]|ipv[46]|http[23]|s3|ec2|k8s)"
)


def stated(q: Quantity, facts: Grounding, ctx: CheckContext) -> bool:
    """Return True when the record states a figure's value, exactly or rounded."""
    if q.figure.text.casefold() in NUMBER_WORDS:
        return False  # a small number word is judged with its noun, sentence by sentence
    if not q.approx and facts.supports(q.figure):
        return True
    index = record_index(ctx.source)
    return any(match(q, quantities(u.text, nouns=False), u.stems) != "value" for u in index.units)


def restated(q: Quantity, sentence: str, ctx: CheckContext) -> bool:
    """Return True when a number word counts a record figure's noun, or arithmetic gives it."""
    index = record_index(ctx.source)
    end = q.start + len(q.figure.text)
    counted = replace(q, noun=noun_after(sentence, q), run=noun_run(sentence, end))
    vague = counted.figure.kind == "vague"
    if (vague or counted.figure.text.casefold() in NUMBER_WORDS) and any(
        match(counted, quantities(u.text), u.stems) is None
        for u in index.units
        if not vague or any(same_figure(counted, s) for s in quantities(u.text, nouns=False))
    ):
        return True  # "four regions" needs a four that counts regions, "billions" too
    return not vague and any(derived(counted, quantities(u.text)) for u in index.units)


# "three groups: doing less, doing later, and compiling ahead": the list after the colon.
LISTED = re.compile(r"^((?:\s+[\w-]+){1,4}?)\s*:\s*(.+)$")
LIST_BREAK = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,\s*|;\s*|\s+(?:and|or)\s+)")


def counts_its_list(sentence: str, q: Quantity) -> bool:
    """Return True when a number word counts the items the sentence lists after a colon."""
    value = NUMBER_WORDS.get(q.figure.text.casefold())
    listed = LISTED.match(sentence[q.start + len(q.figure.text) :].rstrip(". "))
    if value is None or listed is None:
        return False
    items = [part for part in LIST_BREAK.split(listed.group(2)) if part.strip()]
    return len(items) == value


def counts_record_list(sentence: str, q: Quantity, ctx: CheckContext) -> bool:
    """Return True when a number word counts the items that a record sentence lists."""
    return any(lists_count(sentence, q, u.text) for u in record_index(ctx.source).units)


# What makes a sentence general reasoning rather than a report of what happened.
GENERAL = re.compile(
    r"(?i)\b(?:can|could|may|might|would|should|will|often|usually|typically|tends?|if"
    r"|whenever|you|your)\b"
)
# Where the words a figure is said of end: the clause around it.
FIGURE_CLAUSE = re.compile(r"[;:]|,\s+|\s+(?:and|but|while|whereas|rather\s+than)\s+")
METRIC_WORDS = 2  # content words the figure's clause shares with a record sentence's


def record_metric(sentence: str, q: Quantity, index: RecordIndex) -> bool:
    """Return True when a statement gives a percentage, or points, for a metric the record
    measures in percent ("Twelve points of hit ratio came from …"): the company's result,
    though the sentence does not name it."""
    end = q.start + len(q.figure.text)
    points = counted_in_points(
        replace(q, noun=noun_after(sentence, q), run=noun_run(sentence, end))
    )
    if q.figure.kind != "value" or not (q.figure.unit == "%" or points):
        return False
    if GENERAL.search(sentence) or is_instruction(sentence):
        return False
    clause = ""
    at = 0
    for piece in FIGURE_CLAUSE.split(sentence):
        at = sentence.find(piece, at)
        if at <= q.start < at + len(piece):
            clause = piece
            break
        at += len(piece)
    said = {s for s in stems(clause) if s not in STOP and not s[:1].isdigit()}
    said -= {stem(q.figure.text.casefold()), POINT_STEM}
    return any(
        len(said & unit.stems) >= METRIC_WORDS
        and any(e.figure.unit == "%" for e in quantities(unit.text, nouns=False))
        for unit in index.units
    )


POINT_STEM = stem("point")


def check_figures(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require every figure to be in the record: an error in "reports" or about the company."""
    shared = analysis(guide, ctx)
    if count := too_many_numbers(ctx.source.source_text, MAX_RECORD_NUMBERS):
        message = (
            f"{shared.record_file} holds {count} numbers, more than a record states (at most "
            f"{MAX_RECORD_NUMBERS}); figures cannot be checked against it: shorten the record"
        )
        return [finding("figures.reports", "error", REPORTS, message)]
    facts = shared.facts
    findings = []
    seen: set[tuple[str, str]] = set()
    verdicts: dict[tuple[str, str], bool] = {}
    for block in guide.blocks:
        reports = block.section == REPORTS
        if count := too_many_numbers(block.text):
            rule = "figures.reports" if reports else "figures.attributed"
            message = (
                f"{count} numbers in one section are more than a guide states (at most "
                f"{MAX_NUMBERS}); they are not checked one by one: remove the list of numbers"
            )
            findings.append(finding(rule, "error", block.section, message))
            continue
        if not may_hold_quantities(block.text):
            continue  # no sentence of it holds a figure or a number word
        for sentence in shared.sentences(block.text):
            instruction = None  # is_instruction(sentence) outside reports, judged when needed
            about = None
            for q in quantities(sentence, nouns=False):
                if q.figure.kind == "ident" and METRIC_ID.fullmatch(q.figure.text):
                    continue
                number_word = q.figure.kind == "value" and q.figure.text.isalpha()
                if number_word and not reports:
                    if about is None:
                        about = shared.about_company(sentence)
                    if instruction is None:
                        instruction = not reports and is_instruction(sentence)
                    if not about and record_metric(sentence, q, shared.index):
                        about = True  # our figure for the company's metric is its result
                    if not about or instruction or noun_after(sentence, q) in FRAMING_NOUNS:
                        continue
                    if counts_its_list(sentence, q):
                        continue  # our own grouping, counted in the sentence itself
                key = (q.figure.text, q.approx)
                if key not in verdicts:
                    verdicts[key] = stated(q, facts, ctx)
                if (block.section, q.figure.text) in seen:
                    continue
                if verdicts[key] and (reports or q.figure.kind != "vague"):
                    continue  # "billions" about the company must count what the record's do
                if verdicts[key] and not (about := shared.about_company(sentence)):
                    continue
                if restated(q, sentence, ctx):
                    continue
                if about is None:
                    about = shared.about_company(sentence)
                if not about and record_metric(sentence, q, shared.index):
                    about = True
                if instruction is None:
                    instruction = not reports and is_instruction(sentence)
                if instruction and (not about or noun_after(sentence, q) in READER_UNITS):
                    continue
                if number_word and counts_record_list(sentence, q, ctx):
                    continue
                seen.add((block.section, q.figure.text))
                text = q.figure.text
                if reports:
                    rule, severity = "figures.reports", "error"
                    message = (
                        f"figure {text!r} in {quote(sentence)} is not in the source (title, "
                        f"summary, notes, scale of {shared.record_file}); remove it, or add it to "
                        "the record if the original states it"
                    )
                elif about:
                    rule, severity = "figures.attributed", "error"
                    message = (
                        f"figure {text!r} in {quote(sentence)} is about the company or its "
                        f"systems but {shared.record_file} does not state it; remove the figure "
                        "or the attribution"
                    )
                else:
                    rule, severity = "figures.prose", "warning"
                    message = (
                        f"figure {text!r} in {quote(sentence)} is not in the source; make sure "
                        "it is ours and not presented as the source's, or remove it"
                    )
                findings.append(finding(rule, severity, block.section, message))
    return findings
