"""The `batch` commands and `generate --batch`: submit, watch, collect and cancel batches."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli.common import (
    Context,
    counted,
    fail,
    failed,
    paint,
    pass_ctx,
    report_source_problems,
    warn,
)
from generator.cli.root import cli
from generator.core import plural
from generator.guides import Project

MODEL_HELP = "LLM model name (default: PREPGUIDE_MODEL, then [llm] model)."
MAX_REQUESTS_HELP = "Requests in one batch file at most (default: 50000, the API limit)."
MAX_BYTES_HELP = "Bytes in one batch file at most (default: 200 MiB, the API limit)."


def _drafter(project: Project, model: str | None, *, need_key: bool = True, cache: bool = True):
    from generator.drafting import make_openai_drafter

    drafter = make_openai_drafter(project, model, need_key=need_key, cache=cache)
    for notice in drafter.notices:
        warn(str(notice))
    return drafter


def _article_drafter(
    project: Project, model: str | None, *, cache: bool = True, need_key: bool = True
):
    """Return the article drafter (its own schema and prompts) for article batches."""
    from generator.drafting.backends import make_article_drafter

    return make_article_drafter(project, "openai", model, cache=cache, need_key=need_key)


def _articles_open(project: Project) -> bool:
    from generator.batch import run as batch_run

    return any(r.kind == "article" for r in batch_run.open_records(project, held=True))


def _articles_exported(project: Project) -> bool:
    from generator.batch import BatchStore

    records = BatchStore(project.workspace.state_dir).load_all()
    return any(r.kind == "article" and r.state == "exported" for r in records)


def _limits(max_requests: int | None, max_bytes: int | None):
    from generator.batch import Limits

    limits = Limits()
    limits.max_requests = max_requests or limits.max_requests
    limits.max_bytes = max_bytes or limits.max_bytes
    return limits


def _counts(record) -> str:
    counts = record.counts or {}
    total = counts.get("total", len(record.requests))
    return f"{counts.get('completed', 0)}/{total} done, {counts.get('failed', 0)} failed"


def _submitted(record) -> None:
    click.echo(
        f"submitted batch {record.batch_id} "
        f"({plural(len(record.requests), 'request')}, {record.id})"
    )


def print_collected(record, report) -> bool:
    """Print what collecting one batch did; return True when nothing failed."""
    click.echo(
        f"{paint('collected', 'success')} {record.batch_id} ({report.status}): "
        f"{len(report.written)} written, {counted(len(report.failed), 'failed')}, "
        f"{len(report.reasked)} re-asked, "
        f"{len(report.requeued)} requeued, {len(report.stale)} stale, {len(report.kept)} kept"
    )
    if report.retried:
        click.echo(f"{len(report.retried)} answered with HTTP 5xx or 429: asked again")
    for follow in report.follow_ups:
        click.echo(
            f"submitted follow-up batch {follow.batch_id} "
            f"({plural(len(follow.requests), 'request')})"
        )
    for notice in report.notices:
        warn(str(notice))
    for guide_id, reason in sorted(report.failed.items()):
        failed(guide_id, reason)
    for guide_id in report.kept:
        click.echo(f"  kept {guide_id}: edited by hand since submission", err=True)
    return not report.failed


def print_online(online) -> bool:
    """Print what finishing online did; return True when nothing failed."""
    if online is None:
        return True
    click.echo(
        f"{paint('finished online', 'success')}: {len(online.generated)} written, "
        f"{counted(len(online.failed), 'failed')}"
    )
    for guide_id, reason in sorted(online.failed.items()):
        failed(guide_id, reason)
    return not online.failed


def run_batch_generate(
    project: Project,
    ids: tuple[str, ...],
    model: str | None,
    force: bool,
    dry_run: bool,
    no_cache: bool,
    *,
    slugs: list[str] | None = None,
    guides: bool = True,
    batch: bool,
    wait: bool,
    batch_export: Path | None,
    batch_import: Path | None,
    finish_online: bool,
    poll: float,
    batch_max_requests: int | None,
    batch_max_bytes: int | None,
) -> bool:
    """Run one of generate --batch, --batch-export or --batch-import; True when all went well.

    With --batch, slugs names the articles to submit too ([]: every article, None: none), in
    batch files of their own; guides=False submits articles only.
    """
    from generator.batch import run as batch_run

    ok = report_source_problems(project) == 0
    limits = _limits(batch_max_requests, batch_max_bytes)
    if dry_run:
        fail("--dry-run prints the batch estimate without --batch; drop --batch", 2)
    if batch_export is not None:
        drafter = _drafter(project, model, need_key=False, cache=not no_cache)
        articles = None
        if slugs is not None:
            articles = _article_drafter(project, model, cache=not no_cache, need_key=False)
        records, cached = batch_run.run_with(
            drafter,
            _export(batch_run, project, drafter, ids, force, batch_export, guides, articles, slugs),
            articles,
        )
        for key, reason in sorted(cached.failed.items()):
            failed(key, reason)
        count = sum(record.count for record in records)
        click.echo(
            f"wrote {plural(count, 'request')} to {batch_export}; {len(cached.written)} from cache"
        )
        return ok and not cached.failed
    if batch_import is not None:
        drafter = _drafter(project, model, need_key=False)
        articles = None
        if _articles_exported(project):
            articles = _article_drafter(project, model, need_key=False)
        report = batch_run.run_with(
            drafter, batch_run.import_answers(project, drafter, batch_import, articles), articles
        )
        report.status = "imported"

        class _Named:
            batch_id = str(batch_import)

        return print_collected(_Named, report) and ok
    if guides:
        drafter = _drafter(project, model, cache=not no_cache)
        click.echo(f"backend: openai via batch (model {drafter.model})")
        started = batch_run.run_with(
            drafter,
            batch_run.start(project, drafter, list(ids) or None, force, limits, _submitted),
        )
        _print_started(started)
    if slugs is not None:
        articles = _article_drafter(project, model, cache=not no_cache)
        click.echo(f"articles: openai via batch (model {articles.model})")
        started = batch_run.run_with(
            articles,
            batch_run.start_articles(project, articles, slugs or None, force, limits, _submitted),
        )
        for key, reason in sorted(started.cached.failed.items()):
            failed(key, reason)
        ok = ok and not started.cached.failed
        _print_started(started)
    if not wait:
        return ok
    return wait_and_collect(project, model, limits, poll, finish_online) and ok


def _print_started(started) -> None:
    for notice in started.notices:
        warn(str(notice))
    for record in started.recovered:
        click.echo(
            f"recovered {record.id} from batch {record.batch_id} ({record.status}): its damaged "
            f"record was rebuilt from the provider's batch list "
            f"({plural(len(record.requests), 'request')})"
        )
    if started.cached.written:
        click.echo(f"{len(started.cached.written)} written from cached answers, nothing sent")
    if started.pending:
        click.echo(f"{len(started.pending)} already in a submitted batch; not sent again")
    if not (started.submitted or started.resumed):
        click.echo(f"nothing to submit ({started.skipped} unchanged)")


async def _export(batch_run, project, drafter, ids, force, target, guides, articles, slugs):
    return batch_run.export(
        project,
        drafter,
        list(ids) or None,
        force,
        target,
        guides=guides,
        articles=articles,
        slugs=slugs or None,
    )


def wait_and_collect(project, model, limits, poll: float, finish_online: bool) -> bool:
    """Poll with a progress line until every open batch ended and was collected."""
    from generator.batch import run as batch_run

    drafter = _drafter(project, model)
    articles = _article_drafter(project, model) if _articles_open(project) else None
    terminal = sys.stderr.isatty()

    def progress(records) -> None:
        line = "; ".join(
            f"{r.batch_id or r.id} {r.status or r.state}, {_counts(r)}" for r in records
        )
        line = line or "all done"
        click.echo(("\r" if terminal else "") + f"waiting: {line}", err=True, nl=not terminal)

    def collected(record, report) -> None:
        if terminal:
            click.echo("", err=True)
        print_collected(record, report)

    work = batch_run.wait_and_finish(
        project,
        drafter,
        limits,
        poll=poll,
        on_progress=progress,
        on_collected=collected,
        finish=finish_online,
        articles=articles,
    )
    results, online = batch_run.run_with(drafter, work, articles)
    return print_online(online) and all(not report.failed for _, report in results)


@cli.group()
def batch() -> None:
    """OpenAI batches: status, list, collect, cancel."""


@batch.command("list")
@pass_ctx
def list_batches(ctx: Context) -> None:
    """List the stored submissions, newest last."""
    from generator.batch import BatchStore

    store = BatchStore(ctx.project.workspace.state_dir)
    records = store.load_all()
    for notice in store.notices:
        warn(str(notice))
    for record in records:
        click.echo(
            f"{record.batch_id or '-':24} {record.id:32} {record.state:10} "
            f"{record.status or '-':11} {len(record.requests):>6} "
            f"{'request ' if len(record.requests) == 1 else 'requests'}  {record.created}"
        )
    if not records:
        click.echo("no batches")


@batch.command()
@click.argument(
    "name", required=False, help="A batch id or stored name (default: every open batch)."
)
@click.option("--model", envvar="PREPGUIDE_MODEL", default=None, help=MODEL_HELP)
@pass_ctx
def status(ctx: Context, name: str | None, model: str | None) -> None:
    """Show the progress of one batch, or of every open one (request_counts)."""
    from generator.batch import run as batch_run

    project = ctx.project
    records = batch_run.named_or_open(project, name)
    drafter = _drafter(project, model)
    batch_run.run_with(drafter, batch_run.refresh(project, drafter, records))
    for record in records:
        click.echo(f"{record.batch_id}  {record.status}  {_counts(record)}  ({record.state})")
    if not records:
        click.echo("no open batches")


@batch.command("collect")
@click.argument(
    "name", required=False, help="A batch id or stored name (default: every open batch)."
)
@click.option("--model", envvar="PREPGUIDE_MODEL", default=None, help=MODEL_HELP)
@click.option("--finish-online", is_flag=True, help="Re-ask rejected answers online.")
@click.option(
    "--batch-max-requests", type=click.IntRange(min=1), default=None, help=MAX_REQUESTS_HELP
)
@click.option("--batch-max-bytes", type=click.IntRange(min=1024), default=None, help=MAX_BYTES_HELP)
@pass_ctx
def collect_command(ctx: Context, name, model, finish_online, batch_max_requests, batch_max_bytes):
    """Collect ended batches: validate every answer and write the guides."""
    from generator.batch import run as batch_run

    project = ctx.project
    drafter = _drafter(project, model)
    articles = _article_drafter(project, model) if _articles_open(project) else None
    limits = _limits(batch_max_requests, batch_max_bytes)

    work = batch_run.collect_and_finish(
        project, drafter, limits, only=name, finish=finish_online, articles=articles
    )
    done, online = batch_run.run_with(drafter, work, articles)
    ok = print_online(online)
    for record, report in done:
        if report.status not in ("completed", "expired", "failed", "cancelled"):
            click.echo(f"{record.batch_id}: {report.status}, {_counts(record)}; not ended yet")
            continue
        ok = print_collected(record, report) and ok
    if not done:
        click.echo("no open batches")
    if not ok:
        sys.exit(1)


@batch.command()
@click.argument("name", help="A batch id or stored name (see `batch list`).")
@click.option("--model", envvar="PREPGUIDE_MODEL", default=None, help=MODEL_HELP)
@pass_ctx
def cancel(ctx: Context, name: str, model: str | None) -> None:
    """Cancel a batch; collect it afterwards to keep the answers it already has."""
    from generator.batch import run as batch_run

    drafter = _drafter(ctx.project, model)
    record = batch_run.run_with(drafter, batch_run.cancel(ctx.project, drafter, name))
    click.echo(f"{record.batch_id}: {record.status}")
