"""Catalogue: the words of the site in one language, and dates written for people.

Every label and sentence the page templates show lives in templates/catalogue/<tag>.toml,
validated here (a missing, unknown or misspelt key is refused), so a second language is one
file. Dates stay ISO in markup, feeds and the sitemap; pages show them as "13 October 2026".
"""

from __future__ import annotations

import re
import string
import tomllib
from datetime import date
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from generator.core.confine import read_root_text
from generator.core.errors import ConfigError

FOLDER = "catalogue"
DEFAULT_LANGUAGE = "en"
LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{1,8})*")
PLACEHOLDER = re.compile(r"[a-z_]+")
MAX_FILE = 256 * 1024


class _Words(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Text = Annotated[str, Field(min_length=1, max_length=2000)]
Months = Annotated[tuple[Text, ...], Field(min_length=12, max_length=12)]


class Count(_Words):
    """A phrase with a count in it: its singular and its plural."""

    one: Text
    other: Text

    def of(self, count: int, **values: object) -> str:
        """Return the phrase for count ("1 guide", "3 guides"), with any other values in it."""
        return (self.one if count == 1 else self.other).format(count=count, **values)


class Lists(_Words):
    separator: Text
    last: Text

    def join(self, names) -> str:
        """Join names as "A", "A and B" or "A, B and C"."""
        names = list(names)
        if len(names) <= 1:
            return "".join(names)
        return self.last.format(items=self.separator.join(names[:-1]), last=names[-1])


class HubWords(_Words):
    """The opening paragraph of a topic hub, sentence by sentence."""

    mention: Count
    where_stack: Text
    where_techniques: Text
    where_both: Text
    come_from: Count
    companies: Count
    more: Text
    published: Count
    published_dated: Text
    in_year: Text
    between_years: Text
    alongside: Text
    paired: Text
    counted: Text
    with_scale: Count


class Dates(_Words):
    months: Months
    short_months: Months
    day: Text
    week_in_month: Text
    week_in_year: Text
    week_across_years: Text


class Counts(_Words):
    guides: Count
    companies: Count
    write_ups: Count
    new_write_ups: Count
    case_studies: Count


class Chrome(_Words):
    nav_label: Text
    guides: Text
    topics: Text
    companies: Text
    weekly: Text
    feed: Text
    search: Text
    weekly_feed: Text
    breadcrumb_label: Text
    footer_label: Text
    footer: Text
    preview_banner: Text
    draft_banner: Text


class Pager(_Words):
    label: Text
    newer: Text
    older: Text
    newer_issues: Text
    older_issues: Text
    page_of: Text
    title: Text
    topic_first: Text
    company_first: Text


class Cards(_Words):
    see_also: Text
    draft_guide: Text
    date: Text
    no_date: Text
    scale: Text
    techniques: Text
    stack: Text
    read_guide: Text
    original_post: Text
    related: Text
    guide_pill: Text
    source_pill: Text
    no_related: Text
    reports: Text
    disclaimer: Text
    subscribe_title: Text
    subscribe_note: Text
    email_label: Text
    subscribe: Text


class GuideWords(_Words):
    kicker: Text
    draft: Text
    last_reviewed: Text
    first_published: Text
    reading_time: Text
    source_account: Text
    interpretation: Text
    case_study: Text
    practice: Text
    other: Text
    originals: Text
    originals_note: Text
    no_link: Text
    published: Text
    published_unknown: Text
    checked: Text
    not_checked: Text
    topics: Text


class IndexWords(_Words):
    page_title: Text
    heading: Text
    lede: Text
    counts: Text
    new_guides: Text
    feed_link: Text
    digest_link: Text
    browse: Text
    by_topic: Text
    all_topics: Text
    by_company: Text
    all_companies: Text
    list_title: Text
    list_page: Text
    write_up_of: Text
    draft: Text
    reviewed: Text
    empty: Text


class TopicWords(_Words):
    kicker: Text
    title: Text
    stack: Text
    techniques: Text
    both: Text
    note: Text
    stack_note: Text
    techniques_note: Text
    both_note: Text
    all_guides: Text
    some_guides: Text
    heading: Text
    intro: Text


class CompanyWords(_Words):
    kicker: Text
    title: Text
    heading: Text
    intro: Text
    write_ups: Count
    in_year: Text
    between_years: Text
    with_guides: Count


class DigestWords(_Words):
    opening: Text
    opening_named: Text
    opening_topic: Text
    no_issue: Text
    heading: Text
    kicker: Text
    issue: Text
    title: Text
    subject: Text
    feed_title: Text
    not_over: Text
    newer_issue: Text
    all_issues: Text
    older_issue: Text
    pager_label: Text
    intro: Text
    follow: Text
    follow_or_email: Text
    feed_link: Text
    so_far: Text
    empty: Text
    more: Text
    description: Text
    articles_only: Count


class ArticleWords(_Words):
    kicker: Text
    account: Text
    our_guide: Text
    interpretation: Text
    description: Text
    feed_summary: Text
    links: Text


class ListingWords(_Words):
    empty: Text


class SearchWords(_Words):
    title: Text
    description: Text
    heading: Text
    label: Text
    button: Text
    browse: Text
    every_guide: Text


class NotFoundWords(_Words):
    title: Text
    description: Text
    heading: Text
    text: Text
    all_guides: Text
    digest: Text


class MailWords(_Words):
    heading: Text
    our_guide: Text
    reason: Text
    unsubscribe: Text
    unsubscribe_at: Text
    read_article: Text


class Catalogue(_Words):
    """The site's words in one language; `language` is the tag pages declare (<html lang>)."""

    language: str = DEFAULT_LANGUAGE
    dates: Dates
    lists: Lists
    counts: Counts
    chrome: Chrome
    pager: Pager
    cards: Cards
    guide: GuideWords
    index: IndexWords
    topics: TopicWords
    hub: HubWords
    companies: CompanyWords
    digest: DigestWords
    article: ArticleWords
    listing: ListingWords
    search: SearchWords
    not_found: NotFoundWords
    mail: MailWords

    def day(self, value: date | str | None) -> str:
        """Write a date for people: "13 October 2026" (an ISO date string is read first)."""
        if value is None or value == "":
            return ""
        day = date.fromisoformat(value) if isinstance(value, str) else value
        month = self.dates.months[day.month - 1]
        return self.dates.day.format(day=day.day, month=month, year=day.year)

    def week(self, first: date, last: date) -> str:
        """Write the days of a week: "30 Nov – 6 Dec 2026", "1–7 Dec 2026"."""
        short = self.dates.short_months
        if (first.year, first.month) == (last.year, last.month):
            pattern = self.dates.week_in_month
        elif first.year == last.year:
            pattern = self.dates.week_in_year
        else:
            pattern = self.dates.week_across_years
        return pattern.format(
            first=first.day,
            last=last.day,
            month=short[last.month - 1],
            first_month=short[first.month - 1],
            last_month=short[last.month - 1],
            year=last.year,
            first_year=first.year,
            last_year=last.year,
        )

    def issue(self, number: int, first: date, last: date) -> str:
        """Name a digest issue: "Issue 12 · 30 Nov – 6 Dec 2026"."""
        return self.digest.issue.format(number=number, week=self.week(first, last))


def packaged_catalogues() -> Path:
    """Return the folder of the shipped catalogues (package data)."""
    return Path(str(resources.files("generator").joinpath("templates", FOLDER)))


def language_problem(tag: str) -> str | None:
    """Say why tag cannot name a language ("en", "de", "pt-BR"), or return None."""
    if not LANGUAGE_TAG.fullmatch(tag):
        return f"{tag!r} is not a language tag such as en, de or pt-BR"
    return None


def catalogue_names(tag: str) -> list[str]:
    """Return the files that may hold a language, most specific first (pt-BR, then pt)."""
    parts = tag.split("-")
    return [f"{'-'.join(parts[:n])}.toml" for n in range(len(parts), 0, -1)]


def read_catalogue(text: str, path: Path | str, language: str) -> Catalogue:
    """Validate a catalogue's text; a ConfigError names the file and the key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", path=path, rule="catalogue") from exc
    if not isinstance(data, dict):
        raise ConfigError("not a table of words", path=path, rule="catalogue")
    try:
        words = Catalogue.model_validate({**data, "language": language})
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"])
        raise ConfigError(str(first["msg"]), path=path, field=key, rule="catalogue") from exc
    problem = _placeholder_problem(words)
    if problem:
        raise ConfigError(problem[1], path=path, field=problem[0], rule="catalogue")
    return words


def _strings(data: dict, prefix: str = "") -> dict[str, str]:
    found: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            found.update(_strings(value, f"{prefix}{key}."))
        elif isinstance(value, str):
            found[f"{prefix}{key}"] = value
    return found


def _placeholders(text: str) -> set[str] | None:
    """Return the {names} of a text, or None when it holds anything but plain names."""
    names = set()
    try:
        for _, name, spec, conversion in string.Formatter().parse(text):
            if name is None:
                continue
            if spec or conversion or not PLACEHOLDER.fullmatch(name):
                return None
            names.add(name)
    except ValueError:
        return None
    return names


def _placeholder_problem(words: Catalogue) -> tuple[str, str] | None:
    """Return (key, why) for the first text whose {placeholders} are not the English ones."""
    reference = _strings(english().model_dump()) if words is not _ENGLISH.get("words") else None
    for key, text in _strings(words.model_dump()).items():
        if key == "language":
            continue
        names = _placeholders(text)
        if names is None:
            return key, f"{text!r}: write placeholders as plain {{names}}, nothing else"
        if reference is not None and names != _placeholders(reference[key]):
            wanted = ", ".join(f"{{{n}}}" for n in sorted(_placeholders(reference[key]) or ()))
            return key, f"{text!r} must use the placeholders {wanted or 'none'}, as en.toml does"
    return None


_ENGLISH: dict[str, Catalogue] = {}


def english() -> Catalogue:
    """Return the shipped English catalogue: the default, and every translation's reference."""
    words = _ENGLISH.get("words")
    if words is None:
        path = packaged_catalogues() / f"{DEFAULT_LANGUAGE}.toml"
        words = Catalogue.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
        _ENGLISH["words"] = words
        problem = _placeholder_problem(words)
        if problem:  # a packaging mistake, caught by the tests
            raise ConfigError(problem[1], path=path, field=problem[0], rule="catalogue")
    return words


@lru_cache(maxsize=16)
def parse_catalogue(text: str, path: str, language: str) -> Catalogue:
    """Validate a catalogue's text once per process (the same text: the same words)."""
    return read_catalogue(text, path, language)


def _packaged(name: str) -> tuple[str, str] | None:
    path = packaged_catalogues() / name
    return (path.read_text(encoding="utf-8"), str(path)) if path.is_file() else None


def catalogue_reader(templates_dir: Path):
    """Return a read(name) for load_catalogue: a root's templates/catalogue/ first, then shipped.

    A root's catalogue that leads out of the root through a symbolic link is refused.
    """
    own = templates_dir / FOLDER

    def read(name: str) -> tuple[str, str] | None:
        path = own / name
        if not (path.is_file() or path.is_symlink()):
            return _packaged(name)
        return read_root_text(path, templates_dir.parent, "catalogue"), str(path)

    return read


def load_catalogue(language: str = DEFAULT_LANGUAGE, read=None) -> Catalogue:
    """Return the words of a language from the most specific catalogue for its tag.

    read(name) returns a catalogue file's (text, path), or None when there is none; by
    default the shipped catalogues are read.
    """
    problem = language_problem(language)
    if problem:
        raise ConfigError(problem, field="site.language", rule="catalogue")
    for name in catalogue_names(language):
        found = (read or _packaged)(f"{name}")
        if found is not None:
            text, path = found
            if len(text) > MAX_FILE:
                raise ConfigError("is larger than 256 KB", path=path, rule="catalogue")
            return parse_catalogue(text, path, language)
    wanted = f"templates/{FOLDER}/{catalogue_names(language)[0]}"
    raise ConfigError(
        f"there are no words for {language!r}: add {wanted}, a translated copy of the shipped "
        "en.toml, or set [site] language to one that exists",
        field="site.language",
        rule="catalogue",
    )
