"""ours.*: our sections stay ours: no copied source sentences, short headings, real steps."""

from __future__ import annotations

import re

from generator.checks.analysis import analysis
from generator.checks.base import (
    LIST_ITEM,
    CheckContext,
    ParsedGuide,
    finding,
    quote,
    split_sentences,
)
from generator.checks.figurewords import DIGIT
from generator.checks.joins import REPORTING
from generator.checks.quoting import QUOTED, normalize
from generator.checks.stepform import (
    form_problem,
    near_duplicate,
    same_letters,
    squashed,
    step_key,
)
from generator.checks.subjects import DOCUMENT, IMPERATIVES
from generator.checks.text import RecordIndex, content, record_index, stems, words
from generator.guides.document import CASE_STUDY, INTERPRETATION, PRACTICE
from generator.guides.findings import Finding

HEADING_WORDS = 8
COPY_TOKENS = 8
COPY_SHARE = 0.8
# A step that describes what people do ("Strong candidates often profile …") is not a step.
FREQUENCY = frozenset(["often", "usually", "typically", "generally", "tend", "tends", "rarely"])
SUBJECTS = frozenset(
    ["candidates", "engineers", "teams", "people", "most", "many", "strong", "good", "great"]
    + ["successful", "experienced", "some", "every", "each", "interviewers", "hiring"]
)


def declarative(item: str) -> bool:
    """Return True when a step states what someone does instead of telling the reader."""
    first = [w.casefold() for w in words(item)[:5]]
    if not first or first[0] in IMPERATIVES:
        return False
    if first[0] in SUBJECTS:
        return True
    # "Move rarely viewed refreshes": an adverb before a participle describes no one.
    after = [*first[2:], ""]
    return any(
        w in FREQUENCY and not a.endswith("ed") for w, a in zip(first[1:4], after, strict=False)
    )


SENTENCE_PUNCTUATION = re.compile(r"[.!?;:]\s|[.!?;:]\Z")
NOT_IMPERATIVE = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "they",
        "their",
        "we",
        "our",
        "i",
        "my",
        "he",
        "she",
        "his",
        "her",
        "there",
        "here",
        "you",
        "your",
        "is",
        "are",
        "was",
        "were",
    ]
)


def in_order(ours: tuple[str, ...], theirs: tuple[str, ...]) -> int:
    """Return how many stems two stem sequences share in the same order (their LCS length)."""
    row = [0] * (len(theirs) + 1)
    for stem_ in ours:
        last = 0
        for at, other in enumerate(theirs, 1):
            here = row[at]
            row[at] = last + 1 if stem_ == other else max(row[at], row[at - 1])
            last = here
    return row[-1]


def copy_sources(index: RecordIndex) -> tuple[tuple[frozenset[str], str, str], ...]:
    """Return each record sentence's stems, its long normalised text (or "") and its text."""
    return tuple(
        (unit.all_stems, unit.norm.rstrip(".!? ") if len(unit.norm) >= 40 else "", unit.text)
        for unit in index.units
    )


def copied(
    sentence: str, ctx: CheckContext, sources=None, every: frozenset[str] | None = None
) -> str | None:
    """Return the record sentence a sentence of ours copies (verbatim, or 80 % of the tokens of
    either, 8 or more).

    every, when given, holds the stems of all the sources: a sentence sharing too few of them
    overlaps no one source enough, so only the verbatim test is left.
    """
    if sentence.startswith(("“", '"')) and QUOTED.search(sentence) is None:
        return None  # a quotation standing as its own sentence: the splitter took its end
    text = QUOTED.sub(" ", sentence) if '"' in sentence or "“" in sentence else sentence
    if len(words(text)) < COPY_TOKENS:
        return None  # too short to copy (and with a word, its stems are not empty)
    sequence = stems(text)
    tokens = set(sequence)
    if sources is None:
        sources = copy_sources(record_index(ctx.source))
    norm = normalize(text).rstrip(".!? ")
    need = COPY_SHARE * len(tokens)
    overlaps = every is None or len(tokens & every) >= need
    for all_stems, long_norm, source in sources:
        if long_norm and long_norm in norm:
            return source
        shared = len(tokens & all_stems)
        ours = overlaps and shared >= need
        theirs = len(all_stems) >= COPY_TOKENS and shared >= COPY_SHARE * len(all_stems)
        if not (ours or theirs):
            continue
        # Shared words copy only when they keep the record's order: a step that reuses the
        # record's terms in a sentence of its own is ours.
        their = stems(source)
        kept = in_order(sequence, their)
        if ours and kept >= COPY_SHARE * len(sequence):
            return source
        if theirs and kept >= COPY_SHARE * len(their) and not framed(text, source):
            return source
    return None


FRAME_START = 6  # words before the write-up is named, for a frame that opens the sentence
FRAME_AFTER = 3  # words after the write-up's name that may hold its reporting verb


def framed(text: str, source: str) -> bool:
    """Return True when our sentence opens by naming the write-up in words of its own ("What
    stands out in this write-up is that …"), not in the record sentence's lead-in ("The
    write-up says"): it reports what the record says and copies nothing as ours."""
    hit = DOCUMENT.search(text)
    if hit is None or len(words(text[: hit.start()])) > FRAME_START:
        return False
    theirs = set(stems(source))
    if not [s for s in content(stems(text[: hit.end()])) if s not in theirs]:
        return False
    lead = REPORTING.match(source)
    if lead is None:
        return True
    verbs = set(content(stems(lead.group()))) - set(stems(hit.group()))
    region = text[: hit.end()].split() + text[hit.end() :].split()[:FRAME_AFTER]
    return not verbs & set(stems(" ".join(region)))


def short_phrase_problems(text: str) -> list[str]:
    """Say why a heading phrase (angle, case-study title) is not a short phrase of ours."""
    problems = []
    if len(words(text)) > HEADING_WORDS:
        problems.append(f"has {len(words(text))} words")
    if SENTENCE_PUNCTUATION.search(text):
        problems.append("has sentence punctuation")
    if DIGIT.search(text):
        problems.append("has a figure")
    return problems


def _short(rule: str, section: str, label: str, text: str) -> list[Finding]:
    problems = short_phrase_problems(text)
    if not problems:
        return []
    message = (
        f"{label} {quote(text)} {' and '.join(problems)}; write a short phrase of at most "
        f"{HEADING_WORDS} words, with no sentence punctuation and no figures"
    )
    return [finding(rule, "error", section, message)]


def check_ours(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Refuse copied record sentences in our sections, long headings and non-steps."""
    findings = []
    shared = analysis(guide, ctx)
    sources = copy_sources(shared.index)
    every = frozenset().union(*(stems for stems, _, _ in sources))
    for key in (INTERPRETATION, CASE_STUDY, PRACTICE):
        section = guide.section(key)
        if section is None:
            continue
        for sentence in shared.sentences(section.text):
            item = LIST_ITEM.match(sentence)
            sentence = item.group(1) if item else sentence
            source = copied(sentence, ctx, sources, every)
            if source is not None:
                findings.append(
                    finding(
                        "ours.copied",
                        "error",
                        key,
                        f"{quote(sentence)} copies the source sentence {quote(source, 100)} of "
                        f"{shared.record_file}; our sections are ours: quote it under 'What … "
                        "reports' instead, or write our own sentence",
                    )
                )
    interpretation = guide.section(INTERPRETATION)
    if interpretation is not None and ":" in interpretation.heading:
        angle = interpretation.heading.split(":", 1)[1].strip()
        if angle:
            findings += _short("ours.angle", INTERPRETATION, "the angle", angle)
    case_study = guide.section(CASE_STUDY)
    if case_study is not None:
        title = case_study.heading.removeprefix("Build a").removesuffix("case study").strip()
        if title:
            findings += _short("ours.title", CASE_STUDY, "the case-study title", title)
    findings += _steps(guide)
    return findings


def _steps(guide: ParsedGuide) -> list[Finding]:
    practice = guide.section(PRACTICE)
    if practice is None:
        return []
    items = [m.group(1) for line in practice.text.splitlines() if (m := LIST_ITEM.match(line))]
    findings = []
    keys = [step_key(item) for item in items]
    letters = [squashed(item) for item in items]
    for index, item in enumerate(items):
        problem = None
        first = words(item)[:1]
        # A break needs an end mark or a newline with more text after it.
        broken = any(mark in item[:-1] for mark in ".!?\n")
        if broken and len([p for p in split_sentences(item) if p.strip()]) > 1:
            problem = "is more than one sentence"
        elif (
            not first
            or first[0].casefold() in NOT_IMPERATIVE
            or not first[0][0].isupper()
            or declarative(item)
        ):
            problem = "is not an imperative (start with a verb, e.g. 'Profile …')"
        elif form := form_problem(item):
            problem = f"{form}, not an imperative (start with a verb, e.g. 'Profile …')"
        else:
            for other in range(index):
                if near_duplicate(keys[index], keys[other]) or same_letters(
                    letters[index], letters[other]
                ):
                    problem = f"nearly repeats {quote(items[other], 80)}"
                    break
        if problem:
            findings.append(
                finding(
                    "ours.steps",
                    "error",
                    PRACTICE,
                    f"step {quote(item, 80)} {problem}; write distinct steps, each one "
                    "imperative sentence",
                )
            )
    return findings
