"""The command line: parse arguments, call the library, print results."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import click

from generator import __version__
from generator.backends import make_drafter, resolve_backend
from generator.checks import check_guide
from generator.errors import ConfigError, PrepguideError
from generator.generate import GenerateReport, plan_generation, run_generation
from generator.importer import import_records, read_import_file
from generator.project import Project
from generator.publish import publish as publish_site


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
        missing = [
            name
            for name, value in (
                ("url", source.url),
                ("published", source.published),
                ("checked", source.checked),
            )
            if value is None
        ]
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
    for note in incomplete_notes(project):
        click.echo(f"note: {note}")
    click.echo(f"{len(project.sources.sources)} valid, {problems} with problems")
    if problems:
        sys.exit(1)


@sources.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@pass_ctx
def sources_import(ctx: Context, file: Path) -> None:
    """Import a JSON array, JSONL or CSV file into sources/<id>.yaml."""
    project = ctx.project
    records = read_import_file(file)
    report = import_records(
        records, file, project.workspace.sources_dir, project.sources, project.today
    )
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
) -> bool:
    """Generate guides and print the outcome; return True when all went well."""
    ok = report_source_problems(project) == 0
    known = set(project.sources.by_id())
    for missing in sorted(set(ids) - known):
        click.echo(f"error: no valid source record with id {missing!r}", err=True)
        ok = False
    chosen = resolve_backend(backend)
    drafter = make_drafter(project, chosen, model)
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
        return ok
    report: GenerateReport = asyncio.run(
        run_generation(
            project,
            drafter,
            plan,
            concurrency=concurrency or project.settings.llm.concurrency,
        )
    )
    click.echo(
        f"generated {len(report.generated)}, skipped {len(report.skipped)} unchanged, "
        f"failed {len(report.failed)} in {report.elapsed:.1f}s"
    )
    if report.aborted:
        click.echo(f"error: run stopped: {report.aborted}", err=True)
        ok = False
    if report.failed:
        click.echo("failures:", err=True)
        for guide_id, reason in sorted(report.failed.items()):
            click.echo(f"  {guide_id:40} {reason}", err=True)
        ok = False
    return ok


generate_options = [
    click.option("--backend", type=click.Choice(["auto", "offline", "openai"]), default="auto"),
    click.option("--model", envvar="PREPGUIDE_MODEL", default=None, help="LLM model name."),
    click.option("--concurrency", type=click.IntRange(min=1), default=None),
    click.option("--force", is_flag=True, help="Regenerate even unchanged guides."),
    click.option("--dry-run", is_flag=True, help="Show the plan; draft nothing."),
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
def generate(ctx: Context, ids, backend, model, concurrency, force, dry_run) -> None:
    """Draft guides for new or changed sources."""
    if not _run_generate(ctx.project, ids, backend, model, concurrency, force, dry_run):
        sys.exit(1)


def _check(project: Project, ids: tuple[str, ...]) -> list[dict]:
    rows = []
    for guide_id in ids or project.guides.ids():
        doc = project.guides.read(guide_id)
        source = project.source(guide_id)
        if doc is None:
            rows.append(_missing_row(guide_id, "no guide file; run `prepguide generate`"))
            continue
        if source is None:
            rows.append(_missing_row(guide_id, "no valid source record; run `sources check`"))
            continue
        findings = check_guide(doc, project.check_context(source))
        rows.append(
            {
                "id": guide_id,
                "status": doc.meta.status,
                "findings": [finding.model_dump() for finding in findings],
            }
        )
    return rows


def _missing_row(guide_id: str, message: str) -> dict:
    finding = {"rule": "guide.missing", "severity": "error", "section": "guide", "message": message}
    return {"id": guide_id, "status": "missing", "findings": [finding]}


@cli.command()
@click.argument("ids", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print findings as JSON.")
@pass_ctx
def check(ctx: Context, ids, as_json: bool) -> None:
    """Check guides against their records; exit 1 on any error finding."""
    rows = _check(ctx.project, ids)
    failed = any(f["severity"] == "error" for row in rows for f in row["findings"])
    if as_json:
        click.echo(json.dumps({"guides": rows}, indent=2))
    else:
        for row in rows:
            findings = row["findings"]
            errors = sum(1 for f in findings if f["severity"] == "error")
            click.echo(
                f"{row['id']}: {row['status']}, {errors} errors, {len(findings) - errors} warnings"
            )
            for f in findings:
                click.echo(f"  {f['severity']:7} {f['rule']:24} [{f['section']}] {f['message']}")
    if failed:
        sys.exit(1)


def _publish(project: Project, out: Path | None, preview: bool) -> None:
    out_dir = out or project.workspace.site_dir
    report = publish_site(project, out_dir, preview=preview)
    click.echo(
        f"published {len(report.pages)} pages ({report.written} changed) to {out_dir}"
        + (" [preview: drafts included, noindex]" if preview else "")
    )
    for guide_id, reason in sorted(report.left_out.items()):
        click.echo(f"  left out {guide_id}: {reason}")
    click.echo(f"open {(out_dir / 'index.html').resolve().as_uri()}")


@cli.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None)
@click.option("--preview", is_flag=True, help="Include drafts, bannered and noindexed.")
@pass_ctx
def publish(ctx: Context, out: Path | None, preview: bool) -> None:
    """Build the static site from approved guides."""
    _publish(ctx.project, out, preview)


@cli.command()
@click.option("--preview", is_flag=True, help="Include drafts, bannered and noindexed.")
@with_options(generate_options[:3])
@pass_ctx
def build(ctx: Context, preview: bool, backend, model, concurrency) -> None:
    """Generate, check and publish: the main job."""
    project = ctx.project
    ok = _run_generate(project, (), backend, model, concurrency, False, False)
    for note in incomplete_notes(project):
        click.echo(f"note: {note}")
    _publish(project, None, preview)
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
