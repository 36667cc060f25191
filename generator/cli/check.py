"""The `check` command: findings for guides."""

from __future__ import annotations

import json
import sys

import click

from generator.checks import GuideCheck, plan_check
from generator.cli.common import Context, guide_ids, paint, pass_ctx, tally, use_colour, warn
from generator.cli.root import cli
from generator.core import plural
from generator.guides.store import article_store, split_ids


@cli.command()
@click.argument(
    "ids",
    nargs=-1,
    callback=guide_ids,
    help="Guide or article:SLUG ids to check (default: every guide and article).",
)
@click.option("--json", "as_json", is_flag=True, help="Print findings as JSON.")
@click.option("--rules", "list_rules", is_flag=True, help="List every rule and exit.")
@click.option(
    "--judge", is_flag=True, help="Also ask the configured model about each reported claim."
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Processes that check guides (default: one per CPU for many guides).",
)
@pass_ctx
def check(
    ctx: Context, ids, as_json: bool, list_rules: bool, judge: bool, jobs: int | None
) -> None:
    """Check guides against their records; exit 1 on any error finding."""
    if list_rules:
        from generator.checks import RULE_DOCS  # the rules' examples, needed only here

        for rule in RULE_DOCS:
            click.echo(f"{rule.id:26} {rule.severity:7} [{', '.join(rule.sections)}] {rule.doc}")
        return
    warnings: list[str] = []
    guide_ids_, slugs = split_ids(ids)
    results: list[GuideCheck] = []
    if guide_ids_ or not slugs:
        plan = plan_check(ctx.project, guide_ids_, warnings)  # reads no rule when unchanged
        if plan.results is not None:
            results = plan.results
        else:
            from generator.checks import check_guides

            results = check_guides(ctx.project, guide_ids_, jobs=jobs, warnings=warnings, plan=plan)
    for warning in warnings:
        warn(str(warning))
    kinds = {result.id: "guide" for result in results}
    articles: list[GuideCheck] = []
    if slugs or (not ids and article_store(ctx.project.guides.dir).ids()):
        from generator.review.articles import check_articles

        articles = check_articles(ctx.project, slugs or None)
        kinds.update({result.id: "article" for result in articles})
    if judge:
        from generator.checks import judge_guides

        opinions = judge_guides(ctx.project, [r.id for r in results if r.status != "missing"])
        for result in results:
            result.findings.extend(opinions.get(result.id, []))
    results += articles
    failed = any(result.errors for result in results)
    if as_json:
        rows = [{**result.as_json(), "kind": kinds[result.id]} for result in results]
        click.echo(json.dumps({"guides": rows}, indent=2))
    else:
        lines = []  # one write: a line per guide adds up at 30,000 guides
        shade = paint if use_colour() else lambda text, kind: text
        errors = warnings_ = 0
        for result in results:
            e, w = result.errors, result.warnings
            errors, warnings_ = errors + e, warnings_ + w
            lines.append(
                f"{shade(result.id, 'id')}: {result.status}, "
                f"{tally(e, 'error')}, {tally(w, 'warning', 'warning')}"
            )
            lines += [
                f"  {shade(f'{f.severity:7}', f.severity)} {f.rule} [{f.section}]: {f.message}"
                for f in result.findings
            ]
        if lines:
            click.echo("\n".join(lines))
        click.echo(
            f"{'checked' if failed else paint('checked', 'success')} "
            f"{plural(len(results), 'guide')}: {tally(errors, 'error')}, "
            f"{tally(warnings_, 'warning', 'warning')}"
            + ("; approval and publishing are refused until the errors are fixed" if failed else "")
        )
    if failed:
        sys.exit(1)
