"""Checking an article source by source: each block against its own record only.

An article is checked as a set of guides the rules already know how to read:
- each source's block, as the "What X reports" of a guide of that record alone, so that a
  figure, name or quote of another source of the article is an error there;
- each clause of our sections that names a company, as a sentence of ours in a guide of that
  company's records among the article's sources (never the union of all sources);
- the clauses that name no company: none may copy a sentence of any source, and one about
  the sources together ("all the teams advise") is held to what the article itself states;
- the whole of our sections once, for the rules about form (angle, steps, leftovers, links).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from generator.checks.base import CheckContext, Evidence, finding, split_sentences
from generator.checks.crossings import borrowed_reports, borrowed_words, crossed
from generator.checks.engine import check_body
from generator.guides.article_draft import block_heading, originals_lines
from generator.guides.compose import disclaimer, originals_block
from generator.guides.document import split_sections
from generator.guides.findings import Finding
from generator.sources.citations import CitationView
from generator.sources.records import Source

OUR_SECTIONS = ("interpretation", "case_study", "practice")
# Rules about what a sentence claims, kept from the per-company and shared passes. A clause
# that names a company is a claim about it, held to its record; the copy rule applies to the
# sentences that are ours alone (naming no company of the article).
CLAIM_RULES = ("grounding.", "figures.", "quotes.", "attribution.")
SHARED_RULES = (*CLAIM_RULES, "ours.copied")
# The company of the record that joins every source: it names no one.
ALL_SOURCES = "the teams"
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six")
# Rules about the form of our sections, kept from the pass over the whole text.
FORM_RULES = (
    "ours.angle",
    "ours.title",
    "ours.steps",
    "steps.",
    "leftovers.",
    "hidden.",
    "links.",
    "structure.angle",
    "structure.empty",
)
# Where a clause of a comparison ends and the next (about another company) may begin.
CLAUSE_BREAK = re.compile(
    r";\s+|,\s+(?:while|whereas|but|and|where)\s+|\s+(?:while|whereas)\s+|:\s+(?=[A-Z])"
)
NEUTRAL_STEP = "Write down what you would measure first."


@dataclass(frozen=True)
class ArticleContext:
    """What an article is checked against: its records, each with its own context."""

    sources: tuple[Source, ...]
    contexts: dict[str, CheckContext]  # by record id
    originals: dict[str, tuple[CitationView, ...]]  # by record id
    site_name: str

    def by_company(self) -> dict[str, CheckContext]:
        """Return a context per company of the article, for its records together."""
        companies = dict.fromkeys(s.company for s in self.sources)
        return {
            name: self.context_for(merged_record([s for s in self.sources if s.company == name]))
            for name in companies
        }

    def context_for(self, source: Source, originals: Sequence[CitationView] = ()) -> CheckContext:
        """Return a context for a record made from several (same dates and database terms)."""
        base = self.contexts[self.sources[0].key]
        return CheckContext(
            source=source,
            originals=list(originals),
            today=base.today,
            freshness_days=base.freshness_days,
            site_name=base.site_name,
            vocabulary=base.vocabulary,
            companies=base.companies,
        )


def merged_record(sources: Sequence[Source], company: str | None = None) -> Source:
    """Return one record holding the text of several (a company's, or the article's).

    The article's own count of sources is a fact of the article, so it is stated too.
    """
    if len(sources) == 1 and company is None:
        return sources[0]
    first = sources[0]
    notes = "\n\n".join(f"{s.title}. {s.notes or ''}".strip() for s in sources[1:])
    if company is not None:
        count = len(sources)
        named = len({s.company for s in sources})
        notes += (
            f"\n\nThe {NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else count} write-ups "
            f"({count}) come from {NUMBER_WORDS[named] if named < len(NUMBER_WORDS) else named} "
            f"companies ({named})."
        )
    return first.model_copy(
        update={
            "company": company or first.company,
            "summary": "\n\n".join(s.summary for s in sources),
            "notes": f"{first.notes or ''}\n\n{notes}".strip(),
            "scale": [item for s in sources for item in s.scale],
            "techniques": list(dict.fromkeys(t for s in sources for t in s.techniques)),
            "stack": list(dict.fromkeys(t for s in sources for t in s.stack)),
            "citations": [],
        }
    )


@dataclass(frozen=True)
class ArticleParts:
    """An article body split into the source blocks and our sections."""

    preamble: str
    blocks: dict[str, str]  # record id -> the block's text
    ours: dict[str, str]  # interpretation, case_study, practice, originals -> text
    headings: dict[str, str]  # our section key -> its heading
    problems: list[Finding]


def split_article(body: str, sources: Sequence[Source], site_name: str) -> ArticleParts:
    """Split an article body; report a missing, repeated, unknown or misplaced heading."""
    preamble, sections = split_sections(body)
    expected = {block_heading(source): source.key for source in sources}
    blocks: dict[str, str] = {}
    ours: dict[str, str] = {}
    headings: dict[str, str] = {}
    order: list[str] = []
    problems: list[Finding] = []
    for section in sections:
        if section.heading in expected:
            key = expected[section.heading]
            if key in blocks:
                problems.append(_structure(f"the block {section.heading!r} appears twice"))
            blocks[key] = section.text
            order.append(key)
        elif section.key in (*OUR_SECTIONS, "originals"):
            if section.key in ours:
                problems.append(_structure(f"the heading {section.heading!r} appears twice"))
            ours[section.key] = section.text
            headings[section.key] = section.heading
            order.append(section.key)
        else:
            problems.append(
                _structure(
                    f"the heading {section.heading!r} is not an article heading: a source "
                    "block is headed 'What <Company> reports: <write-up title>'"
                )
            )
    if disclaimer(site_name) not in preamble:
        problems.append(
            finding(
                "structure.disclaimer",
                "error",
                "disclaimer",
                "the disclaimer paragraph above the first heading is missing or altered",
            )
        )
    wanted = [s.key for s in sources] + [*OUR_SECTIONS, "originals"]
    missing = [key for key in wanted if key not in order]
    if missing:
        problems.append(_structure(f"missing section(s): {', '.join(missing)}"))
    elif [key for key in order if key in wanted] != wanted:
        problems.append(
            _structure("the source blocks come first, in the article's order, then our sections")
        )
    return ArticleParts(preamble, blocks, ours, headings, problems)


def _structure(message: str) -> Finding:
    return finding("structure.heading", "error", "body", message)


def _guide_body(
    site_name: str,
    company: str,
    reports: str,
    angle_heading: str,
    interpretation: str,
    case_heading: str,
    case_study: str,
    steps: Sequence[str],
    originals: Sequence[CitationView],
) -> str:
    """Compose the text of a guide of one record, for the rules that read guides."""
    listed = "\n".join(f"- {step}" for step in steps)
    parts = [
        disclaimer(site_name),
        f"## What {company} reports",
        reports or "(none)",
        f"## {angle_heading}",
        interpretation,
        f"## {case_heading}",
        case_study,
        "## Put it into practice",
        f"Your next research steps.\n\n{listed}",
        "## Read the originals",
        originals_block(originals),
    ]
    return "\n\n".join(parts) + "\n"


_ITEM = re.compile(r"^\s*[-*+]\s+(.*\S)\s*$", re.MULTILINE)


def steps_of(practice: str) -> list[str]:
    """Return the list items of the practice section."""
    return [match.group(1) for match in _ITEM.finditer(practice)]


CUT = re.compile(r",\s+|\s+and\s+|\s+but\s+|;\s+|:\s+")
MIN_CLAUSE_WORDS = 4


def _cuts(part: str, patterns: dict[str, re.Pattern[str]]) -> list[str]:
    """Cut a part between mentions of two different companies, at the last break between them."""
    mentions = sorted(
        (match.start(), match.end(), company)
        for company, pattern in patterns.items()
        for match in pattern.finditer(part)
    )
    pieces, start = [], 0
    for (_, end, first), (begin, _, second) in zip(mentions, mentions[1:], strict=False):
        if first == second:
            continue
        breaks = [m for m in CUT.finditer(part, end, begin) if m.start() >= start]
        if not breaks:
            continue
        cut = breaks[-1]
        head, tail = part[start : cut.start()], part[cut.end() :]
        if len(head.split()) < MIN_CLAUSE_WORDS or len(tail.split()) < MIN_CLAUSE_WORDS:
            continue
        pieces.append(head)
        start = cut.end()
    pieces.append(part[start:])
    return pieces


def clauses(sentence: str, patterns: dict[str, re.Pattern[str]] | None = None) -> list[str]:
    """Split a sentence where a comparison may pass from one company to another."""
    parts = [part.strip(" ,;") for part in CLAUSE_BREAK.split(sentence)]
    if patterns:
        parts = [piece.strip(" ,;") for part in parts for piece in _cuts(part, patterns)]
    parts = [part for part in parts if part]
    out = []
    for part in parts:
        text = part[0].upper() + part[1:]
        out.append(text if text[-1] in ".!?" else f"{text}.")
    return out or [sentence]


def company_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])(?:['’]s)?")


def names_in(text: str, patterns: dict[str, re.Pattern[str]]) -> list[str]:
    """Return the companies (of the article) a text names, in the article's order."""
    return [company for company, pattern in patterns.items() if pattern.search(text)]


def _masked(text: str, keep: str, patterns: dict[str, re.Pattern[str]], mask: str) -> str:
    for company, pattern in patterns.items():
        if company != keep:
            text = pattern.sub(mask, text)
    return text


def counted_sources(text: str, sources: Sequence[Source]) -> str:
    """Drop the article's own count of its sources ("these three migrations", "both teams"):
    that figure is the article's, rendered from its file, not a claim about a company."""
    counts = {len(sources), len({s.company for s in sources})}
    words = "|".join(NUMBER_WORDS[n] for n in counts if n < len(NUMBER_WORDS))
    if not words:
        return text
    pattern = re.compile(rf"\b(the|these|those|all|our)\s+(?:{words})\s+(?=[a-z])", re.IGNORECASE)
    return pattern.sub(lambda m: f"{m.group(1)} ", text)


# The sources named together as agents: "all three teams", "both companies".
COLLECTIVE = re.compile(
    r"\b(?:all|both|these|those|the|each of the|each|every)\s+(?:(?:of\s+the\s+)?[a-z]+\s+)?"
    r"(?:teams|companies|authors|engineers)\b",
    re.IGNORECASE,
)


def collective(text: str) -> str:
    """Name the article's sources together as the record joining them is named."""
    return COLLECTIVE.sub(ALL_SOURCES, text)


def _kept(findings: list[Finding], sections: Sequence[str], rules: Sequence[str]) -> list[Finding]:
    return [
        f
        for f in findings
        if f.section in sections and (f.rule.startswith(tuple(rules)) or f.rule in rules)
    ]


def check_article_body(
    body: str,
    ctx: ArticleContext,
    evidence: Sequence[tuple[str, Evidence]] = (),
) -> list[Finding]:
    """Check an article body source by source; evidence pairs a record id with a statement."""
    sources = ctx.sources
    site = ctx.site_name
    parts = split_article(body, sources, site)
    findings: list[Finding] = list(parts.problems)
    ours = parts.ours
    angle_heading = parts.headings.get("interpretation", "Our career interpretation")
    case_heading = parts.headings.get("case_study", "Build a small case study")
    steps = steps_of(ours.get("practice", ""))
    # Each block against its own record only.
    companies = ctx.by_company()
    for source in sources:
        text = parts.blocks.get(source.key)
        if text is None:
            continue
        own = tuple(item for key, item in evidence if key == source.key)
        guide = _guide_body(
            site,
            source.company,
            text,
            angle_heading,
            "A placeholder sentence of ours.",
            case_heading,
            "A placeholder paragraph of ours.",
            [NEUTRAL_STEP, "Record a baseline.", "Compare two designs."],
            ctx.originals.get(source.key, ()),
        )
        found = check_body(guide, ctx.contexts[source.key], evidence=own)
        for item in _kept(found, ("reports",), ("",)):
            findings.append(
                item.model_copy(update={"message": f"in the block of {source.key}: {item.message}"})
            )
        for item in _kept(found, ("originals",), ("citations.",)):
            findings.append(item)
        findings += borrowed_reports(source.company, source.key, text, companies)
    findings += _our_claims(parts, ctx, angle_heading, case_heading, steps)
    findings += _our_form(parts, ctx, angle_heading, case_heading, steps)
    expected = originals_lines([v for s in sources for v in ctx.originals.get(s.key, ())])
    if "originals" in ours and " ".join(ours["originals"].split()) != " ".join(expected.split()):
        findings.append(
            finding(
                "originals.mismatch",
                "error",
                "originals",
                "'Read the originals' differs from the records: it must list every source of "
                "the article with its Published and Checked dates; generate the article again",
            )
        )
    return list(dict.fromkeys(findings))


def _our_claims(
    parts: ArticleParts,
    ctx: ArticleContext,
    angle_heading: str,
    case_heading: str,
    steps: list[str],
) -> list[Finding]:
    """Hold each clause of ours that names a company to that company's records."""
    sources = ctx.sources
    companies = list(dict.fromkeys(s.company for s in sources))
    patterns = {company: company_pattern(company) for company in companies}
    by_company: dict[str, dict[str, list[str]]] = {c: {k: [] for k in OUR_SECTIONS} for c in [""]}
    for company in companies:
        by_company[company] = {key: [] for key in OUR_SECTIONS}
    beside: dict[tuple[str, str], set[str]] = {}  # the companies a clause names together
    texts = {
        "interpretation": split_sentences(
            counted_sources(parts.ours.get("interpretation", ""), sources)
        ),
        "case_study": split_sentences(counted_sources(parts.ours.get("case_study", ""), sources)),
        "practice": [counted_sources(step, sources) for step in steps],
    }
    for key, sentences in texts.items():
        for sentence in sentences:
            if not names_in(sentence, patterns):
                by_company[""][key].append(collective(sentence))
                continue
            current: list[str] = []
            for clause in clauses(sentence, patterns):
                named = names_in(clause, patterns) or current
                current = named
                for company in named:
                    masked = _masked(clause, company, patterns, "the team")
                    by_company[company][key].append(masked)
                    beside.setdefault((company, masked), set()).update(named)
                if not named:
                    by_company[""][key].append(collective(clause))
    findings: list[Finding] = []
    by_record = ctx.by_company()
    for company, sections in by_company.items():
        if not any(sections.values()):
            continue
        members = [s for s in sources if s.company == company] if company else list(sources)
        record = merged_record(members, None if company else ALL_SOURCES)
        blocks = " ".join(parts.blocks.get(s.key, "") for s in members)
        guide = _guide_body(
            ctx.site_name,
            record.company,
            blocks,
            angle_heading,
            " ".join(sections["interpretation"]) or "A placeholder sentence of ours.",
            case_heading,
            " ".join(sections["case_study"]) or "A placeholder paragraph of ours.",
            (sections["practice"] + [NEUTRAL_STEP, "Record a baseline.", "Compare two designs."])[
                : max(3, len(sections["practice"]))
            ],
            (),
        )
        found = check_body(guide, ctx.context_for(record))
        if company:
            kept = _kept(found, OUR_SECTIONS, CLAIM_RULES)
            findings += kept + crossed(company, sections, kept, by_record)
            findings += borrowed_words(company, sections, by_record, beside)
            continue
        # Ours alone: a copy of any source's sentence is an error; a claim about "the teams"
        # is held to what they all share, which is nothing a single record's systems lend.
        findings += _kept(found, OUR_SECTIONS, ("ours.copied",))
        neutral = neutral_record(sources)
        found = check_body(guide.replace(record.company, neutral.company), ctx.context_for(neutral))
        findings += _kept(found, OUR_SECTIONS, CLAIM_RULES)
    return findings


def neutral_record(sources: Sequence[Source]) -> Source:
    """Return a record that names the article's sources together and states only their count."""
    merged = merged_record(sources, ALL_SOURCES)
    count = merged.notes.rsplit("\n\n", 1)[-1] if merged.notes else ""
    return sources[0].model_copy(
        update={
            "company": ALL_SOURCES,
            "title": "The write-ups",
            "summary": "The teams describe their own work.",
            "notes": count,
            "scale": [],
            "techniques": [],
            "stack": [],
            "citations": [],
        }
    )


def _our_form(
    parts: ArticleParts,
    ctx: ArticleContext,
    angle_heading: str,
    case_heading: str,
    steps: list[str],
) -> list[Finding]:
    """Run the rules about form over our sections as written."""
    record = merged_record(list(ctx.sources), ALL_SOURCES)
    guide = _guide_body(
        ctx.site_name,
        record.company,
        "(none)",
        angle_heading,
        parts.ours.get("interpretation", ""),
        case_heading,
        parts.ours.get("case_study", ""),
        steps,
        (),
    )
    found = check_body(guide, ctx.context_for(record))
    return _kept(found, (*OUR_SECTIONS, "body"), FORM_RULES)
