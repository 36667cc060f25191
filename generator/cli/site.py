"""The site commands: `topics`, `publish` and `build`, the main job."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from generator import pipeline
from generator.cli.common import (
    Context,
    generate_options,
    incomplete_notes,
    jobs_option,
    paint,
    pass_ctx,
    report_source_problems,
    warn,
    with_options,
)
from generator.cli.generate import GeneratePrinter
from generator.cli.root import cli
from generator.core import plural
from generator.drafting import Generation
from generator.guides import Project
from generator.pipeline import Checked, Published


def print_published(project: Project, published: Published) -> None:
    """Print what publishing did: pages, left-out and flagged guides, removals and warnings."""
    out_dir, preview, report = published.out_dir, published.preview, published.report
    drafts = f", {plural(len(report.drafts), 'draft')}" if preview else ""
    guides = plural(len(report.guides), "guide")
    if report.articles:
        guides += f", {plural(len(report.articles), 'article')}"
    click.echo(
        f"{paint('published', 'success')} {guides}{drafts} in {plural(len(report.pages), 'page')} "
        f"({report.written} changed, {len(report.removed)} removed"
        + (", nothing changed since the last build" if report.reused else "")
        + f") to {out_dir}"
        + (" [preview: drafts bannered, noindex]" if preview else "")
    )
    found = report.search
    if found is not None and found.rebuilt:
        click.echo(
            f"search: indexed {plural(found.pages, 'page')} into {plural(found.files, 'file')} "
            f"in {found.seconds:.1f}s"
        )
    elif found is not None:
        click.echo(f"search: the index of {plural(found.pages, 'page')} is unchanged")
    for guide_id, reason in sorted(report.left_out.items()):
        click.echo(f"  left out {guide_id}: {reason}")
    for guide_id, reason in sorted(report.flagged.items()):
        click.echo(f"  live but fails current checks {guide_id}: {reason}")
    for relative in report.removed:
        click.echo(f"  removed {relative}")
    for guide_id in report.missing:
        warn(
            f"{project.guides.path(guide_id)} is missing; its approved version stays "
            f"live (restore the file from guides/.history/{guide_id}/ to edit it)"
        )
    for problem in [*report.problems, *report.warnings]:
        warn(str(problem))
    click.echo(f"open {(out_dir / 'index.html').resolve().as_uri()}")


def print_checked(checked: Checked) -> None:
    """Print the one line a build says about the checks."""
    results, held = checked.results, checked.held
    clean = f"{len(results) - len(held)} of {plural(len(results), 'guide')} clean"
    click.echo(
        f"checks: {clean if held else paint(clean, 'success')}"
        + (
            f"; {paint(str(len(held)), 'error')} {'has' if len(held) == 1 else 'have'} error "
            "findings and cannot be approved until fixed "
            f"({', '.join(r.id for r in held)}); run `prepguide check` for details"
            if held
            else ""
        )
    )


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@pass_ctx
def topics(ctx: Context, as_json: bool) -> None:
    """Print the topic hub statistics computed over the whole source database."""
    from generator.sources import compute_topics

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
        f"{plural(len(hubs), 'topic')} with at least "
        f"{plural(project.settings.topics.min_sources, 'write-up')} "
        f"across {plural(len(project.sources.sources), 'write-up')}"
    )


@cli.command()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder to write the site to (default: ROOT/site; ROOT/site-preview with --preview).",
)
@click.option(
    "--preview", is_flag=True, help="Include drafts, bannered and noindexed, in site-preview/."
)
@click.option(
    "--strict",
    is_flag=True,
    help="Leave out live guides that fail checks changed since their approval.",
)
@jobs_option
@pass_ctx
def publish(ctx: Context, out: Path | None, preview: bool, strict: bool, jobs: int | None) -> None:
    """Build the static site from approved guides."""
    project = ctx.project
    print_published(
        project, pipeline.publish(project, out, preview=preview, jobs=jobs, strict=strict)
    )


@cli.command()
@click.option(
    "--preview", is_flag=True, help="Include drafts, bannered and noindexed, in site-preview/."
)
@with_options([*generate_options[:3], generate_options[5]])
@jobs_option
@pass_ctx
def build(ctx: Context, preview: bool, backend, model, concurrency, no_cache, jobs) -> None:
    """Generate, check and publish: the main job."""
    project = ctx.project
    printer = GeneratePrinter(project)
    ok = True

    def stage(result: pipeline.Stage) -> None:
        nonlocal ok
        if isinstance(result, Generation):
            ok = printer.finished(result)
            for note in incomplete_notes(project):
                click.echo(f"note: {note}")
        elif isinstance(result, Checked):
            print_checked(result)
        elif isinstance(result, pipeline.ArticleGeneration):
            report = result.report
            click.echo(
                f"articles: generated {len(report.generated)}, skipped {len(report.skipped)} "
                f"unchanged, failed {len(report.failed)}"
            )
            for key, reason in sorted(report.failed.items()):
                warn(f"{key}: {reason}")
        else:
            print_published(project, result)

    pipeline.build(
        project,
        preview=preview,
        backend=backend,
        model=model,
        concurrency=concurrency,
        no_cache=no_cache,
        jobs=jobs,
        on_planned=printer.planned,
        on_progress=printer.progress,
        on_stage=stage,
    )
    if not ok:
        sys.exit(1)
