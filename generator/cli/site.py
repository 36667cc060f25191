"""The site commands: `topics`, `publish` and `build`, the main job."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from generator.checks.runner import blocked, check_guides
from generator.cli.common import (
    Context,
    generate_options,
    incomplete_notes,
    jobs_option,
    pass_ctx,
    report_source_problems,
    with_options,
)
from generator.cli.generate import run_generate
from generator.cli.root import cli
from generator.core.names import plural
from generator.guides.project import Project


def _publish(
    project: Project,
    out: Path | None,
    preview: bool,
    jobs: int | None = None,
    strict: bool = False,
) -> None:
    from generator.site import publish as publish_site

    out_dir = out or project.workspace.site_dir
    report = publish_site(project, out_dir, preview=preview, jobs=jobs, strict=strict)
    drafts = f", {plural(len(report.drafts), 'draft')}" if preview else ""
    guides = plural(len(report.guides), "guide")
    click.echo(
        f"published {guides}{drafts} in {plural(len(report.pages), 'page')} "
        f"({report.written} changed, {len(report.removed)} removed"
        + (", nothing changed since the last build" if report.reused else "")
        + f") to {out_dir}"
        + (" [preview: drafts bannered, noindex]" if preview else "")
    )
    for guide_id, reason in sorted(report.left_out.items()):
        click.echo(f"  left out {guide_id}: {reason}")
    for guide_id, reason in sorted(report.flagged.items()):
        click.echo(f"  live but fails current checks {guide_id}: {reason}")
    for relative in report.removed:
        click.echo(f"  removed {relative}")
    for guide_id in report.missing:
        click.echo(
            f"warning: {project.guides.path(guide_id)} is missing; its approved version stays "
            f"live (restore the file from guides/.history/{guide_id}/ to edit it)",
            err=True,
        )
    for problem in [*report.problems, *report.warnings]:
        click.echo(f"warning: {problem}", err=True)
    click.echo(f"open {(out_dir / 'index.html').resolve().as_uri()}")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@pass_ctx
def topics(ctx: Context, as_json: bool) -> None:
    """Print the topic hub statistics computed over the whole source database."""
    from generator.sources.topics import compute_topics

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
    help="Folder to write the site to (default: ROOT/site).",
)
@click.option("--preview", is_flag=True, help="Include drafts, bannered and noindexed.")
@click.option(
    "--strict",
    is_flag=True,
    help="Leave out live guides that fail checks changed since their approval.",
)
@jobs_option
@pass_ctx
def publish(ctx: Context, out: Path | None, preview: bool, strict: bool, jobs: int | None) -> None:
    """Build the static site from approved guides."""
    _publish(ctx.project, out, preview, jobs, strict)


@cli.command()
@click.option("--preview", is_flag=True, help="Include drafts, bannered and noindexed.")
@with_options([*generate_options[:3], generate_options[5]])
@jobs_option
@pass_ctx
def build(ctx: Context, preview: bool, backend, model, concurrency, no_cache, jobs) -> None:
    """Generate, check and publish: the main job."""
    project = ctx.project
    ok = run_generate(project, (), backend, model, concurrency, False, False, no_cache)
    for note in incomplete_notes(project):
        click.echo(f"note: {note}")
    results = check_guides(project, [source.key for source in project.sources.sources], jobs)
    held = blocked(results)
    click.echo(
        f"checks: {len(results) - len(held)} of {plural(len(results), 'guide')} clean"
        + (
            f"; {len(held)} {'has' if len(held) == 1 else 'have'} error findings "
            "and cannot be approved until fixed "
            f"({', '.join(r.id for r in held)}); run `prepguide check` for details"
            if held
            else ""
        )
    )
    _publish(project, None, preview, jobs)
    if not ok:
        sys.exit(1)
