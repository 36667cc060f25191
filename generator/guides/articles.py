"""Career articles: the article file (guides/articles/<slug>.yaml), its sources and suggestions.

An article reads several write-ups side by side. Its file names the title and the sources, as
record ids or as a query over the database (a tag, a company or a technique, with a cap and an
order), resolved when the article is drafted. Its draft lives beside it in <slug>.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from generator.core.errors import GuideError
from generator.core.fsio import atomic_write_text
from generator.core.names import id_problem, is_valid_id, normalize_tag
from generator.guides.store import (
    ARTICLES_DIR,
    PREFIX,
    GuideStore,
    article_store,
    visible_names,
)
from generator.sources.records import Source
from generator.sources.topics import compute_topics
from generator.sources.yamlread import load_yaml

if TYPE_CHECKING:
    from generator.guides.project import Project

MIN_SOURCES = 2
MAX_SOURCES = 6
DEFAULT_MAX = 4
# What `articles suggest` asks of a topic: as many write-ups as a hub, from several companies.
SUGGEST_MIN_SOURCES = 3
SUGGEST_MIN_COMPANIES = 2
MAX_ARTICLE_BYTES = 100_000

Order = Literal["scale", "newest", "oldest"]


class SourceQuery(BaseModel):
    """Sources chosen from the database when the article is drafted."""

    model_config = ConfigDict(extra="forbid")

    tag: str | None = Field(None, description="A technique or stack tag, matched as hubs do.")
    company: str | None = None
    technique: str | None = Field(None, description="A technique tag only.")
    max: int = Field(DEFAULT_MAX, ge=MIN_SOURCES, le=MAX_SOURCES)
    order: Order = "scale"

    @model_validator(mode="after")
    def _something(self) -> SourceQuery:
        if not any((self.tag, self.company, self.technique)):
            raise ValueError("a source query needs a tag, a company or a technique")
        return self

    def describe(self) -> str:
        """Return the query in words, for listings and provenance."""
        parts = [
            f"{name} {value!r}"
            for name, value in (
                ("tag", self.tag),
                ("company", self.company),
                ("technique", self.technique),
            )
            if value
        ]
        return f"{' and '.join(parts)}, at most {self.max}, by {self.order}"


class ArticleSpec(BaseModel):
    """The article file: what an editor asks for."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1, max_length=200)
    sources: list[str] | SourceQuery
    angle: str | None = Field(None, max_length=120)
    audience: str | None = Field(None, max_length=200)
    status: Literal["active", "paused"] = "active"

    @field_validator("title", "angle", "audience")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        if value is None:
            return None
        text = " ".join(value.split())
        if not text:
            raise ValueError("must not be blank")
        return text

    @field_validator("sources")
    @classmethod
    def _ids(cls, value: list[str] | SourceQuery) -> list[str] | SourceQuery:
        if isinstance(value, SourceQuery):
            return value
        if not MIN_SOURCES <= len(value) <= MAX_SOURCES:
            raise ValueError(f"an article reads {MIN_SOURCES} to {MAX_SOURCES} sources")
        for item in value:
            problem = id_problem(item)
            if problem:
                raise ValueError(f"{item!r} is not a record id: {problem}")
        if len(set(value)) != len(value):
            raise ValueError("a source is listed twice")
        return value


@dataclass(frozen=True)
class Article:
    """One article file, read and validated."""

    slug: str
    spec: ArticleSpec
    path: Path

    @property
    def id(self) -> str:
        return f"{PREFIX}{self.slug}"


def check_slug(slug: str) -> str:
    """Return a slug that follows the record id rule; raise GuideError otherwise."""
    problem = id_problem(slug)
    if problem:
        raise GuideError(
            f"{slug!r} is not an article slug: {problem}", record_id=slug, rule="article.slug"
        )
    return slug


class ArticleFiles:
    """The article files of a workspace: guides/articles/<slug>.yaml."""

    def __init__(self, guides_dir: Path) -> None:
        self.dir = guides_dir / ARTICLES_DIR

    def path(self, slug: str) -> Path:
        return self.dir / f"{check_slug(slug)}.yaml"

    def slugs(self) -> list[str]:
        """List the slugs of every article file, sorted."""
        names = visible_names(self.dir)
        return sorted(n[:-5] for n in names if n.endswith(".yaml") and is_valid_id(n[:-5]))

    def read(self, slug: str) -> Article | None:
        """Read and validate one article file; None when it does not exist."""
        path = self.path(slug)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        if len(raw) > MAX_ARTICLE_BYTES:
            raise GuideError("is too large for an article file", path=path, rule="article.file")
        try:
            data = load_yaml(raw.decode("utf-8"))
        except (UnicodeDecodeError, yaml.YAMLError) as exc:
            raise GuideError(
                f"is not readable YAML: {exc}", path=path, rule="article.file"
            ) from exc
        if not isinstance(data, dict):
            raise GuideError("must be a mapping of fields", path=path, rule="article.file")
        try:
            spec = ArticleSpec.model_validate(data)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            field = ".".join(str(part) for part in first["loc"])
            raise GuideError(first["msg"], path=path, field=field, rule="article.file") from exc
        return Article(slug, spec, path)

    def read_all(self) -> tuple[list[Article], list[GuideError]]:
        """Read every article file; return the valid ones and the problems of the others."""
        articles, problems = [], []
        for slug in self.slugs():
            try:
                article = self.read(slug)
            except GuideError as exc:
                problems.append(exc)
                continue
            if article is not None:
                articles.append(article)
        return articles, problems

    def create(self, slug: str, spec: ArticleSpec) -> Article:
        """Write a new article file; refuse to overwrite one that exists."""
        path = self.path(slug)
        if path.exists() or path.is_symlink():
            raise GuideError(
                "exists already; an article file is never overwritten: edit it, or pick "
                "another slug",
                path=path,
                record_id=slug,
                rule="article.exists",
            )
        data = spec.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
        data["title"] = spec.title
        if isinstance(spec.sources, SourceQuery):
            data["sources"] = spec.sources.model_dump(mode="json", exclude_none=True)
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
        atomic_write_text(path, text)
        return Article(slug, spec, path)

    def store(self) -> GuideStore:
        """Return the store of the articles' drafts, review state and history."""
        return article_store(self.dir.parent)


def _scale_first(source: Source) -> tuple:
    published = source.published.toordinal() if source.published else 0
    return (-len(source.scale), -published, source.key)


def _newest(source: Source) -> tuple:
    return (-(source.published.toordinal() if source.published else 0), source.key)


def _oldest(source: Source) -> tuple:
    return (source.published.toordinal() if source.published else 10**7, source.key)


ORDERS = {"scale": _scale_first, "newest": _newest, "oldest": _oldest}


def query_sources(query: SourceQuery, records: list[Source]) -> list[Source]:
    """Return the records a query selects, in its order and within its cap."""
    tag = normalize_tag(query.tag) if query.tag else None
    technique = normalize_tag(query.technique) if query.technique else None
    company = query.company.casefold().strip() if query.company else None
    chosen = []
    for source in records:
        if tag and tag not in {normalize_tag(t) for t in source.tags}:
            continue
        if technique and technique not in {normalize_tag(t) for t in source.techniques}:
            continue
        if company and source.company.casefold().strip() != company:
            continue
        chosen.append(source)
    return sorted(chosen, key=ORDERS[query.order])[: query.max]


def resolve_sources(article: Article, by_id: dict[str, Source]) -> tuple[list[Source], list[str]]:
    """Return the article's records in order, and the listed ids that name no valid record."""
    spec = article.spec
    if isinstance(spec.sources, SourceQuery):
        return query_sources(spec.sources, list(by_id.values())), []
    found = [by_id[key] for key in spec.sources if key in by_id]
    return found, [key for key in spec.sources if key not in by_id]


@dataclass(frozen=True)
class Suggestion:
    """An article the database could support: a topic, its title and the sources to read."""

    slug: str
    title: str
    tag: str
    sources: tuple[str, ...]
    companies: tuple[str, ...]
    exists: bool

    def as_json(self) -> dict:
        return {
            "slug": self.slug,
            "title": self.title,
            "tag": self.tag,
            "sources": list(self.sources),
            "companies": list(self.companies),
            "exists": self.exists,
        }


def suggest(records: list[Source], existing: set[str], cap: int = DEFAULT_MAX) -> list[Suggestion]:
    """Propose an article per topic with enough write-ups from enough companies."""
    suggestions = []
    for topic in compute_topics(records, SUGGEST_MIN_SOURCES):
        if len(topic.companies) < SUGGEST_MIN_COMPANIES or not topic.slug:
            continue
        chosen = sorted(topic.sources, key=_scale_first)[:cap]
        noun = "case study" if len(chosen) == 1 else "case studies"
        suggestions.append(
            Suggestion(
                slug=topic.slug,
                title=f"How teams scaled {topic.name}: {len(chosen)} real {noun}",
                tag=topic.name,
                sources=tuple(s.key for s in chosen),
                companies=tuple(sorted({s.company for s in chosen})),
                exists=topic.slug in existing,
            )
        )
    return sorted(suggestions, key=lambda s: (-len(s.sources), s.slug))


def article_files(project: Project) -> ArticleFiles:
    """Return the article files of a project."""
    return ArticleFiles(project.workspace.guides_dir)


def suggest_articles(project: Project) -> list[Suggestion]:
    """Propose articles from the database, marking those an article file already has."""
    return suggest(project.sources.sources, set(article_files(project).slugs()))


def new_article(
    project: Project,
    slug: str,
    title: str,
    *,
    source_ids: Sequence[str] = (),
    topic: str | None = None,
    max_sources: int = DEFAULT_MAX,
) -> Article:
    """Write guides/articles/<slug>.yaml from ids or a topic; never overwrite a file."""
    check_slug(slug)
    if bool(source_ids) == bool(topic):
        raise GuideError(
            "name the sources with --source ID (two or more) or with --topic TAG, not both",
            record_id=slug,
            rule="article.sources",
        )
    try:
        sources: list[str] | SourceQuery = (
            list(source_ids) if source_ids else SourceQuery(tag=topic, max=max_sources)
        )
        spec = ArticleSpec(title=title, sources=sources)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        field = ".".join(str(part) for part in first["loc"])
        raise GuideError(first["msg"], field=field, record_id=slug, rule="article.file") from exc
    by_id = project.sources.by_id()
    article = Article(slug, spec, article_files(project).path(slug))
    found, missing = resolve_sources(article, by_id)
    if missing:
        raise GuideError(
            f"no valid record for {', '.join(missing)}; check the ids with `prepguide sources "
            "check`",
            record_id=slug,
            rule="article.sources",
        )
    if len(found) < MIN_SOURCES:
        raise GuideError(
            f"the topic {topic!r} selects {len(found)} write-up(s); an article reads at least "
            f"{MIN_SOURCES} (see `prepguide articles suggest`)",
            record_id=slug,
            rule="article.sources",
        )
    return article_files(project).create(slug, spec)


@dataclass(frozen=True)
class ArticleRow:
    """One article for `articles list`: its file, its resolved sources and its draft."""

    slug: str
    title: str
    sources: tuple[str, ...]
    query: str | None
    status: str
    problem: str | None = None

    def as_json(self) -> dict:
        return {
            "id": f"{PREFIX}{self.slug}",
            "slug": self.slug,
            "title": self.title,
            "sources": list(self.sources),
            "query": self.query,
            "status": self.status,
            "problem": self.problem,
        }


def list_articles(project: Project) -> list[ArticleRow]:
    """List every article file with its sources and the status of its draft."""
    files = article_files(project)
    store = files.store()
    by_id = project.sources.by_id()
    articles, problems = files.read_all()
    rows = []
    for article in articles:
        found, missing = resolve_sources(article, by_id)
        query = article.spec.sources
        problem = f"no valid record for {', '.join(missing)}" if missing else None
        try:
            doc = store.read(article.slug)
            status = doc.meta.status if doc is not None else "not drafted"
        except GuideError as exc:
            status, problem = "unreadable", exc.message
        rows.append(
            ArticleRow(
                slug=article.slug,
                title=article.spec.title,
                sources=tuple(s.key for s in found),
                query=query.describe() if isinstance(query, SourceQuery) else None,
                status=status,
                problem=problem,
            )
        )
    for exc in problems:
        slug = Path(exc.path or "").stem
        rows.append(ArticleRow(slug, "", (), None, "invalid", str(exc)))
    return sorted(rows, key=lambda row: row.slug)


@dataclass(frozen=True)
class ArticleJob:
    """An article with its records resolved, as a drafter and the checks see it."""

    article: Article
    sources: tuple[Source, ...]

    @property
    def key(self) -> str:
        """The article's id in call logs, errors and review: `article:SLUG`."""
        return self.article.id

    @property
    def slug(self) -> str:
        return self.article.slug

    @property
    def query(self) -> str | None:
        sources = self.article.spec.sources
        return sources.describe() if isinstance(sources, SourceQuery) else None

    @property
    def source_text(self) -> str:
        return "\n".join(source.source_text for source in self.sources)


def article_jobs(
    project: Project, slugs: Sequence[str] | None = None
) -> tuple[list[ArticleJob], dict[str, str]]:
    """Resolve the named (or every active) article; return the jobs and why others cannot run."""
    files = article_files(project)
    by_id = project.sources.by_id()
    jobs: list[ArticleJob] = []
    problems: dict[str, str] = {}
    for slug in slugs if slugs is not None else files.slugs():
        key = f"{PREFIX}{slug}"
        try:
            article = files.read(slug)
        except GuideError as exc:
            problems[key] = str(exc)
            continue
        if article is None:
            problems[key] = f"no article file {files.path(slug)}; create it with `articles new`"
            continue
        if slugs is None and article.spec.status == "paused":
            continue
        found, missing = resolve_sources(article, by_id)
        if missing:
            problems[key] = f"no valid record for {', '.join(missing)}"
        elif len(found) < MIN_SOURCES:
            problems[key] = f"its sources resolve to {len(found)} record(s); it needs {MIN_SOURCES}"
        else:
            jobs.append(ArticleJob(article, tuple(found)))
    return jobs, problems
