"""The `verify` command: link checks that earn Checked dates."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import TYPE_CHECKING

import click

from generator.cli.common import (
    Context,
    counted,
    error,
    fail,
    guide_ids,
    paint,
    pass_ctx,
    report_source_problems,
    warn,
)
from generator.cli.root import cli
from generator.core import plural
from generator.core.names import escape_controls

if TYPE_CHECKING:
    from generator.verify import VerifyRow


def _verify_line(row: VerifyRow) -> str:
    http = str(row.http_status) if row.http_status else "-"
    checked = f"checked {row.checked.isoformat()}" if row.checked else "never checked"
    status = paint(f"{row.status or 'unchecked':12}", "success" if row.live else "error")
    line = f"  {status} {http:>4}  {row.id}  {row.url}  ({checked})"
    if row.final_url and row.final_url != row.url:
        line += f"\n{'':20}-> {row.final_url}"
    if row.error:
        line += f"\n{'':20}{row.error}"
    return "\n".join(map(escape_controls, line.split("\n")))


def _verify_summary(rows: list[VerifyRow]) -> None:
    counts: dict[str, int] = {}
    live = {row.status for row in rows if row.live}
    for row in rows:
        counts[row.status or "unchecked"] = counts.get(row.status or "unchecked", 0) + 1
    click.echo(
        f"{plural(len(rows), 'link')}: "
        + ", ".join(
            counted(n, k, "success" if k in live else "error") for k, n in sorted(counts.items())
        )
    )
    changed = sorted({row.id for row in rows if row.status == "changed"})
    if changed:
        click.echo(f"source text changed; re-review the guides of: {', '.join(changed)}")
    if any(not row.live for row in rows):
        click.echo(
            "a guide citing a link that is not live cannot be approved or published: fix the "
            "url (or point it at an archived copy), or run `prepguide verify --manual ID --by NAME`"
        )


@cli.command()
@click.argument(
    "ids", nargs=-1, callback=guide_ids, help="Record ids to check (default: every record)."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON row per URL.")
@click.option("--concurrency", type=click.IntRange(min=1), default=None, help="Hosts at once.")
@click.option("--force", is_flag=True, help="Re-check links already checked today.")
@click.option(
    "--manual",
    "manual_id",
    metavar="ID",
    callback=guide_ids,
    help="Record an editor's check of a record.",
)
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
        warn(str(problem))
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
            click.echo(escape_controls(f"verified {row.url} by {row.by} on {row.day.isoformat()}"))
        return
    ok = report_source_problems(project) == 0
    known = project.sources.by_id()
    for missing in sorted(set(ids) - set(known)):
        error(f"no valid source record with id {missing!r}")
        ok = False
    chosen = [known[i] for i in dict.fromkeys(ids) if i in known] if ids else list(known.values())
    targets = collect_targets(chosen)
    due = list(targets) if force else due_targets(targets, ledger, project.today)
    settings = project.settings.verify
    if not as_json:
        click.echo(
            f"checking {plural(len(due), 'link')} ({len(targets) - len(due)} already checked today)"
        )
    fresh = asyncio.run(
        check_links(
            due,
            ledger,
            timeout=settings.timeout,
            concurrency=concurrency or settings.concurrency,
            host_interval=settings.host_interval,
        )
    )
    if fresh.offline:
        click.echo(
            "no network? no host resolved or answered in this run; the links it could not "
            "reach are inconclusive, not failing. Run verify again when online.",
            err=True,
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
