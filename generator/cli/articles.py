"""The `articles` commands: suggest, new and list career articles over several write-ups."""

from __future__ import annotations

import json

import click

from generator.cli.common import Context, fail, paint, pass_ctx, warn
from generator.cli.root import cli
from generator.core import PrepguideError


@cli.group()
def articles() -> None:
    """Career articles: read several write-ups side by side."""


@articles.command("suggest")
@click.option("--json", "as_json", is_flag=True, help="Print the suggestions as JSON.")
@pass_ctx
def articles_suggest(ctx: Context, as_json: bool) -> None:
    """Propose articles: topics with 3+ write-ups from 2+ companies, most scale figures first."""
    from generator.guides.articles import suggest_articles

    found = suggest_articles(ctx.project)
    if as_json:
        click.echo(json.dumps({"suggestions": [s.as_json() for s in found]}, indent=2))
        return
    if not found:
        click.echo("no topic has 3 write-ups from 2 companies yet")
        return
    for item in found:
        mark = "  (article exists)" if item.exists else ""
        click.echo(f"{paint(item.slug, 'id')}  {item.title}{mark}")
        click.echo(f"  sources: {', '.join(item.sources)}")
        if not item.exists:
            click.echo(
                f"  prepguide articles new {item.slug} --title {json.dumps(item.title)} "
                f"--topic {json.dumps(item.tag)}"
            )


@articles.command("new")
@click.argument("slug", help="The article's slug (a-z, 0-9 and '-', as record ids).")
@click.option("--title", required=True, help="The article's title.")
@click.option("--source", "source_ids", multiple=True, help="A record id (repeat: 2 or more).")
@click.option("--topic", default=None, help="Choose the sources by this technique or stack tag.")
@click.option(
    "--max",
    "max_sources",
    type=click.IntRange(2, 6),
    default=4,
    show_default=True,
    help="With --topic: at most this many sources, most scale figures first.",
)
@pass_ctx
def articles_new(
    ctx: Context,
    slug: str,
    title: str,
    source_ids: tuple[str, ...],
    topic: str | None,
    max_sources: int,
) -> None:
    """Write guides/articles/SLUG.yaml (never overwrites); draft it with `generate article:SLUG`."""
    from generator.guides.articles import new_article

    if bool(source_ids) == bool(topic):
        raise click.UsageError("give --source ID (two or more) or --topic TAG, not both")
    try:
        article = new_article(
            ctx.project, slug, title, source_ids=source_ids, topic=topic, max_sources=max_sources
        )
    except PrepguideError as exc:
        fail(str(exc))
    click.echo(f"{paint('wrote', 'success')} {article.path}")
    click.echo(f"next: prepguide generate {article.id}")


@articles.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the articles as JSON.")
@pass_ctx
def articles_list(ctx: Context, as_json: bool) -> None:
    """List the article files with their sources and the status of their drafts."""
    from generator.guides.articles import list_articles

    rows = list_articles(ctx.project)
    if as_json:
        click.echo(json.dumps({"articles": [row.as_json() for row in rows]}, indent=2))
        return
    if not rows:
        click.echo("no articles yet; see `prepguide articles suggest`")
        return
    width = max(30, *(len(row.slug) + 8 for row in rows))
    for row in rows:
        click.echo(f"{'article:' + row.slug:{width}} {row.status:12} {row.title}")
        if row.sources:
            click.echo(f"  sources: {', '.join(row.sources)}")
        if row.problem:
            warn(f"article:{row.slug}: {row.problem}")


def article_work(project, ids: tuple[str, ...]) -> tuple[tuple[str, ...], list[str] | None, bool]:
    """Split `generate` ids into guide ids, article slugs ([]: all, None: none), articles only."""
    from generator.guides.articles import article_files
    from generator.guides.store import article_slug

    slugs = [slug for slug in (article_slug(i) for i in ids) if slug is not None]
    guides = tuple(i for i in ids if article_slug(i) is None)
    if ids:
        return guides, (slugs or None), bool(slugs) and not guides
    return ids, ([] if article_files(project).slugs() else None), False


def run_article_generate(
    project, slugs: list[str], backend, model, concurrency, force, dry_run, no_cache
) -> bool:
    """Draft articles and print the outcome; return True when all went well."""
    from generator.drafting.article_run import generate_articles, plan_only

    if dry_run:
        planned = plan_only(project, slugs or None, backend, model, force)
        for problem_id, problem in planned.problems.items():
            fail_line(problem_id, problem)
        for item in planned.plan:
            click.echo(f"  {item.action:8} {item.job.key} ({item.reason})")
        return not planned.problems
    try:
        generation = generate_articles(
            project,
            slugs or None,
            backend,
            model,
            force=force,
            no_cache=no_cache,
            concurrency=concurrency,
        )
    except PrepguideError as exc:
        fail(str(exc))
    report = generation.report
    for key, reason in sorted(report.failed.items()):
        fail_line(key, reason)
    failures = len(report.failed)
    click.echo(
        f"articles ({generation.backend}"
        + (f", model {generation.model}" if generation.model else "")
        + f"): generated {len(report.generated)}, skipped {len(report.skipped)} unchanged, "
        + (paint(f"failed {failures}", "error") if failures else "failed 0")
        + (
            f"; tokens: {report.prompt_tokens} prompt, {report.completion_tokens} completion"
            if report.prompt_tokens or report.completion_tokens
            else ""
        )
    )
    if report.aborted:
        fail(f"run stopped: {report.aborted}")
    return not failures


def fail_line(what: str, reason: str) -> None:
    """Print one article that could not be drafted."""
    from generator.cli.common import failed

    failed(what, reason)


def run_article_revise(project, article_id: str, note, backend, model, no_cache) -> bool:
    """Redraft one article from a note (or its rejection note), audit it, print its findings."""
    from generator.core import ConfigError
    from generator.drafting.article_run import revise_article
    from generator.review import read_state, record_revision
    from generator.review.articles import article_view

    view = article_view(project)
    slug = article_id[len("article:") :]
    if not (note or "").strip():
        try:
            state = read_state(view, slug)
        except PrepguideError as exc:
            fail(str(exc), 1)
        if state is None or state.status != "rejected" or not state.note:
            fail(
                f"{article_id} has no rejection note to revise from; pass --note, or reject it "
                f"first with `prepguide review reject {article_id} --by NAME --note ...`",
                2,
            )
        note = state.note
    try:
        doc, _ = revise_article(project, slug, note or "", backend, model, no_cache=no_cache)
        record_revision(view, slug, " ".join((note or "").split()))
    except ConfigError as exc:
        fail(str(exc), 2)
    except PrepguideError as exc:
        fail(str(exc), 1)
    errors = sum(1 for finding in doc.meta.findings if finding.severity == "error")
    click.echo(
        f"{paint('revised', 'success')} {article_id}: new draft revision after "
        f"{doc.meta.provenance.rounds} round(s), {errors} error(s); "
        f"`prepguide review diff {article_id}` shows what changed"
    )
    for finding in doc.meta.findings:
        click.echo(f"  {finding.severity:7} {finding.rule} [{finding.section}]: {finding.message}")
    return True
