"""The `review` commands: queue, evidence, diffs, transitions, audit log, web page."""

from __future__ import annotations

import json
import os
import sys
from functools import partial

import click

from generator import review as review_mod
from generator.cli.common import Context, error, fail, guide_ids, paint, pass_ctx, warn
from generator.cli.root import cli
from generator.core import ConfigError, PrepguideError, StorageError, plural
from generator.core.names import escape_controls
from generator.guides.store import article_store

BY_HELP = "The reviewer (default: PREPGUIDE_REVIEWER, then [review] reviewer in prepguide.toml)."


@cli.group()
def review() -> None:
    """Review guides: list, diff, approve, reject, withdraw, audit log, web page."""


def _target(ctx: Context, guide_id: str | None):
    """Return the project (an article's view of it for article:SLUG) and the id within it."""
    if guide_id is not None and guide_id.startswith("article:"):
        from generator.review.articles import article_view

        return article_view(ctx.project), guide_id[len("article:") :]
    return ctx.project, guide_id


def _flag_text(row) -> str:
    return ", ".join(row.flags.labels()) or "-"


@review.command("list")
@click.option(
    "--status",
    type=click.Choice(review_mod.STATUSES),
    default=None,
    help="Only guides in this review status.",
)
@click.option("--json", "as_json", is_flag=True, help="Print rows as JSON.")
@click.option(
    "--kind",
    type=click.Choice(["guide", "article"]),
    default=None,
    help="Only guides or only articles (default: both).",
)
@pass_ctx
def review_list(ctx: Context, status: str | None, as_json: bool, kind: str | None) -> None:
    """List guides and articles with status, flags and finding counts."""
    warnings: list[str] = []
    rows: list[dict] = []
    if kind != "article":
        plan = review_mod.plan_queue(ctx.project, warnings)  # reads no rule when unchanged
        rows = (
            plan.rows
            if plan.rows is not None
            else review_mod.queue_index(ctx.project, None, warnings, plan=plan)
        )
        rows = [row for row in rows if status is None or row["status"] == status]
    if kind != "guide" and article_store(ctx.project.guides.dir).ids():  # ids article:SLUG
        from generator.review.articles import article_queue
        from generator.review.queue import index_row

        rows += [index_row(item) for item in article_queue(ctx.project, status)]
    for warning in warnings:
        warn(str(warning))
    if as_json:
        extra = review_mod.INDEX_EXTRA
        shown = [{key: value for key, value in row.items() if key not in extra} for row in rows]
        click.echo(json.dumps({"guides": shown}, indent=2))
        return
    width = max([40, *(len(row["id"]) for row in rows)])
    lines = [f"{'ID':{width}} {'STATUS':10} {'ERR':>3} {'WARN':>4}  FLAGS"]
    for row in rows:  # one write: a line per guide adds up at 30,000 guides
        live = ""
        if row["live_hash"] and row["status"] not in ("approved", "published"):
            live = f"  [live: {'published' if row['live_published'] else 'approved'} version]"
        flags = ", ".join(row["labels"]) or "-"
        lines.append(
            f"{row['id']:{width}} {row['status']:10} {row['errors']:>3} {row['warnings']:>4}  "
            f"{flags}{live}" + (f"  ({row['problem']})" if row["problem"] else "")
        )
    click.echo("\n".join(lines))


@review.command("show")
@click.argument("guide_id", callback=guide_ids, help="The guide to show.")
@pass_ctx
def review_show(ctx: Context, guide_id: str) -> None:
    """Show one guide's status, provenance, findings, evidence and text."""
    if guide_id.startswith("article:"):
        _show_article(ctx, guide_id)
        return
    from generator.checks import (  # the rules: loaded only by the commands that run them
        cached_findings,
        cached_opinions,
        check_context,
        claim_evidence,
        doc_evidence,
        findings_cache,
        marked,
    )
    from generator.checks.runner import prime_records
    from generator.review import spans

    with findings_cache(ctx.project) as cache:
        prime_records(ctx.project, cache)  # reads this guide's record, not every record
        findings_of = partial(cached_findings, ctx.project, cache)
        row = review_mod.inspect(ctx.project, guide_id, findings_of)
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
    if row.live_failures:
        click.echo(
            f"  live      fails current checks ({', '.join(row.live_failures)}); it stays on "
            "the site unless published with --strict"
        )
    click.echo(f"  revisions {len(ctx.project.guides.revisions(guide_id))}")
    remarks = review_mod.remarks_of(ctx.project, guide_id)
    assignee = review_mod.assignees(ctx.project).get(guide_id)
    if assignee:
        click.echo(f"  assigned  {escape_controls(assignee)}")
    for entry in remarks:
        if entry.action == "comment":
            said = escape_controls(f"{entry.actor} at {entry.time}: {entry.note}")
            click.echo(f"  comment   {said}")
    for warning in row.source.warnings if row.source else []:
        click.echo(f"  warning   {warning.field}: {warning.message}")
    click.echo(f"findings: {plural(row.errors, 'error')}, {plural(row.warnings, 'warning')}")
    for f in row.findings:
        click.echo(
            f"  {paint(f'{f.severity:7}', f.severity)} {f.rule:24} [{f.section}] {f.message}"
        )
    if row.source:
        claims = spans.locate_claims(spans.reports_text(row.doc), spans.source_fields(row.source))
        click.echo(f"figures and quotes in 'What {row.doc.meta.company} reports': {len(claims)}")
        for claim in claims:
            where = ", ".join(sorted({span.field for span in claim.spans})) or "NOT FOUND"
            click.echo(f"  {claim.kind:6} {claim.text!r}: {where}")
        context = check_context(ctx.project, row.source)
        for f in cached_opinions(ctx.project, row.doc, context):
            click.echo(f"  {f.severity:7} {f.rule:24} [{f.section}] {f.message}")
        click.echo("claims beside their evidence (⟦…⟧ marks what the evidence lacks):")
        for n, item in enumerate(claim_evidence(row.doc.body, context, doc_evidence(row.doc)), 1):
            verdict = "verbatim" if item.verbatim else "supported" if item.supported else "CHECK"
            click.echo(f"  {n}. [{verdict}] {marked(item)}")
            click.echo(f"     evidence: {item.evidence}")
            for mark in item.marks:
                click.echo(f"     {mark.kind}: {mark.reason}")
    click.echo("")
    click.echo(row.doc.body)


@review.command("diff")
@click.argument("guide_id", callback=guide_ids, help="The guide to diff.")
@click.option("--published", is_flag=True, help="Diff against the live (approved) version.")
@click.option(
    "--word",
    is_flag=True,
    help="Mark changed words inline, [-deleted-] and {+inserted+}, not whole lines.",
)
@pass_ctx
def review_diff(ctx: Context, guide_id: str, published: bool, word: bool) -> None:
    """Diff a guide against its previous revision, or the live version."""
    project, within = _target(ctx, guide_id)
    if published:
        diff = review_mod.diff_published(project, within)
        missing = "no approved or published version to compare with"
    else:
        diff = review_mod.diff_previous(project, within)
        missing = "no previous revision: this is the first version"
    if diff is None:
        click.echo(f"{guide_id}: {missing}")
    elif diff.empty:
        click.echo(f"{guide_id}: no differences ({diff.old_label} = {diff.new_label})")
    elif word:
        click.echo(f"--- {diff.old_label}\n+++ {diff.new_label}")
        for hunk in diff.hunks():
            where = f" {hunk.section}" if hunk.section else ""
            click.echo(paint(f"@@ -{hunk.old_line} +{hunk.new_line} @@{where}", "id"))
            click.echo("".join(_word(piece) for piece in hunk.pieces))
    else:
        click.echo(diff.text())


def _word(piece) -> str:
    kind = {"del": "error", "ins": "success"}.get(piece.kind)
    return paint(review_mod.marked(piece), kind) if kind else piece.text


def _reviewer(ctx: Context, by: str | None) -> str:
    """Return --by, else the configured reviewer; exit 2 when there is none."""
    name = by or review_mod.default_reviewer(ctx.project.settings, os.environ)
    if not name:
        fail(
            "name the reviewer with --by NAME, or set PREPGUIDE_REVIEWER or [review] reviewer "
            "in prepguide.toml",
            2,
        )
    return name


def _apply(project, action, guide_ids, **kwargs) -> None:
    project.guides.check_writable()  # fail before any change, not once per guide
    repaired, problems = review_mod.repair(project)
    for guide_id in repaired:
        click.echo(f"{guide_id}: settled a review action an interrupted run left", err=True)
    for problem in problems:
        warn(str(problem))
    refused = 0
    for guide_id in guide_ids:
        try:
            outcome = action(guide_id=guide_id, **kwargs)
        except StorageError:
            raise  # the disk or its permissions: every other guide would fail the same way
        except PrepguideError as exc:
            error(str(exc), "refused:")
            refused += 1
        else:
            click.echo(
                f"{paint(outcome.guide_id, 'id')}: {outcome.from_state} -> "
                f"{paint(outcome.to_state, 'success')} ({outcome.content_hash[:12]})"
            )
    if refused:
        sys.exit(1)


@review.command("approve")
@click.argument("guide_ids", nargs=-1, callback=guide_ids, help="Guide ids to approve.")
@click.option("--by", metavar="NAME", help=BY_HELP)
@click.option("--note", default=None, help="A note kept in the audit log.")
@click.option("--clean", is_flag=True, help="Approve every draft that has no findings at all.")
@pass_ctx
def review_approve(ctx: Context, guide_ids, by: str | None, note: str | None, clean: bool) -> None:
    """Approve the exact current text of guides with no error findings."""
    if not guide_ids and not clean:
        fail("name the guides to approve, or pass --clean to approve every clean draft", 2)
    by = _reviewer(ctx, by)
    articles = [g for g in guide_ids if g.startswith("article:")]
    if articles:
        _approve_articles(ctx, articles, by, note)
        guide_ids = tuple(g for g in guide_ids if not g.startswith("article:"))
        if not guide_ids:
            return
    project = ctx.project
    project.guides.check_writable()  # fail before any change, not once per guide
    repaired, problems = review_mod.repair(project)
    for guide_id in repaired:
        click.echo(f"{guide_id}: settled a review action an interrupted run left", err=True)
    for problem in problems:
        warn(str(problem))
    from generator.checks import cached_findings, findings_cache

    wanted = list(guide_ids) or project.guides.ids()
    warnings: list[str] = []
    with findings_cache(project, warnings) as cache:
        outcomes, refused = review_mod.approve_many(
            project,
            wanted,
            by=by,
            note=note,
            clean=clean,
            findings_of=partial(cached_findings, project, cache),
        )
    for warning in warnings:
        warn(str(warning))
    for exc in refused:
        error(str(exc), "refused:")
    for outcome in outcomes:
        click.echo(
            f"{paint(outcome.guide_id, 'id')}: {outcome.from_state} -> "
            f"{paint(outcome.to_state, 'success')} ({outcome.content_hash[:12]})"
        )
    if clean:
        click.echo(f"{paint('approved', 'success')} {plural(len(outcomes), 'clean draft')}")
    if refused:
        sys.exit(1)


@review.command("reject")
@click.argument("guide_id", callback=guide_ids, help="The guide to reject.")
@click.option("--by", metavar="NAME", help=BY_HELP)
@click.option("--note", required=True, help="Why: what must change.")
@pass_ctx
def review_reject(ctx: Context, guide_id: str, by: str | None, note: str) -> None:
    """Reject a draft with a note."""
    by = _reviewer(ctx, by)
    project, within = _target(ctx, guide_id)
    _apply(project, partial(review_mod.reject, project), [within], by=by, note=note)


@review.command("withdraw")
@click.argument("guide_id", callback=guide_ids, help="The guide to withdraw.")
@click.option("--by", metavar="NAME", help=BY_HELP)
@click.option(
    "--reason",
    required=True,
    type=click.Choice(review_mod.WITHDRAW_REASONS, case_sensitive=False),
    help="Why it comes off the site (kept in the audit log).",
)
@pass_ctx
def review_withdraw(ctx: Context, guide_id: str, by: str | None, reason: str) -> None:
    """Take a guide off the next publish."""
    by = _reviewer(ctx, by)
    project, within = _target(ctx, guide_id)
    action = partial(review_mod.withdraw, project)
    _apply(project, action, [within], by=by, reason=reason)


@review.command("comment")
@click.argument("guide_id", callback=guide_ids, help="The guide to comment on.")
@click.option("--text", required=True, help="The comment, kept in the audit log.")
@click.option("--by", metavar="NAME", help=BY_HELP)
@pass_ctx
def review_comment(ctx: Context, guide_id: str, text: str, by: str | None) -> None:
    """Leave a comment on a guide for the other editors."""
    by = _reviewer(ctx, by)
    _remark(lambda: review_mod.comment(ctx.project, guide_id, by=by, text=text))
    click.echo(f"{guide_id}: comment by {escape_controls(by)} kept in the audit log")


@review.command("assign")
@click.argument("guide_id", callback=guide_ids, help="The guide to assign.")
@click.option("--to", metavar="NAME", help="The reviewer who takes it.")
@click.option("--nobody", is_flag=True, help="Take the assignment off.")
@click.option("--by", metavar="NAME", help=BY_HELP)
@pass_ctx
def review_assign(
    ctx: Context, guide_id: str, to: str | None, nobody: bool, by: str | None
) -> None:
    """Assign a guide to a reviewer (the queue filters by assignee)."""
    if bool(to) == nobody:
        fail("give --to NAME, or --nobody to take the assignment off", 2)
    by = _reviewer(ctx, by)
    entry = _remark(lambda: review_mod.assign(ctx.project, guide_id, by=by, to=to))
    who = f"assigned to {escape_controls(entry.note)}" if entry.note else "assigned to nobody"
    click.echo(f"{guide_id}: {who}")


def _remark(write):
    """Write a comment or an assignment; a refusal exits 1."""
    try:
        return write()
    except StorageError:
        raise
    except PrepguideError as exc:
        fail(str(exc))


@review.command("log")
@click.argument(
    "guide_id", required=False, callback=guide_ids, help="Only this guide (default: all)."
)
@click.option("--json", "as_json", is_flag=True, help="Print entries as JSON Lines.")
@pass_ctx
def review_log(ctx: Context, guide_id: str | None, as_json: bool) -> None:
    """Print the audit trail, oldest first; report unreadable lines and show the rest."""
    project, within = _target(ctx, guide_id)
    trail = review_mod.audit_log(project, within)
    for problem in trail.problems:
        if problem.rule == "audit.torn":
            warn(str(problem))
        else:
            error(str(problem))
    for entry in trail.entries:
        if as_json:
            click.echo(entry.model_dump_json())
            continue
        made = f"{entry.backend or '-'}/{entry.model or '-'}"
        line = (
            f"{entry.time} {entry.guide} {entry.action} by {entry.actor}: "
            f"{entry.from_state or '-'} -> {entry.to_state} "
            f"[{(entry.content_hash or '-')[:12]}] {made} prompt {(entry.prompt_hash or '-')[:12]} "
            f"source {(entry.source_hash or '-')[:12]}" + (f" - {entry.note}" if entry.note else "")
        )
        click.echo(escape_controls(line))  # names and notes are anyone's text
    if any(problem.rule != "audit.torn" for problem in trail.problems):
        sys.exit(1)


@review.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="A Host name reviewers use; needed (one or more) to listen beyond loopback.",
)
@pass_ctx
def review_serve(ctx: Context, host: str, port: int, allow_hosts: tuple[str, ...]) -> None:
    """Serve the review page (local only by default)."""
    try:
        from generator.review import web as webapp
    except ImportError as exc:
        fail(f"the review page needs Flask: pip install 'prepguide[review]' ({exc})", 2)
    try:
        server = webapp.make_server(ctx.project.workspace.root, host, port, allow_hosts)
    except ConfigError as exc:
        fail(str(exc), 2)
    click.echo(f"review page on http://{host}:{server.server_port}/ (Ctrl-C to stop)")
    if not webapp.is_loopback(host):
        warn(
            f"listening beyond this machine for {', '.join(allow_hosts)}; "
            "anyone who can reach it can review"
        )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped")


def _approve_articles(ctx: Context, ids: list[str], by: str, note: str | None) -> None:
    """Approve articles: the exact text, refused while their checks report errors."""
    from generator.review.articles import article_view

    view = article_view(ctx.project)
    slugs = [guide_id[len("article:") :] for guide_id in ids]
    view.guides.check_writable()
    outcomes, refused = review_mod.approve_many(
        view, slugs, by=by, note=note, findings_of=view.findings
    )
    for exc in refused:
        error(f"article:{exc}" if not str(exc).startswith("article:") else str(exc), "refused:")
    for outcome in outcomes:
        click.echo(
            f"{paint('article:' + outcome.guide_id, 'id')}: {outcome.from_state} -> "
            f"{paint(outcome.to_state, 'success')} ({outcome.content_hash[:12]})"
        )
    if refused:
        sys.exit(1)


def _show_article(ctx: Context, guide_id: str) -> None:
    """Show an article: status, provenance, findings, each block beside its own record."""
    from generator.review.articles import article_view, review_article

    view = article_view(ctx.project)
    slug = guide_id[len("article:") :]
    row = review_article(view, slug)
    if row.doc is None:
        fail(row.problem or f"no article {guide_id!r}")
    made = row.doc.meta.provenance
    click.echo(f"{row.id}: {row.status}" + (f" ({_flag_text(row)})" if row.flags.labels() else ""))
    click.echo(f"  content   {row.doc.content_hash}")
    click.echo(
        f"  made by   {made.backend}"
        + (f" {made.model}" if made.model else "")
        + f" at {made.generated_at}; prompt {made.prompt_hash[:12]}; inputs {made.source_hash[:12]}"
    )
    if row.state and row.state.by:
        click.echo(f"  {row.status} by {row.state.by} at {row.state.at}")
    click.echo(f"  revisions {len(view.guides.revisions(slug))}")
    if row.problem:
        warn(row.problem)
    click.echo(f"findings: {plural(row.errors, 'error')}, {plural(row.warnings, 'warning')}")
    for f in row.findings:
        click.echo(
            f"  {paint(f'{f.severity:7}', f.severity)} {f.rule:24} [{f.section}] {f.message}"
        )
    from generator.review.articles import block_evidence

    for block in block_evidence(view, row.doc):
        source = block["source"]
        claims = block["claims"]
        click.echo(
            f"figures and quotes in the block of {source.key} ({source.company}), against its "
            f"own record: {len(claims)}"
        )
        for claim in claims:
            where = ", ".join(sorted({span.field for span in claim.spans})) or "NOT FOUND"
            click.echo(f"  {claim.kind:6} {claim.text!r}: {where}")
    for evidence in row.doc.meta.evidence:
        click.echo(f"  quote for {evidence.source}: {evidence.quote!r}")
    click.echo("")
    click.echo(row.doc.body)
