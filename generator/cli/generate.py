"""The `generate` and `logs` commands: drafting and the LLM call log."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.common import (
    Context,
    error,
    fail,
    generate_options,
    guide_ids,
    paint,
    pass_ctx,
    report_source_problems,
    tally,
    warn,
    with_options,
)
from generator.cli.root import cli
from generator.core import plural
from generator.drafting import Planned, plan
from generator.guides import Project

if TYPE_CHECKING:
    from generator.drafting import GenerateReport, Generation

batch_options = [
    click.option("--batch", is_flag=True, help="Submit the requests as OpenAI batches."),
    click.option("--wait", is_flag=True, help="With --batch: poll until done, then collect."),
    click.option(
        "--batch-export",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Write the requests (guides, then articles) to this JSONL file; send nothing.",
    ),
    click.option(
        "--batch-import",
        type=click.Path(dir_okay=False, exists=True, path_type=Path),
        help="Read the answers to an exported file (guides and articles) from this JSONL file.",
    ),
    click.option("--finish-online", is_flag=True, help="Re-ask rejected answers online."),
    click.option(
        "--poll",
        type=click.FloatRange(min=0),
        default=30.0,
        show_default=True,
        help="With --wait: seconds between status checks.",
    ),
    click.option(
        "--batch-max-requests",
        type=click.IntRange(min=1),
        default=None,
        help="Requests in one batch file at most (default: 50000, the API limit).",
    ),
    click.option(
        "--batch-max-bytes",
        type=click.IntRange(min=1024),
        default=None,
        help="Bytes in one batch file at most (default: 200 MiB, the API limit).",
    ),
]


def run_generate(
    project: Project,
    ids: tuple[str, ...],
    backend: str,
    model: str | None,
    concurrency: int | None,
    force: bool,
    dry_run: bool,
    no_cache: bool = False,
) -> bool:
    """Generate guides and print the outcome; return True when all went well."""
    if not force:
        ids, nothing_left = skip_waiting(project, ids)
        if nothing_left:
            return True
    if dry_run:
        return print_dry_run(project, plan.dry_run(project, ids, backend, model, force))
    # Imported only for a real run: a dry run loads neither the finisher nor the checks.
    from generator.drafting import run

    printer = GeneratePrinter(project)
    generation = run.generate(
        project,
        ids,
        backend,
        model,
        concurrency=concurrency,
        force=force,
        no_cache=no_cache,
        on_planned=printer.planned,
        on_progress=printer.progress,
    )
    return printer.finished(generation)


def skip_waiting(project: Project, ids: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """Leave out the guides waiting in a submitted batch (they are paid for), saying so.

    Return the ids to generate and whether none is left.
    """
    if not (project.workspace.state_dir / "batches").is_dir():
        return ids, False
    from generator.batch.requests import BatchStore

    waiting = BatchStore(project.workspace.state_dir).pending_batches()
    wanted = list(ids) or [source.key for source in project.sources.sources]
    by_batch: dict[str, list[str]] = {}
    for guide in wanted:
        if guide in waiting:
            by_batch.setdefault(waiting[guide], []).append(guide)
    if not by_batch:
        return ids, False
    for batch_id, guides in sorted(by_batch.items()):
        click.echo(
            f"skipped {len(guides)} waiting in batch {batch_id}: collect them with "
            "`prepguide batch collect` (or draft them again with --force)"
        )
    rest = tuple(guide for guide in wanted if guide not in waiting)
    return rest, not rest


def print_planned(project: Project, planned: Planned) -> bool:
    """Print the notices, invalid records, unknown ids and backend; True when none failed."""
    drafter = planned.drafter
    for notice in getattr(drafter, "notices", ()):
        warn(str(notice))
    ok = report_source_problems(project) == 0
    for missing in planned.missing:
        error(f"no valid source record with id {missing!r}")
        ok = False
    click.echo(
        f"backend: {drafter.backend}" + (f" (model {drafter.model})" if drafter.model else "")
    )
    return ok


def print_dry_run(project: Project, result: plan.DryRun) -> bool:
    """Print what a dry run planned and estimated; True when no record or id failed."""
    planned = result.planned
    ok = print_planned(project, planned)
    todo = planned.todo
    click.echo(
        f"dry run: {len(todo)} to generate, {len(planned.plan) - len(todo)} to skip, "
        f"~{plural(result.prompt_tokens, 'prompt token')} estimated; nothing sent"
    )
    if result.estimate is not None:
        click.echo(estimate_line(result.estimate))
    if planned.drafter.backend == "openai":
        click.echo(reask_line(result.reask_share))
    for item in planned.plan:
        click.echo(f"  {item.action:8} {item.source.key} ({item.reason})")
    return ok


class GeneratePrinter:
    """Print a generation as it goes: its head once planned, progress, then its outcome."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.ok = True
        self.bar: _Progress | None = None

    def planned(self, planned: Planned) -> None:
        self.ok = print_planned(self.project, planned)
        self.bar = _Progress(len(planned.todo)) if sys.stderr.isatty() else None

    def progress(self, report: GenerateReport) -> None:
        if self.bar is not None:
            self.bar(report)

    def finished(self, generation: Generation) -> bool:
        """Print the run's outcome; return True when all went well."""
        report = generation.report
        ok = self.ok
        if self.bar is not None:
            self.bar.finish(report)
        failures = len(report.failed)
        clean = ok and not failures and not report.aborted
        click.echo(
            f"{paint('generated', 'success') if clean else 'generated'} "
            f"{len(report.generated)}, skipped {len(report.skipped)} unchanged, "
            f"{paint(f'failed {failures}', 'error') if failures else 'failed 0'} "
            f"in {report.elapsed:.1f}s"
            + (
                f"; tokens: {report.prompt_tokens} prompt, {report.completion_tokens} completion"
                if report.prompt_tokens or report.completion_tokens
                else ""
            )
        )
        if report.aborted:
            error(f"run stopped: {report.aborted}")
            ok = False
        if report.failed:
            width = max(len("guide"), *(len(guide_id) for guide_id in report.failed))
            click.echo(paint(f"{failures} failed:", "error", err=True), err=True)
            click.echo(f"  {'guide':{width}}  reason", err=True)
            for guide_id, reason in sorted(report.failed.items()):
                click.echo(f"  {guide_id:{width}}  {reason}", err=True)
            ok = False
        return ok


def reask_line(share: float | None) -> str:
    """Say what share of tokens the call log shows for re-asks, which the estimate includes."""
    if share is None:
        return (
            "re-asks: no calls logged yet; each guide may take up to 2 re-asks "
            "(schema, quotes or findings the model can fix), not included"
        )
    return f"re-asks: +{share:.0%} tokens on first requests in the call log; included above"


def estimate_line(estimate: plan.Estimate) -> str:
    """Say what a run would cost online and in a batch, with completions at most max_tokens."""
    head = (
        f"estimate: ~{estimate.prompt_tokens} prompt + at most "
        f"{estimate.completion_tokens} completion tokens"
    )
    if estimate.online is None or estimate.batch is None:
        return f'{head}; cost unknown: add [llm.prices."{estimate.model}"] to prepguide.toml'
    return f"{head}; cost at most {estimate.online:.6f} online, {estimate.batch:.6f} in a batch"


class _Progress:
    """One self-updating status line on a terminal: done, failed, tokens, elapsed."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.shown = 0.0

    def line(self, report: GenerateReport) -> str:
        done = len(report.generated)
        tokens = report.prompt_tokens + report.completion_tokens
        return (
            f"\r{done}/{self.total} done, {len(report.failed)} failed, "
            f"{plural(tokens, 'token')}, {report.elapsed:.1f}s elapsed"
        )

    def __call__(self, report: GenerateReport) -> None:
        if report.elapsed - self.shown >= 0.1:
            self.shown = report.elapsed
            click.echo(self.line(report), nl=False, err=True)

    def finish(self, report: GenerateReport) -> None:
        if self.total:
            click.echo(self.line(report), err=True)


revise_options = [
    click.option(
        "--revise", is_flag=True, help="Redraft one guide from the editor's (rejection) note."
    ),
    click.option(
        "--note", default=None, help="With --revise: the note (default: the rejection note)."
    ),
]


def run_revise(
    project: Project, ids: tuple[str, ...], note: str | None, backend: str, model, no_cache
) -> bool:
    """Redraft one guide from a note, audit it, and print the new revision's findings."""
    from generator.core import ConfigError, PrepguideError
    from generator.drafting import revise
    from generator.review import read_state, record_revision

    if len(ids) != 1:
        fail("--revise takes exactly one guide id", 2)
    guide_id = ids[0]
    if guide_id.startswith("article:"):
        from generator.cli.articles import run_article_revise

        return run_article_revise(project, guide_id, note, backend, model, no_cache)
    if not (note or "").strip():
        try:
            state = read_state(project, guide_id)
        except PrepguideError as exc:
            fail(str(exc), 1)
        if state is None or state.status != "rejected" or not state.note:
            fail(
                f"{guide_id} has no rejection note to revise from; pass --note, or reject it "
                f"first with `prepguide review reject {guide_id} --by NAME --note ...`",
                2,
            )
        note = state.note
    try:
        revised = revise(project, guide_id, note or "", backend, model, no_cache=no_cache)
        record_revision(project, guide_id, revised.note)
    except ConfigError as exc:
        fail(str(exc), 2)
    except PrepguideError as exc:
        fail(str(exc), 1)
    meta = revised.doc.meta
    errors = sum(1 for finding in meta.findings if finding.severity == "error")
    rounds = meta.provenance.rounds
    click.echo(f"backend: {meta.provenance.backend} (model {meta.provenance.model})")
    click.echo(
        f"{paint('revised', 'success')} {guide_id}: new draft revision after "
        f"{plural(rounds, 'round')}, {tally(errors, 'error')}, "
        f"{tally(len(meta.findings) - errors, 'warning', 'warning')}; "
        f"`prepguide review diff {guide_id}` shows what changed"
    )
    for finding in meta.findings:
        click.echo(f"  {finding.severity:7} {finding.rule} [{finding.section}]: {finding.message}")
    return True


@cli.command()
@click.argument(
    "ids",
    nargs=-1,
    callback=guide_ids,
    help="Guide ids or article:SLUG ids to draft (default: every record and article).",
)
@with_options(generate_options)
@with_options(batch_options)
@with_options(revise_options)
@pass_ctx
def generate(
    ctx: Context,
    ids,
    backend,
    model,
    concurrency,
    force,
    dry_run,
    no_cache,
    revise,
    note,
    **batch,
) -> None:
    """Draft guides for new or changed sources (online, or through batch files)."""
    project = ctx.project
    if note is not None and not revise:
        fail("--note goes with --revise", 2)
    if revise:
        if dry_run or any(batch[name] for name in ("batch", "batch_export", "batch_import")):
            fail("--revise drafts one guide online; it takes no --dry-run or batch option", 2)
        run_revise(project, ids, note, backend, model, no_cache)
        return
    # Articles (article:SLUG) are drafted after the guides, by their own command path.
    from generator.cli.articles import article_work, run_article_generate

    ids, slugs, articles_only = article_work(project, ids)
    files = batch["batch_export"] or batch["batch_import"]
    if slugs is not None and articles_only and not (batch["batch"] or files):
        ok = run_article_generate(
            project, slugs, backend, model, concurrency, force, dry_run, no_cache
        )
        if not ok:
            sys.exit(1)
        return
    if batch["batch"] or files:
        from generator.cli.batch import run_batch_generate

        if backend == "offline":
            fail("batch files need the openai backend", 2)
        ok = run_batch_generate(
            project,
            ids,
            model,
            force,
            dry_run,
            no_cache,
            slugs=slugs,
            guides=not articles_only,
            **batch,
        )
    else:
        ok = run_generate(project, ids, backend, model, concurrency, force, dry_run, no_cache)
        if slugs is not None:
            ok = (
                run_article_generate(
                    project, slugs, backend, model, concurrency, force, dry_run, no_cache
                )
                and ok
            )
    if not ok:
        sys.exit(1)


def print_usage(project: Project, as_json: bool) -> None:
    """Print tokens and cost by day, model and backend; re-asks count, cache hits do not."""
    from generator.llm import usage_by_day

    prices = project.settings.llm.prices
    rows, notice = usage_by_day(project.workspace.state_dir, prices)
    if notice:
        warn(str(notice))
    if as_json:
        click.echo(json.dumps({"usage": [asdict(row) for row in rows]}, indent=2))
        return
    click.echo(
        f"{'day':10}  {'model':24} {'backend':15} {'calls':>6} {'prompt':>10} "
        f"{'cached':>8} {'completion':>10} {'cost':>10}"
    )
    for row in rows:
        backend = row.backend + (" (batch)" if row.via == "batch" else "")
        money = f"{row.cost:10.4f}" if row.cost is not None else f"{'no price':>10}"
        click.echo(
            f"{row.day:10}  {row.model:24} {backend:15} {row.calls:>6} {row.prompt_tokens:>10} "
            f"{row.cached_tokens:>8} {row.completion_tokens:>10} {money}"
        )
    known = [row.cost for row in rows if row.cost is not None]
    unpriced = sorted({row.model for row in rows if row.cost is None})
    click.echo(
        f"total: {sum(known):.4f}"
        + (f" (no [llm.prices] for {', '.join(unpriced)})" if unpriced else "")
    )


@cli.command()
@click.option(
    "-n",
    "--count",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="How many of the latest calls to show.",
)
@click.option(
    "--guide", "guide_id", default=None, callback=guide_ids, help="Only calls for this guide id."
)
@click.option("--json", "as_json", is_flag=True, help="Print the calls as JSON.")
@click.option("--usage", is_flag=True, help="Sum tokens and cost by day, model and backend.")
@pass_ctx
def logs(ctx: Context, count: int, guide_id: str | None, as_json: bool, usage: bool) -> None:
    """Show the latest LLM calls: time, model, prompt, guide, tokens, latency, outcome."""
    from generator.llm import read_log

    if usage:
        print_usage(ctx.project, as_json)
        return
    calls, notice = read_log(ctx.project.workspace.state_dir, count, guide_id)
    if notice:
        warn(str(notice))
    if as_json:
        click.echo(json.dumps({"calls": [asdict(call) for call in calls]}, indent=2))
        return
    for call in calls:
        source = "cache" if call.cached else f"{call.latency_ms}ms"
        click.echo(
            f"{call.time}  {call.model}  prompt {call.prompt_hash[:12]}  {call.guide_id} "
            f"#{call.attempt}  {call.prompt_tokens}+{call.completion_tokens} tokens  {source}  "
            f"{plural(call.retries, 'retry', 'retries')}  {call.outcome}"
        )
    if not calls:
        click.echo("no LLM calls logged yet")
