"""Topic hubs: statistics over the whole source database, as pure functions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from generator.core.catalogue import Catalogue, english
from generator.sources.records import Source, normalize_tag, slugify

TECHNIQUES = "techniques"
STACK = "stack"
BOTH = "both"
MAX_COOCCURRING = 3
MAX_NAMED_COMPANIES = 6


@dataclass(frozen=True)
class Topic:
    """One technique or stack tag and the statistics its hub opens with."""

    key: str
    name: str
    slug: str
    field: str
    total: int
    sources: tuple[Source, ...]
    companies: tuple[str, ...]
    years: tuple[int, int] | None
    undated: int
    techniques: tuple[tuple[str, int], ...]
    stack: tuple[tuple[str, int], ...]
    with_scale: int
    example: tuple[str, str, str] | None = None
    paragraph: str = field(default="", compare=False)

    @property
    def count(self) -> int:
        return len(self.sources)

    @property
    def title(self) -> str:
        noun = "case study" if self.count == 1 else "case studies"
        return f"How teams scaled {self.name}: {self.count} real {noun}"

    def as_json(self) -> dict:
        """Return the statistics as JSON-ready data."""
        return {
            "tag": self.name,
            "slug": self.slug,
            "field": self.field,
            "count": self.count,
            "total": self.total,
            "companies": list(self.companies),
            "years": list(self.years) if self.years else None,
            "undated": self.undated,
            "techniques": [list(pair) for pair in self.techniques],
            "stack": [list(pair) for pair in self.stack],
            "with_scale": self.with_scale,
            "example": (
                {"scale": self.example[0], "company": self.example[1], "source": self.example[2]}
                if self.example
                else None
            ),
            "sources": [source.key for source in self.sources],
            "paragraph": self.paragraph,
        }


def join_names(names: Sequence[str]) -> str:
    """Join names as "A", "A and B" or "A, B and C"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def display_names(sources: Iterable[Source]) -> dict[str, str]:
    """Map each normalized tag to its most used spelling (ties: the first in sort order)."""
    spellings: dict[str, Counter[str]] = {}
    for source in sources:
        for tag in source.tags:
            spellings.setdefault(normalize_tag(tag), Counter())[tag] += 1
    return {
        key: min(counter.items(), key=lambda item: (-item[1], item[0]))[0]
        for key, counter in spellings.items()
    }


def recency_key(source: Source) -> tuple:
    """Sort key putting the newest write-up first, undated last, then by id."""
    published = source.published or date.min
    return (source.published is None, -published.toordinal(), source.key)


# A write-up's normalized stack and techniques tags, by its key (see normalized_tags).
Normalized = dict[str, tuple[frozenset[str], frozenset[str]]]


def normalized_tags(sources: Iterable[Source]) -> Normalized:
    """Return each write-up's normalized stack and techniques tags, made once for all hubs."""
    return {
        source.key: (
            frozenset(normalize_tag(tag) for tag in source.stack),
            frozenset(normalize_tag(tag) for tag in source.techniques),
        )
        for source in sources
    }


def _cooccurring(
    sources: Sequence[Source], which: int, exclude: str, names: dict[str, str], tags: Normalized
) -> tuple[tuple[str, int], ...]:
    counts: Counter[str] = Counter()
    for source in sources:
        counts.update(tags[source.key][which] - {exclude})
    ranked = sorted(
        ((names[key], n) for key, n in counts.items() if n >= 2),
        key=lambda pair: (-pair[1], pair[0].casefold(), pair[0]),
    )
    return tuple(ranked[:MAX_COOCCURRING])


def _counted(pairs: Sequence[tuple[str, int]], words: Catalogue) -> str:
    return words.lists.join(words.hub.counted.format(name=name, count=n) for name, n in pairs)


def _companies_clause(companies: Sequence[str], words: Catalogue) -> str:
    count = len(companies)
    shown = list(companies[:MAX_NAMED_COMPANIES])
    if count > MAX_NAMED_COMPANIES:
        shown.append(words.hub.more.format(count=count - MAX_NAMED_COMPANIES))
    return words.hub.companies.of(count, names=words.lists.join(shown))


def _years_clause(topic: Topic, words: Catalogue) -> str:
    if topic.years is None:
        return ""
    first, last = topic.years
    hub = words.hub
    span = (
        hub.in_year.format(year=first)
        if first == last
        else hub.between_years.format(first=first, last=last)
    )
    if topic.undated:
        return hub.published_dated.format(span=span)
    return hub.published.of(topic.count, span=span)


def topic_paragraph(topic: Topic, words: Catalogue | None = None) -> str:
    """Write the hub's opening paragraph in the reference hub's pattern, in words' language."""
    words = words or english()
    hub = words.hub
    where = {STACK: hub.where_stack, TECHNIQUES: hub.where_techniques}.get(
        topic.field, hub.where_both
    )
    sentences = [
        hub.mention.of(topic.count, total=topic.total, name=topic.name, where=where),
        hub.come_from.of(
            topic.count,
            companies=_companies_clause(topic.companies, words),
            years=_years_clause(topic, words),
        ),
    ]
    if topic.techniques:
        sentences.append(
            hub.alongside.format(name=topic.name, list=_counted(topic.techniques, words))
        )
    if topic.stack:
        sentences.append(hub.paired.format(list=_counted(topic.stack, words)))
    if topic.example:
        scale, company, _ = topic.example
        sentences.append(
            hub.with_scale.of(topic.with_scale, total=topic.count, scale=scale, company=company)
        )
    return " ".join(sentences)


def build_topic(
    key: str,
    members: Sequence[Source],
    total: int,
    names: dict[str, str],
    tags: Normalized | None = None,
) -> Topic:
    """Compute one hub's statistics from the write-ups that carry its tag (tags: theirs)."""
    tags = tags if tags is not None else normalized_tags(members)
    ordered = tuple(sorted(members, key=recency_key))
    in_stack = sum(1 for s in ordered if key in tags[s.key][0])
    in_techniques = sum(1 for s in ordered if key in tags[s.key][1])
    where = BOTH if in_stack and in_techniques else STACK if in_stack else TECHNIQUES
    companies = tuple(sorted({s.company for s in ordered}, key=lambda c: (c.casefold(), c)))
    dated = [s.published.year for s in ordered if s.published]
    scaled = [s for s in ordered if s.scale]
    example = (scaled[0].scale[0], scaled[0].company, scaled[0].key) if scaled else None
    topic = Topic(
        key=key,
        name=names[key],
        slug=slugify(names[key]),
        field=where,
        total=total,
        sources=ordered,
        companies=companies,
        years=(min(dated), max(dated)) if dated else None,
        undated=len(ordered) - len(dated),
        techniques=_cooccurring(ordered, 1, key, names, tags),
        stack=_cooccurring(ordered, 0, key, names, tags),
        with_scale=len(scaled),
        example=example,
    )
    return Topic(**{**topic.__dict__, "paragraph": topic_paragraph(topic)})


def tag_members(sources: Iterable[Source]) -> dict[str, list[Source]]:
    """Group write-ups by normalized technique and stack tag, each write-up once per tag."""
    members: dict[str, list[Source]] = {}
    for source in sources:
        for key in dict.fromkeys(normalize_tag(tag) for tag in source.tags):
            members.setdefault(key, []).append(source)
    return members


def compute_topics(sources: Sequence[Source], min_sources: int) -> list[Topic]:
    """Return a hub for every tag carried by at least min_sources write-ups, by slug."""
    names = display_names(sources)
    tags = normalized_tags(sources)
    topics = [
        build_topic(key, members, len(sources), names, tags)
        for key, members in tag_members(sources).items()
        if len(members) >= min_sources
    ]
    return sorted(topics, key=lambda t: (t.slug, t.key))


def topic_for(sources: Sequence[Source], tag: str) -> Topic | None:
    """Return the statistics for one tag, or None when no write-up carries it."""
    key = normalize_tag(tag)
    members = tag_members(sources).get(key)
    return build_topic(key, members, len(sources), display_names(sources)) if members else None


@dataclass(frozen=True)
class SlugClash:
    """Two or more tags whose hubs would share one folder."""

    slug: str
    kept: str
    dropped: tuple[str, ...]


def unique_slugs(topics: Sequence[Topic]) -> tuple[list[Topic], list[SlugClash]]:
    """Keep the first topic per slug (the most used, then by name) and report the rest."""
    by_slug: dict[str, list[Topic]] = {}
    for topic in topics:
        by_slug.setdefault(topic.slug, []).append(topic)
    kept, clashes = [], []
    for slug, group in by_slug.items():
        group.sort(key=lambda t: (-t.count, t.key))
        if not slug:
            clashes.append(SlugClash(slug, "", tuple(t.name for t in group)))
            continue
        kept.append(group[0])
        if len(group) > 1:
            clashes.append(SlugClash(slug, group[0].name, tuple(t.name for t in group[1:])))
    return kept, clashes
