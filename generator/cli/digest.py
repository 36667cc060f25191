"""The `digest` commands: build a week's issue, send it once per subscriber, unsubscribe."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import click

from generator.cli.common import Context, counted, fail, failed, paint, pass_ctx, warn
from generator.cli.root import cli
from generator.core import plural


def _week(project, text: str | None):
    from generator.digest import last_full_week, parse_week

    return parse_week(text) if text else last_full_week(project.today)


def _secret() -> str:
    secret = os.environ.get("PREPGUIDE_DIGEST_SECRET", "")
    if len(secret) < 16:
        fail(
            "set PREPGUIDE_DIGEST_SECRET to a private value of at least 16 characters; "
            "it signs every unsubscribe link",
            2,
        )
    return secret


@cli.group()
def digest() -> None:
    """The weekly digest: build an issue, send it, take unsubscribes."""


@digest.command("build")
@click.option("--week", default=None, metavar="YYYY-Www", help="Default: the last full week.")
@pass_ctx
def digest_build(ctx: Context, week: str | None) -> None:
    """Freeze a week's issue as digest/<week>.eml from published guides."""
    from generator.digest import freeze_issue, published_records

    project = ctx.project
    chosen = _week(project, week)
    _, problems = published_records(project)
    for problem in problems:
        warn(str(problem))
    frozen = freeze_issue(project, chosen)
    if frozen.outcome == "empty":
        click.echo(f"{chosen.label}: no guides were first published that week; nothing to send")
        return
    click.echo(frozen.issue.opening)
    for group in frozen.issue.groups:
        click.echo(f"  {group.topic or 'More write-ups'}:")
        for item in group.items:
            click.echo(f"    {item.title} ({item.company}, {item.year or 'undated'})")
    if frozen.outcome == "kept":
        click.echo(f"kept {frozen.path}: sending has begun, so the issue stays as it was sent")
    else:
        click.echo(f"{paint('wrote', 'success')} {frozen.path}")


@digest.command("send")
@click.option("--week", required=True, metavar="YYYY-Www", help="The frozen issue to send.")
@click.option(
    "--to",
    "subscribers_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="CSV with a header row: email,status[,name].",
)
@click.option("--dry-run", is_flag=True, help="Print the counts; send nothing.")
@click.option(
    "--resend-uncertain", is_flag=True, help="Resend messages whose delivery a crash left unknown."
)
@pass_ctx
def digest_send(ctx: Context, week: str, subscribers_file: Path, dry_run: bool, resend_uncertain):
    """Send a frozen issue to each confirmed subscriber once."""
    from generator.digest import (
        MailError,
        build,
        read_frozen,
        read_subscribers,
        read_suppressions,
        send,
        send_lock,
    )

    project = ctx.project
    chosen = _week(project, week)
    secret = _secret()
    path = build.issue_path(project, chosen)
    if not path.exists():
        fail(f"{path}: no frozen issue; run `prepguide digest build --week {chosen.label}`", 2)
    try:
        parts = read_frozen(path.read_bytes())
    except MailError as exc:
        fail(f"{path}: the frozen issue cannot be sent: {exc}; nothing was sent", 1)
    settings = None
    if not dry_run:
        settings = send.smtp_settings(
            os.environ.get("PREPGUIDE_SMTP_URL"),
            os.environ.get("PREPGUIDE_SMTP_USER"),
            os.environ.get("PREPGUIDE_SMTP_PASSWORD"),
        )
    subscribers, problems = read_subscribers(subscribers_file)
    for problem in problems:
        warn(str(problem))
    lock = (
        contextlib.nullcontext()
        if dry_run
        else send_lock(project.workspace.digest_dir, chosen.label)
    )
    with lock:
        suppressions = read_suppressions(build.suppression_path(project))
        for notice in suppressions.notices:
            warn(str(notice))
        plan = send.plan_send(
            chosen.label,
            subscribers,
            suppressions.keys,
            send.deliveries(build.ledger_path(project), chosen.label),
            resend_uncertain,
        )
        click.echo(
            f"{chosen.label}: {len(plan.to_send)} to send, {plan.already_sent} already sent, "
            f"{plan.suppressed} unsubscribed, {plan.unconfirmed} not confirmed, "
            f"{counted(len(plan.uncertain), 'uncertain', 'warning')}"
        )
        for address in plan.uncertain:
            click.echo(
                f"  uncertain {address}: a run stopped while sending; it may have arrived "
                "(resend with --resend-uncertain)"
            )
        if dry_run:
            click.echo("dry run: nothing sent")
            sys.exit(1 if plan.uncertain else 0)
        report = send.send_issue(
            plan,
            parts,
            settings=settings,
            secret=secret,
            ledger_path=build.ledger_path(project),
            per_minute=project.settings.digest.per_minute,
        )
    for warning in report.warnings:
        warn(warning)
    failures, unsure = len(report.failed), len(report.uncertain)
    click.echo(
        f"{paint(f'sent {report.sent}', 'success') if report.sent else 'sent 0'}, "
        f"{paint(f'failed {failures}', 'error') if failures else 'failed 0'}, "
        f"{paint(f'uncertain {unsure}', 'warning') if unsure else 'uncertain 0'}"
    )
    for address, detail in sorted(report.failed.items()):
        failed(address, detail)
    for address in report.uncertain:
        click.echo(f"  uncertain {address}: the server did not confirm; not resent", err=True)
    if report.failed or report.uncertain or plan.uncertain:
        if plan.uncertain:
            still = "is" if len(plan.uncertain) == 1 else "are"
            warn(
                f"{plural(len(plan.uncertain), 'recipient')} from an earlier run {still} still "
                "uncertain; check them, then resend with --resend-uncertain"
            )
        sys.exit(1)


@digest.command("unsubscribe")
@click.argument("token", help="The token from an unsubscribe link.")
@pass_ctx
def digest_unsubscribe(ctx: Context, token: str) -> None:
    """Verify an unsubscribe token and add its address to the suppression list."""
    from generator.digest import build, send

    address, damage = send.unsubscribe(_secret(), token, build.suppression_path(ctx.project))
    click.echo(f"unsubscribed {address}: no later issue is sent to it")
    if damage:
        warn(
            f"recorded, but {damage.replace('; nothing was sent', '')}; "
            "`digest send` refuses to run until it is fixed"
        )
