"""The `sources` commands: check and import records."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli.common import (
    Context,
    counted,
    error,
    incomplete_notes,
    paint,
    pass_ctx,
    report_source_problems,
    warn,
)
from generator.cli.root import cli
from generator.core import escape_controls, plural


@cli.group()
def sources() -> None:
    """Validate and import source records."""


@sources.command("check")
@pass_ctx
def sources_check(ctx: Context) -> None:
    """Validate every record in sources/; exit 1 on any problem."""
    project = ctx.project
    problems = report_source_problems(project)
    warnings = [warning for source in project.sources.sources for warning in source.warnings]
    for warning in warnings:
        warn(escape_controls(str(warning)))
    notes = incomplete_notes(project)
    for note in notes:
        click.echo(f"note: {note}")
    invalid = len({problem.path for problem in project.sources.problems})
    click.echo(
        f"{counted(len(project.sources.sources), 'valid', 'success')}, "
        f"{counted(invalid, 'invalid')} ({plural(problems, 'problem')})"
        + (f", {len(notes)} not yet publishable" if notes else "")
        + (f", {plural(len(warnings), 'warning')}" if warnings else "")
    )
    if problems:
        sys.exit(1)


@sources.command("import")
@click.argument(
    "file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A .json array, .jsonl or .csv file of records.",
)
@pass_ctx
def sources_import(ctx: Context, file: Path) -> None:
    """Import a JSON array, JSONL or CSV file into sources/<id>.yaml."""
    from generator.sources import import_records, read_import_file

    project = ctx.project
    rows = read_import_file(file)
    report = import_records(rows, project.workspace.sources_dir, project.sources, project.today)
    for path in report.written:
        click.echo(f"{paint('wrote', 'success')} {path}")
    for path in report.unchanged:
        click.echo(f"unchanged {path}")
    for line in report.duplicates:
        click.echo(f"skipped duplicate: {line}")
    for problem in report.problems:
        error(escape_controls(str(problem)), "not imported:")
    click.echo(
        f"{counted(len(report.written), 'written', 'success')}, "
        f"{plural(len(report.duplicates), 'duplicate')}, "
        f"{counted(len(report.refused), 'refused')}"
    )
    if report.problems:
        sys.exit(1)
