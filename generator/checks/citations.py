"""citations.*: every original has an http(s) URL, a published date and a fresh, live check."""

from __future__ import annotations

from datetime import timedelta

from generator.checks.base import CheckContext, ParsedGuide, finding, quote, record_file
from generator.core.names import plural
from generator.guides.document import ORIGINALS
from generator.guides.findings import Finding, Severity
from generator.sources.citations import CitationView
from generator.sources.records import is_web_url


def _verify_hint(ctx: CheckContext) -> str:
    key = ctx.source.key
    return (
        f"run `prepguide verify {key}` (or, after checking the page yourself, "
        f"`prepguide verify --manual {key} --by NAME`)"
    )


def check_citations(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require an http(s) URL, a published date, and a fresh, live verification per original."""
    return citation_findings(ctx)


def citation_findings(ctx: CheckContext) -> list[Finding]:
    """Judge the originals' records against today; the guide text plays no part."""
    where = record_file(ctx.source)
    findings = []

    def add(rule: str, message: str, severity: Severity = "error") -> None:
        findings.append(finding(rule, severity, ORIGINALS, message))

    for index, view in enumerate(ctx.originals):
        label = quote(view.title, 90)
        field = "" if index == 0 else f"citations[{index - 1}]."
        if not view.url or not is_web_url(view.url):
            add(
                "citations.url",
                f"{label} has no http(s) URL; add `{field}url:` to {where}, then "
                f"{_verify_hint(ctx)}",
            )
        if view.published is None:
            add(
                "citations.published",
                f"{label} has no published date; add `{field}published: YYYY-MM-DD` "
                f"(the original's full date) to {where}",
            )
        if view.published and view.published > ctx.today:
            add(
                "citations.dates",
                f"{label} is published {view.published}, after today ({ctx.today}); "
                f"correct `{field}published` in {where}",
            )
        if view.checked is None:
            if view.url:
                add(
                    "citations.unverified",
                    f"{label} is unverified (no Checked date); {_verify_hint(ctx)}",
                )
            else:
                add(
                    "citations.unverified",
                    f"{label} is unverified (no Checked date); add its URL, then "
                    f"{_verify_hint(ctx)}",
                )
        else:
            if view.published and view.checked < view.published:
                add(
                    "citations.dates",
                    f"{label} is Checked {view.checked}, before it was published "
                    f"({view.published}); correct the dates in {where} or {_verify_hint(ctx)}",
                )
            if view.checked > ctx.today:
                add(
                    "citations.dates",
                    f"{label} is Checked {view.checked}, after today ({ctx.today}); "
                    f"correct `{field}checked` in {where}",
                )
            elif view.checked < ctx.today - timedelta(days=ctx.freshness_days):
                add(
                    "citations.stale",
                    f"{label} was last Checked {view.checked}, more than "
                    f"{plural(ctx.freshness_days, 'day')} ago (checks.freshness_days); "
                    f"{_verify_hint(ctx)}",
                )
        findings.extend(_link_status(view, label, ctx))
    return findings


def _link_status(view: CitationView, label: str, ctx: CheckContext) -> list[Finding]:
    status = view.link_status
    if status in (None, "live"):
        return []
    key = ctx.source.key
    manual = f"`prepguide verify --manual {key} --by NAME --url {view.url}`"
    fixes = {
        "dead": "the page is gone: fix the URL in the record, or add an archive URL",
        "failing": "the link fails: fix the URL in the record, or add an archive URL",
        "not-live": "the link does not resolve to a live page: fix the URL, or add an archive URL",
        "changed": f"the page changed since it was checked: re-read it, then confirm with {manual}",
        "inconclusive": "the link checker could not decide (e.g. blocked): open the page "
        f"yourself and confirm with {manual}",
    }
    severity: Severity = "warning" if status == "inconclusive" else "error"
    fix = fixes.get(status, "fix the URL in the record, or add an archive URL")
    if status not in ("changed", "inconclusive"):
        fix += f", then run `prepguide verify {key}` (or confirm by hand with {manual})"
    message = f"{label} <{view.url}> is {status} at the last verification; {fix}"
    return [finding("citations.link", severity, ORIGINALS, message)]
