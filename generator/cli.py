"""The command line: parse arguments, call the library, print results."""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator import __version__
from generator import review as review_mod
from generator.backends import make_drafter, resolve_backend
from generator.calllog import read_calls
from generator.errors import ConfigError, PrepguideError
from generator.gate import blocked, check_guides
from generator.generate import GenerateReport, plan_generation, run_generation
from generator.project import Project

if TYPE_CHECKING:
    from generator.verify import VerifyRow


def fail(message: str, code: int = 1) -> None:
    """Print an error to stderr and exit with a code."""
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


class Context:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._project: Project | None = None

    @property
    def project(self) -> Project:
        if self._project is None:
            self._project = Project(self.root)
        return self._project


pass_ctx = click.make_pass_decorator(Context)


@click.group()
@click.version_option(__version__, prog_name="prepguide")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Folder holding sources/, guides/, prompts/ and prepguide.toml.",
)
@click.pass_context
def cli(click_ctx: click.Context, root: Path) -> None:
    """Turn engineering write-ups into checked career-prep guides."""
    click_ctx.obj = Context(root)


def report_source_problems(project: Project) -> int:
    """Print one line per invalid record; return how many there were."""
    for problem in project.sources.problems:
        click.echo(f"invalid source: {problem}", err=True)
    return len(project.sources.problems)


def incomplete_notes(project: Project) -> list[str]:
    """Say plainly which valid records cannot be published until an editor completes them."""
    notes = []
    for source in project.sources.sources:
        missing = source.missing_for_publication()
        if missing:
            notes.append(
                f"{source.path}: can be drafted but not published until an editor adds "
                f"{', '.join(missing)}"
            )
    return notes


@cli.group()
def sources() -> None:
    """Validate and import source records."""


@sources.command("check")
@pass_ctx
def sources_check(ctx: Context) -> None:
    """Validate every record in sources/; exit 1 on any problem."""
    project = ctx.project
    problems = report_source_problems(project)
    notes = incomplete_notes(project)
    for note in notes:
        click.echo(f"note: {note}")
    invalid = len({problem.path for problem in project.sources.problems})
    click.echo(
        f"{len(project.sources.sources)} valid, {invalid} invalid ({problems} problems)"
        + (f", {len(notes)} not yet publishable" if notes else "")
    )
    if problems:
        sys.exit(1)


@sources.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@pass_ctx
def sources_import(ctx: Context, file: Path) -> None:
    """Import a JSON array, JSONL or CSV file into sources/<id>.yaml."""
    from generator.importer import import_records, read_import_file

    project = ctx.project
    rows = read_import_file(file)
    report = import_records(rows, project.workspace.sources_dir, project.sources, project.today)
    for path in report.written:
        click.echo(f"wrote {path}")
    for path in report.unchanged:
        click.echo(f"unchanged {path}")
    for line in report.duplicates:
        click.echo(f"skipped duplicate: {line}")
    for problem in report.problems:
        click.echo(f"not imported: {problem}", err=True)
    click.echo(
        f"{len(report.written)} written, {len(report.duplicates)} duplicate, "
        f"{len(report.problems)} refused"
    )
    if report.problems:
        sys.exit(1)


def _run_generate(
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
    ok = report_source_problems(project) == 0
    known = set(project.sources.by_id())
    for missing in sorted(set(ids) - known):
        click.echo(f"error: no valid source record with id {missing!r}", err=True)
        ok = False
    chosen = resolve_backend(backend)
    drafter = make_drafter(project, chosen, model, cache=not (no_cache or dry_run))
    plan = plan_generation(project, drafter, list(ids) or None, force)
    todo = [item for item in plan if item.action == "generate"]
    click.echo(
        f"backend: {drafter.backend}" + (f" (model {drafter.model})" if drafter.model else "")
    )
    if dry_run:
        tokens = sum(drafter.estimate_prompt_tokens(item.source) for item in todo)
        click.echo(
            f"dry run: {len(todo)} to generate, {len(plan) - len(todo)} to skip, "
            f"~{tokens} prompt tokens estimated; nothing sent"
        )
        for item in plan:
            click.echo(f"  {item.action:8} {item.source.key} ({item.reason})")
        close = getattr(drafter, "aclose", None)
        if close is not None:
            asyncio.run(close())
        return ok
    progress = _Progress(len(todo)) if sys.stderr.isatty() else None
    report: GenerateReport = asyncio.run(
        run_generation(
            project,
            drafter,
            plan,
            concurrency=concurrency or project.settings.llm.concurrency,
            on_progress=progress,
        )
    )
    if progress is not None:
        progress.finish(report)
    click.echo(
        f"generated {len(report.generated)}, skipped {len(report.skipped)} unchanged, "
        f"failed {len(report.failed)} in {report.elapsed:.1f}s"
        + (
            f"; tokens: {report.prompt_tokens} prompt, {report.completion_tokens} completion"
            if report.prompt_tokens or report.completion_tokens
            else ""
        )
    )
    if report.aborted:
        click.echo(f"error: run stopped: {report.aborted}", err=True)
        ok = False
    if report.failed:
        width = max(len("guide"), *(len(guide_id) for guide_id in report.failed))
        click.echo(f"{len(report.failed)} failed:", err=True)
        click.echo(f"  {'guide':{width}}  reason", err=True)
        for guide_id, reason in sorted(report.failed.items()):
            click.echo(f"  {guide_id:{width}}  {reason}", err=True)
        ok = False
    return ok


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
            f"{tokens} tokens, {report.elapsed:.1f}s elapsed"
        )

    def __call__(self, report: GenerateReport) -> None:
        if report.elapsed - self.shown >= 0.1:
            self.shown = report.elapsed
            click.echo(self.line(report), nl=False, err=True)

    def finish(self, report: GenerateReport) -> None:
        if self.total:
            click.echo(self.line(report), err=True)


generate_options = [
    click.option("--backend", type=click.Choice(["auto", "offline", "openai"]), default="auto"),
    click.option("--model", envvar="PREPGUIDE_MODEL", default=None, help="LLM model name."),
    click.option("--concurrency", type=click.IntRange(min=1), default=None),
    click.option("--force", is_flag=True, help="Regenerate even unchanged guides."),
    click.option("--dry-run", is_flag=True, help="Plan and estimate tokens; send nothing."),
    click.option("--no-cache", is_flag=True, help="Ask the model even if an answer is cached."),
]


def with_options(options):
    def decorate(func):
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


@cli.command()
@click.argument("ids", nargs=-1)
@with_options(generate_options)
@pass_ctx
def generate(ctx: Context, ids, backend, model, concurrency, force, dry_run, no_cache) -> None:
    """Draft guides for new or changed sources."""
    project = ctx.project
    if not _run_generate(project, ids, backend, model, concurrency, force, dry_run, no_cache):
        sys.exit(1)


@cli.command()
@click.option("-n", "--count", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--guide", "guide_id", default=None, help="Only calls for this guide id.")
@click.option("--json", "as_json", is_flag=True, help="Print the calls as JSON.")
@pass_ctx
def logs(ctx: Context, count: int, guide_id: str | None, as_json: bool) -> None:
    """Show the latest LLM calls: time, model, prompt, guide, tokens, latency, outcome."""
    calls = read_calls(ctx.project.workspace.state_dir, count, guide_id)
    if as_json:
        click.echo(json.dumps({"calls": [asdict(call) for call in calls]}, indent=2))
        return
    for call in calls:
        source = "cache" if call.cached else f"{call.latency_ms}ms"
        click.echo(
            f"{call.time}  {call.model}  prompt {call.prompt_hash[:12]}  {call.guide_id} "
            f"#{call.attempt}  {call.prompt_tokens}+{call.completion_tokens} tokens  {source}  "
            f"{call.retries} retries  {call.outcome}"
        )
    if not calls:
        click.echo("no LLM calls logged yet")


@cli.command()
@click.argument("ids", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print findings as JSON.")
@pass_ctx
def check(ctx: Context, ids, as_json: bool) -> None:
    """Check guides against their records; exit 1 on any error finding."""
    results = check_guides(ctx.project, ids)
    failed = bool(blocked(results))
    if as_json:
        click.echo(json.dumps({"guides": [result.as_json() for result in results]}, indent=2))
    else:
        for result in results:
            click.echo(
                f"{result.id}: {result.status}, {result.errors} errors, {result.warnings} warnings"
            )
            for f in result.findings:
                click.echo(f"  {f.severity:7} {f.rule} [{f.section}]: {f.message}")
        click.echo(
            f"checked {len(results)} guides: {sum(r.errors for r in results)} errors, "
            f"{sum(r.warnings for r in results)} warnings"
            + ("; approval and publishing are refused until the errors are fixed" if failed else "")
        )
    if failed:
        sys.exit(1)


def _verify_line(row: VerifyRow) -> str:
    http = str(row.http_status) if row.http_status else "-"
    checked = f"checked {row.checked.isoformat()}" if row.checked else "never checked"
    line = f"  {row.status or 'unchecked':12} {http:>4}  {row.id}  {row.url}  ({checked})"
    if row.final_url and row.final_url != row.url:
        line += f"\n{'':20}-> {row.final_url}"
    if row.error:
        line += f"\n{'':20}{row.error}"
    return line


def _verify_summary(rows: list[VerifyRow]) -> None:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.status or "unchecked"] = counts.get(row.status or "unchecked", 0) + 1
    click.echo(f"{len(rows)} links: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    changed = sorted({row.id for row in rows if row.status == "changed"})
    if changed:
        click.echo(f"source text changed; re-review the guides of: {', '.join(changed)}")
    if any(not row.live for row in rows):
        click.echo(
            "a guide citing a link that is not live cannot be approved or published: fix the "
            "url (or point it at an archived copy), or run `prepguide verify --manual ID --by NAME`"
        )


@cli.command()
@click.argument("ids", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON row per URL.")
@click.option("--concurrency", type=click.IntRange(min=1), default=None, help="Hosts at once.")
@click.option("--force", is_flag=True, help="Re-check links already checked today.")
@click.option("--manual", "manual_id", metavar="ID", help="Record an editor's check of a record.")
@click.option("--by", metavar="NAME", help="The editor, with --manual.")
@click.option("--url", "manual_url", metavar="URL", help="With --manual: only this URL.")
@pass_ctx
def verify(ctx: Context, ids, as_json, concurrency, force, manual_id, by, manual_url) -> None:
    """Check source and citation links; exit 1 when any is not live."""
    from generator.verify import check_links, collect_targets, due_targets, record_manual
    from generator.verify import report as verify_report

    project = ctx.project
    ledger = project.ledger
    for problem in ledger.problems:
        click.echo(f"warning: {problem}", err=True)
    if manual_id is None:
        if by or manual_url:
            fail("--by and --url go with --manual ID", 2)
    else:
        if ids:
            fail("--manual records one record; drop the other ids", 2)
        if not by:
            fail("--manual needs --by NAME", 2)
        source = project.source(manual_id)
        if source is None:
            fail(f"no valid source record with id {manual_id!r}", 2)
        for row in record_manual(ledger, source, by, url=manual_url):
            click.echo(f"verified {row.url} by {row.by} on {row.day.isoformat()}")
        return
    ok = report_source_problems(project) == 0
    known = project.sources.by_id()
    for missing in sorted(set(ids) - set(known)):
        click.echo(f"error: no valid source record with id {missing!r}", err=True)
        ok = False
    chosen = [known[i] for i in dict.fromkeys(ids) if i in known] if ids else list(known.values())
    targets = collect_targets(chosen)
    due = list(targets) if force else due_targets(targets, ledger, project.today)
    settings = project.settings.verify
    if not as_json:
        click.echo(f"checking {len(due)} links ({len(targets) - len(due)} already checked today)")
    fresh = asyncio.run(
        check_links(
            due,
            ledger,
            timeout=settings.timeout,
            concurrency=concurrency or settings.concurrency,
            host_interval=settings.host_interval,
        )
    )
    rows = verify_report(chosen, ledger, {row.url: row for row in fresh})
    if as_json:
        click.echo(json.dumps([row.to_json() for row in rows], indent=2))
    else:
        for row in rows:
            click.echo(_verify_line(row))
        _verify_summary(rows)
    if not ok or any(not row.live for row in rows):
        sys.exit(1)


@cli.group()
def review() -> None:
    """Review guides: list, diff, approve, reject, withdraw, audit log, web page."""


def _flag_text(row) -> str:
    return ", ".join(row.flags.labels()) or "-"


@review.command("list")
@click.option("--status", type=click.Choice(review_mod.STATUSES), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print rows as JSON.")
@pass_ctx
def review_list(ctx: Context, status: str | None, as_json: bool) -> None:
    """List guides with status, flags and finding counts."""
    rows = review_mod.queue(ctx.project, status)
    if as_json:
        click.echo(json.dumps({"guides": [row.as_json() for row in rows]}, indent=2))
        return
    click.echo(f"{'ID':40} {'STATUS':10} {'ERR':>3} {'WARN':>4}  FLAGS")
    for row in rows:
        live = ""
        if row.live and row.status not in ("approved", "published"):
            live = f"  [live: {'published' if row.live.published_at else 'approved'} version]"
        click.echo(
            f"{row.id:40} {row.status:10} {row.errors:>3} {row.warnings:>4}  {_flag_text(row)}"
            f"{live}" + (f"  ({row.problem})" if row.problem else "")
        )


@review.command("show")
@click.argument("guide_id")
@pass_ctx
def review_show(ctx: Context, guide_id: str) -> None:
    """Show one guide's status, provenance, findings, evidence and text."""
    row = review_mod.inspect(ctx.project, guide_id)
    if row.doc is None:
        fail(row.problem or f"no guide {guide_id!r}")
    made = row.doc.meta.provenance
    click.echo(f"{row.id}: {row.status}" + (f" ({_flag_text(row)})" if row.flags.labels() else ""))
    click.echo(f"  content   {row.doc.content_hash}")
    click.echo(
        f"  made by   {made.backend}"
        + (f" {made.model}" if made.model else "")
        + f" at {made.generated_at}; prompt {made.prompt_hash[:12]}; source {made.source_hash[:12]}"
    )
    if row.state and row.state.by:
        click.echo(
            f"  {row.status} by {row.state.by} at {row.state.at}"
            + (f": {row.state.note}" if row.state.note else "")
        )
    if row.live:
        where = "published" if row.live.published_at else "approved, not yet published"
        click.echo(
            f"  live      {row.live.content_hash[:12]} ({where}; approved by "
            f"{row.live.approved_by} at {row.live.approved_at})"
        )
    click.echo(f"  revisions {len(ctx.project.guides.revisions(guide_id))}")
    click.echo(f"findings: {row.errors} errors, {row.warnings} warnings")
    for f in row.findings:
        click.echo(f"  {f.severity:7} {f.rule:24} [{f.section}] {f.message}")
    if row.source:
        claims = review_mod.locate_claims(
            review_mod.reports_text(row.doc), review_mod.source_fields(row.source)
        )
        click.echo(f"figures and quotes in 'What {row.doc.meta.company} reports': {len(claims)}")
        for claim in claims:
            where = ", ".join(sorted({span.field for span in claim.spans})) or "NOT FOUND"
            click.echo(f"  {claim.kind:6} {claim.text!r}: {where}")
    click.echo("")
    click.echo(row.doc.body)


@review.command("diff")
@click.argument("guide_id")
@click.option("--published", is_flag=True, help="Diff against the live (approved) version.")
@pass_ctx
def review_diff(ctx: Context, guide_id: str, published: bool) -> None:
    """Diff a guide against its previous revision, or the live version."""
    if published:
        diff = review_mod.diff_published(ctx.project, guide_id)
        missing = "no approved or published version to compare with"
    else:
        diff = review_mod.diff_previous(ctx.project, guide_id)
        missing = "no previous revision: this is the first version"
    if diff is None:
        click.echo(f"{guide_id}: {missing}")
    elif diff.empty:
        click.echo(f"{guide_id}: no differences ({diff.old_label} = {diff.new_label})")
    else:
        click.echo(diff.text())


def _apply(action, guide_ids, **kwargs) -> None:
    refused = 0
    for guide_id in guide_ids:
        try:
            outcome = action(guide_id=guide_id, **kwargs)
        except PrepguideError as exc:
            click.echo(f"refused: {exc}", err=True)
            refused += 1
        else:
            click.echo(
                f"{outcome.guide_id}: {outcome.from_state} -> {outcome.to_state} "
                f"({outcome.content_hash[:12]})"
            )
    if refused:
        sys.exit(1)


@review.command("approve")
@click.argument("guide_ids", nargs=-1, required=True)
@click.option("--by", required=True, metavar="NAME", help="The reviewer.")
@click.option("--note", default=None)
@pass_ctx
def review_approve(ctx: Context, guide_ids, by: str, note: str | None) -> None:
    """Approve the exact current text of guides with no error findings."""
    _apply(partial(review_mod.approve, ctx.project), guide_ids, by=by, note=note)


@review.command("reject")
@click.argument("guide_id")
@click.option("--by", required=True, metavar="NAME", help="The reviewer.")
@click.option("--note", required=True, help="Why: what must change.")
@pass_ctx
def review_reject(ctx: Context, guide_id: str, by: str, note: str) -> None:
    """Reject a draft with a note."""
    _apply(partial(review_mod.reject, ctx.project), [guide_id], by=by, note=note)


@review.command("withdraw")
@click.argument("guide_id")
@click.option("--by", required=True, metavar="NAME", help="The reviewer.")
@click.option(
    "--reason", required=True, type=click.Choice(review_mod.WITHDRAW_REASONS, case_sensitive=False)
)
@pass_ctx
def review_withdraw(ctx: Context, guide_id: str, by: str, reason: str) -> None:
    """Take a guide off the next publish."""
    _apply(partial(review_mod.withdraw, ctx.project), [guide_id], by=by, reason=reason)


@review.command("log")
@click.argument("guide_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print entries as JSON Lines.")
@pass_ctx
def review_log(ctx: Context, guide_id: str | None, as_json: bool) -> None:
    """Print the audit trail, oldest first."""
    for entry in review_mod.log(ctx.project, guide_id):
        if as_json:
            click.echo(entry.model_dump_json())
            continue
        made = f"{entry.backend or '-'}/{entry.model or '-'}"
        click.echo(
            f"{entry.time} {entry.guide} {entry.action} by {entry.actor}: "
            f"{entry.from_state or '-'} -> {entry.to_state} "
            f"[{(entry.content_hash or '-')[:12]}] {made} prompt {(entry.prompt_hash or '-')[:12]} "
            f"source {(entry.source_hash or '-')[:12]}" + (f" - {entry.note}" if entry.note else "")
        )


@review.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@pass_ctx
def review_serve(ctx: Context, host: str, port: int) -> None:
    """Serve the review page (local only by default)."""
    try:
        from generator import webapp
    except ImportError as exc:
        fail(f"the review page needs Flask: pip install 'prepguide[review]' ({exc})", 2)
    server = webapp.make_server(ctx.project.workspace.root, host, port)
    click.echo(f"review page on http://{host}:{server.server_port}/ (Ctrl-C to stop)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo("warning: listening beyond this machine; anyone who can reach it can review")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped")


def _publish(project: Project, out: Path | None, preview: bool, jobs: int | None = None) -> None:
    from generator.publish import publish as publish_site

    out_dir = out or project.workspace.site_dir
    report = publish_site(project, out_dir, preview=preview, jobs=jobs)
    drafts = f", {len(report.drafts)} drafts" if preview else ""
    click.echo(
        f"published {len(report.guides)} guides{drafts} in {len(report.pages)} pages "
        f"({report.written} changed, {len(report.removed)} removed"
        + (", nothing changed since the last build" if report.reused else "")
        + f") to {out_dir}"
        + (" [preview: drafts bannered, noindex]" if preview else "")
    )
    for guide_id, reason in sorted(report.left_out.items()):
        click.echo(f"  left out {guide_id}: {reason}")
    for relative in report.removed:
        click.echo(f"  removed {relative}")
    for problem in report.problems:
        click.echo(f"warning: {problem}", err=True)
    click.echo(f"open {(out_dir / 'index.html').resolve().as_uri()}")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@pass_ctx
def topics(ctx: Context, as_json: bool) -> None:
    """Print the topic hub statistics computed over the whole source database."""
    from generator.topics import compute_topics

    project = ctx.project
    report_source_problems(project)
    hubs = compute_topics(project.sources.sources, project.settings.topics.min_sources)
    if as_json:
        payload = {
            "total": len(project.sources.sources),
            "min_sources": project.settings.topics.min_sources,
            "topics": [topic.as_json() for topic in hubs],
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    for topic in hubs:
        click.echo(f"{topic.name} (topics/{topic.slug}/)")
        click.echo(f"  {topic.paragraph}")
    click.echo(
        f"{len(hubs)} topics with at least {project.settings.topics.min_sources} write-ups "
        f"across {len(project.sources.sources)} write-ups"
    )


jobs_option = click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Processes that render guide pages (default: one per CPU for large sites).",
)


@cli.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None)
@click.option("--preview", is_flag=True, help="Include drafts, bannered and noindexed.")
@jobs_option
@pass_ctx
def publish(ctx: Context, out: Path | None, preview: bool, jobs: int | None) -> None:
    """Build the static site from approved guides."""
    _publish(ctx.project, out, preview, jobs)


@cli.command()
@click.option("--preview", is_flag=True, help="Include drafts, bannered and noindexed.")
@with_options([*generate_options[:3], generate_options[5]])
@jobs_option
@pass_ctx
def build(ctx: Context, preview: bool, backend, model, concurrency, no_cache, jobs) -> None:
    """Generate, check and publish: the main job."""
    project = ctx.project
    ok = _run_generate(project, (), backend, model, concurrency, False, False, no_cache)
    for note in incomplete_notes(project):
        click.echo(f"note: {note}")
    results = check_guides(project, [source.key for source in project.sources.sources])
    held = blocked(results)
    click.echo(
        f"checks: {len(results) - len(held)} of {len(results)} guides clean"
        + (
            f"; {len(held)} have error findings and cannot be approved until fixed "
            f"({', '.join(r.id for r in held)}); run `prepguide check` for details"
            if held
            else ""
        )
    )
    _publish(project, None, preview, jobs)
    if not ok:
        sys.exit(1)


def main() -> None:
    """Run the CLI, turning library errors into messages and exit codes."""
    try:
        cli.main(prog_name="prepguide", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except ConfigError as exc:
        fail(str(exc), 2)
    except PrepguideError as exc:
        fail(str(exc), 1)
