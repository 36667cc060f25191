"""One digest issue as pure data: which write-ups, grouped by topic, with counts."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from generator.core.catalogue import Catalogue, english
from generator.core.errors import ConfigError
from generator.sources.records import Source, normalize_tag
from generator.sources.topics import display_names

WEEK = re.compile(r"(\d{4})-W(\d{2})")
SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’)]*\s+(?=[A-Z0-9“\"])")


@dataclass(frozen=True)
class Week:
    """An ISO week: 2026-W48 runs from Monday to Sunday."""

    year: int
    number: int

    @property
    def label(self) -> str:
        return f"{self.year}-W{self.number:02d}"

    @property
    def monday(self) -> date:
        return date.fromisocalendar(self.year, self.number, 1)

    @property
    def sunday(self) -> date:
        return self.monday + timedelta(days=6)

    def holds(self, day: date) -> bool:
        return self.monday <= day <= self.sunday


def parse_week(text: str) -> Week:
    """Parse YYYY-Www; raise ConfigError naming the value when it is no ISO week."""
    match = WEEK.fullmatch(text.strip())
    if match:
        year, number = int(match[1]), int(match[2])
        try:
            date.fromisocalendar(year, number, 1)
        except ValueError:
            pass
        else:
            return Week(year, number)
    raise ConfigError(f"{text!r} is not an ISO week; write it as YYYY-Www, e.g. 2026-W48")


def week_of(day: date) -> Week:
    """Return the ISO week a day falls in."""
    year, number, _ = day.isocalendar()
    return Week(year, number)


def last_full_week(today: date) -> Week:
    """Return the latest ISO week that has ended before today."""
    return week_of(today - timedelta(days=today.isoweekday()))


@dataclass(frozen=True)
class DigestItem:
    """One write-up in an issue: facts from its record, a link to our guide."""

    guide_id: str
    title: str
    company: str
    year: int | None
    reports: str
    url: str


@dataclass(frozen=True)
class DigestGroup:
    """Write-ups that share a topic; `topic` is None for the rest."""

    topic: str | None
    items: tuple[DigestItem, ...]


@dataclass(frozen=True)
class DigestArticle:
    """A career article first published in the week: its title, companies and page."""

    slug: str
    title: str
    companies: str
    url: str


@dataclass(frozen=True)
class DigestIssue:
    """A week's issue: its opening sentence and its groups, empty when nothing was published.

    number counts the weeks with an issue up to this one (the first issue is 1); name is what
    readers see ("Issue 12 · 30 Nov – 6 Dec 2026"), in the site's language.
    """

    week: Week
    site_name: str
    opening: str
    groups: tuple[DigestGroup, ...]
    articles: tuple[DigestArticle, ...] = ()
    number: int = 1
    words: Catalogue = field(default_factory=english, repr=False, compare=False)

    @property
    def items(self) -> list[DigestItem]:
        return [item for group in self.groups for item in group.items]

    @property
    def empty(self) -> bool:
        return not self.groups and not self.articles

    @property
    def name(self) -> str:
        return self.words.issue(self.number, self.week.monday, self.week.sunday)

    @property
    def subject(self) -> str:
        return self.words.digest.subject.format(
            site=self.site_name,
            issue=self.name,
            new_write_ups=self.words.counts.new_write_ups.of(len(self.items)),
        )


def issue_number(week: Week, days: Iterable[date]) -> int:
    """Return the number of a week's issue: 1 + the weeks before it with a first publication."""
    return 1 + len({week_of(day) for day in days if day < week.monday})


def first_sentence(text: str) -> str:
    """Return the first sentence of a record's text, as written."""
    text = " ".join(text.split())
    match = SENTENCE_END.search(text)
    return text[: match.start()].strip() if match else text


def _tags(source: Source) -> set[str]:
    return {normalize_tag(tag) for tag in source.tags}


def group_by_topic(sources: Sequence[Source]) -> list[tuple[str | None, list[Source]]]:
    """Group write-ups under the tag most of them share (ties: alphabetically first), greedily."""
    names = display_names(sources)
    tags = [_tags(source) for source in sources]  # normalized once, not once per group
    remaining = list(range(len(sources)))
    groups: list[tuple[str | None, list[Source]]] = []
    while remaining:
        counts = Counter(key for i in remaining for key in tags[i])
        best = min(counts.items(), key=lambda pair: (-pair[1], pair[0]), default=None)
        if best is None or best[1] < 2:
            groups.append((None, [sources[i] for i in remaining]))
            break
        groups.append(
            (names.get(best[0], best[0]), [sources[i] for i in remaining if best[0] in tags[i]])
        )
        remaining = [i for i in remaining if best[0] not in tags[i]]
    return groups


def opening_sentence(
    sources: Sequence[Source],
    groups: Sequence[tuple[str | None, list]],
    words: Catalogue | None = None,
) -> str:
    """Say how many write-ups from how many companies, and the most shared topic."""
    words = words or english()
    companies = {source.company for source in sources}
    counted = words.counts.companies.of(len(companies))
    if len(companies) <= 3:
        names = words.lists.join(sorted(companies))
        counted = words.digest.opening_named.format(companies=counted, names=names)
    topic, members = groups[0]
    about = ""
    if topic is not None:
        about = words.digest.opening_topic.format(topic=topic, count=len(members))
    return words.digest.opening.format(
        write_ups=words.counts.new_write_ups.of(len(sources)), companies=counted, topic=about
    )


def build_issue(
    week: Week,
    published: Sequence[tuple[Source, date]],
    *,
    site_name: str,
    guide_url,
    articles: Sequence[tuple[DigestArticle, date]] = (),
    number: int | None = None,
    words: Catalogue | None = None,
) -> DigestIssue:
    """Build the issue of a week from (record, first-published date) pairs.

    articles are the (article, first-published date) pairs of the career articles; number is
    the issue's number when the caller knows it (else counted from the pairs); words are the
    catalogue its name and subject are written in (English by default).
    """
    words = words or english()
    if number is None:
        days = [day for _, day in published] + [day for _, day in articles]
        number = issue_number(week, days)
    chosen = sorted(
        (source for source, day in published if week.holds(day)),
        key=lambda source: (-(source.published or date.min).toordinal(), source.key),
    )
    fresh = tuple(sorted((a for a, day in articles if week.holds(day)), key=lambda a: a.slug))
    if not chosen:
        if fresh:
            opening = words.digest.articles_only.of(len(fresh))
        else:
            opening = words.digest.no_issue.format(week=week.label)
        return DigestIssue(
            week=week,
            site_name=site_name,
            opening=opening,
            groups=(),
            articles=fresh,
            number=number,
            words=words,
        )
    groups = group_by_topic(chosen)
    return DigestIssue(
        week=week,
        site_name=site_name,
        articles=fresh,
        number=number,
        words=words,
        opening=opening_sentence(chosen, groups, words),
        groups=tuple(
            DigestGroup(
                topic=topic,
                items=tuple(
                    DigestItem(
                        guide_id=source.key,
                        title=source.title,
                        company=source.company,
                        year=source.published.year if source.published else None,
                        reports=first_sentence(source.summary),
                        url=guide_url(source.key),
                    )
                    for source in members
                ),
            )
            for topic, members in groups
        ),
    )
