"""Building a week's issue from the database and freezing it as the mail that will be sent."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from email.utils import formataddr
from pathlib import Path
from urllib.parse import urlsplit

from generator.core.catalogue import catalogue_reader, load_catalogue
from generator.core.clock import now
from generator.core.confine import link_problem, read_root_text
from generator.core.errors import ConfigError, PrepguideError
from generator.core.fsio import atomic_write_bytes
from generator.digest import journal
from generator.digest.addresses import AddressError, parse_mailbox
from generator.digest.issue import DigestArticle, DigestIssue, Week, build_issue
from generator.digest.mail import (
    MAIL_TEMPLATES,
    MailTemplates,
    frozen_message,
    header_problem,
    packaged_mail_templates,
)
from generator.guides.project import Project
from generator.review import live_version, read_state
from generator.review.articles import article_view
from generator.sources.records import Source

LIVE_STATUSES = ("approved", "published")


def ledger_path(project: Project) -> Path:
    return project.workspace.digest_dir / "sends.jsonl"


def suppression_path(project: Project) -> Path:
    return project.workspace.digest_dir / "suppressions.jsonl"


def issue_path(project: Project, week: Week) -> Path:
    return project.workspace.digest_dir / f"{week.label}.eml"


def published_records(project: Project) -> tuple[list[tuple[Source, date]], list[str]]:
    """Return (record, first-published date) of every live guide, and unreadable guides."""
    found, problems = [], []
    for guide_id in project.guides.ids():
        try:
            state = read_state(project, guide_id)
        except PrepguideError as exc:
            problems.append(str(exc))
            continue
        if state is None or state.status not in LIVE_STATUSES or state.live is None:
            continue
        source = project.source(guide_id)
        if state.first_published is not None and source is not None:
            found.append((source, state.first_published))
    return found, problems


def published_articles(project: Project) -> list[tuple[DigestArticle, date]]:
    """Return each live article with the day it was first published."""
    view = article_view(project)
    base = project.settings.site.base_url.rstrip("/")
    found = []
    for slug in view.guides.ids():
        try:
            state = read_state(view, slug)
            live = live_version(view, slug, state) if state is not None else None
        except PrepguideError:
            continue
        if live is None or state is None or state.status not in LIVE_STATUSES:
            continue
        if state.first_published is None:
            continue
        article = DigestArticle(
            slug=slug,
            title=live.doc.meta.title,
            companies=live.doc.meta.company,
            url=f"{base}/articles/{slug}/",
        )
        found.append((article, state.first_published))
    return found


def guide_url(project: Project):
    """Return a function giving the absolute URL of a guide's page."""
    base = project.settings.site.base_url.rstrip("/")
    return lambda guide_id: f"{base}/guides/{guide_id}/"


def week_issue(project: Project, week: Week) -> DigestIssue:
    """Return the issue of a week, built only from records and review state."""
    published, _ = published_records(project)
    return build_issue(
        week,
        published,
        site_name=project.settings.site.name,
        guide_url=guide_url(project),
        articles=published_articles(project),
        words=load_catalogue(
            project.settings.site.language, catalogue_reader(project.workspace.templates_dir)
        ),
    )


@dataclass(frozen=True)
class FrozenIssue:
    issue: DigestIssue
    path: Path | None
    outcome: str  # "written", "kept" (sending has begun) or "empty"


def _mail_settings(project: Project) -> tuple[str, str, str]:
    settings = project.settings.digest
    missing = [key for key in ("sender", "footer", "unsubscribe_url") if not getattr(settings, key)]
    if missing:
        raise ConfigError(
            f"the digest mail needs [digest] {', '.join(missing)} in prepguide.toml "
            "(sender address, postal/contact footer, https unsubscribe endpoint)",
            path=project.workspace.config_path,
            field=f"digest.{missing[0]}",
        )
    site_name = project.settings.site.name
    problem = header_problem(site_name)
    if problem:
        raise ConfigError(
            f"the site name is used in the digest's Subject and List-Id headers and {problem}; "
            "write it on one line without encoded words",
            path=project.workspace.config_path,
            field="site.name",
        )
    try:
        mailbox = parse_mailbox(settings.sender)
    except AddressError as exc:
        raise ConfigError(
            str(exc), path=project.workspace.config_path, field="digest.sender"
        ) from None
    sender = formataddr((mailbox.display_name, mailbox.address))
    return sender, settings.footer, settings.unsubscribe_url


def mail_templates(project: Project) -> MailTemplates:
    """Read the root's templates/digest/email.txt and email.html over the shipped ones."""
    texts = packaged_mail_templates()
    origins = {}
    root = project.workspace.root
    folder = project.workspace.templates_dir / "digest"
    problem = link_problem(folder, root)
    if problem:
        raise ConfigError(problem, path=folder, rule="templates.symlink")
    for name in MAIL_TEMPLATES:
        path = folder / name
        if path.exists() or path.is_symlink():
            texts[name] = read_root_text(path, root, "templates")
            origins[name] = str(path)
    return MailTemplates(tuple(sorted(texts.items())), tuple(sorted(origins.items())))


def freeze_issue(project: Project, week: Week) -> FrozenIssue:
    """Write digest/<week>.eml, unless the week is empty or sending has already begun."""
    issue = week_issue(project, week)
    if issue.empty:
        return FrozenIssue(issue, None, "empty")
    sender, footer, unsubscribe_url = _mail_settings(project)
    path = issue_path(project, week)
    if path.exists() and any(journal.rows_for(ledger_path(project), week=week.label)):
        return FrozenIssue(issue, path, "kept")
    host = urlsplit(project.settings.site.base_url).hostname or "localhost"
    message = frozen_message(
        issue,
        sender=sender,
        footer=footer,
        unsubscribe_url=unsubscribe_url,
        list_id=f"{project.settings.site.name} weekly <weekly.{host}>",
        moment=now(),
        templates=mail_templates(project),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, message.as_bytes())
    return FrozenIssue(issue, path, "written")
