"""Link checks that earn the Checked date: probes run per host and recorded in the ledger."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from generator.core.clock import now as clock_now
from generator.core.errors import PrepguideError
from generator.core.proxies import environment_proxies
from generator.sources.citations import resolve_originals
from generator.sources.records import Source
from generator.verify.ledger import Ledger, LedgerRow
from generator.verify.probe import (
    HOST_INTERVAL,
    LinkChecker,
    Probe,
    Resolver,
    describe,
    host_key,
    make_client,
    pin_resolver,
    system_resolve,
)


class VerifyError(PrepguideError):
    """A verification cannot be recorded as asked."""


@dataclass(frozen=True)
class Target:
    """One URL to check and the records that cite it."""

    url: str
    ids: tuple[str, ...]


@dataclass(frozen=True)
class VerifyRow:
    """One line of the report: a URL of a record and its status now."""

    id: str
    url: str
    status: str | None
    http_status: int | None
    checked: date | None
    final_url: str | None
    error: str | None = None

    @property
    def live(self) -> bool:
        return self.status == "live"

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "url": self.url,
            "status": self.status,
            "http_status": self.http_status,
            "checked": self.checked.isoformat() if self.checked else None,
            "final_url": self.final_url,
        }


def collect_targets(sources: Iterable[Source]) -> list[Target]:
    """Return every distinct source and citation URL, with the ids citing it, in order."""
    cited: dict[str, list[str]] = {}
    for source in sources:
        for original in source.originals():
            if original.url:
                ids = cited.setdefault(original.url, [])
                if source.key not in ids:
                    ids.append(source.key)
    return [Target(url=url, ids=tuple(ids)) for url, ids in cited.items()]


def probe_row(target: Target, probe: Probe, at: datetime) -> LedgerRow:
    """Return the ledger row of one probe."""
    return LedgerRow(
        at=at,
        url=target.url,
        ids=list(target.ids),
        outcome=probe.outcome,
        method=probe.method,
        http_status=probe.http_status,
        final_url=probe.final_url,
        fingerprint=probe.fingerprint,
        error=probe.error,
    )


class CheckedRows(list):
    """The rows of one run; `offline` is True when the run looked offline."""

    offline: bool = False


async def check_links(
    targets: Sequence[Target],
    ledger: Ledger,
    *,
    timeout: float,
    concurrency: int,
    host_interval: float = HOST_INTERVAL,
    now: Callable[[], datetime] = clock_now,
    on_result: Callable[[LedgerRow], None] | None = None,
    resolver: Resolver = system_resolve,
    allow_internal: bool = False,
    public_hosts: Iterable[str] = (),
    proxies: dict[str, str] | None = None,
) -> CheckedRows:
    """Check targets, hosts concurrently and each host politely; append each result at once.

    A failure that may only mean "no network" (no DNS answer, refused, unreachable) waits
    until some host resolves or answers; if none ever does, the run looks offline and those
    links are recorded as inconclusive, which never counts toward dead. proxies maps a
    scheme to a proxy URL (None: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY).
    """
    by_host: dict[str, list[Target]] = {}
    for target in targets:
        by_host.setdefault(host_key(target.url), []).append(target)
    limit = asyncio.Semaphore(concurrency)
    rows = CheckedRows()
    held: list[tuple[Target, Probe, datetime]] = []

    def record(target: Target, probe: Probe, at: datetime) -> None:
        row = probe_row(target, probe, at)
        ledger.append([row])
        rows.append(row)
        if on_result:
            on_result(row)

    proxies = environment_proxies() if proxies is None else proxies
    async with contextlib.AsyncExitStack() as clients:
        client = await clients.enter_async_context(make_client(timeout))
        via = {
            url: await clients.enter_async_context(make_client(timeout, url))
            for url in set(proxies.values())
        }
        checker = LinkChecker(
            client,
            timeout=timeout,
            host_interval=host_interval,
            resolver=resolver,
            allow_internal=allow_internal,
            public_hosts=public_hosts,
            proxied={scheme: via[url] for scheme, url in proxies.items()},
        )
        pin_resolver(client, checker)

        async def run_host(host_targets: list[Target]) -> None:
            async with limit:
                for target in host_targets:
                    try:
                        probe = await checker.probe(target.url)
                    except Exception as exc:  # a hostile answer fails its link, not the run
                        probe = Probe("failure", "GET", error=describe(exc))
                    if probe.offline_sign and not checker.reached:
                        held.append((target, probe, now()))
                        continue
                    record(target, probe, now())
                    if checker.reached and held:
                        for waiting in list(held):
                            held.remove(waiting)
                            record(*waiting)

        await asyncio.gather(*(run_host(group) for group in by_host.values()))
    rows.offline = bool(held) and not checker.reached
    for target, probe, at in held:
        if rows.offline:
            error = f"{probe.error} (no host resolved or answered in this run)"
            probe = Probe("inconclusive", probe.method, error=error)
        record(target, probe, at)
    return rows


def due_targets(targets: Sequence[Target], ledger: Ledger, today: date) -> list[Target]:
    """Return targets not yet settled today, so an interrupted run resumes where it stopped."""
    due = []
    for target in targets:
        done = any(
            row.day == today and row.outcome != "inconclusive"
            for row in ledger.rows_for(target.url)
        )
        if not done:
            due.append(target)
    return due


def record_manual(
    ledger: Ledger,
    source: Source,
    by: str,
    *,
    url: str | None = None,
    now: Callable[[], datetime] = clock_now,
) -> list[LedgerRow]:
    """Record that an editor verified a record's originals (or one of its URLs) by hand."""
    if not by.strip():
        raise VerifyError("--by needs the editor's name", record_id=source.key, rule="verify")
    urls = [original.url for original in source.originals() if original.url]
    if url is not None:
        if url not in urls:
            raise VerifyError(
                f"{url} is not a URL of this record; choose one of: {', '.join(urls) or 'none'}",
                path=source.path,
                record_id=source.key,
                field="url",
                rule="verify.manual",
            )
        urls = [url]
    if not urls:
        raise VerifyError(
            "the record has no URL to verify; add `url:` first",
            path=source.path,
            record_id=source.key,
            field="url",
            rule="verify.manual",
        )
    at = now()
    rows = [
        LedgerRow(at=at, url=u, ids=[source.key], outcome="manual", method="manual", by=by.strip())
        for u in urls
    ]
    ledger.append(rows)
    return rows


def report(
    sources: Iterable[Source], ledger: Ledger, latest: dict[str, LedgerRow] | None = None
) -> list[VerifyRow]:
    """Return one row per URL of each record: its status now and its effective Checked date.

    A URL checked in this run reports this run's outcome (an inconclusive answer says so even
    when an earlier verdict stands); other URLs report their lasting state from the ledger.
    """
    latest = latest or {}
    rows = []
    for source in sources:
        for view in resolve_originals(source, ledger):
            if not view.url:
                continue
            state = ledger.state(view.url)
            fresh = latest.get(view.url)
            status = state.status
            http_status, final_url, error = state.http_status, state.final_url, None
            if fresh is not None:
                http_status, final_url, error = fresh.http_status, fresh.final_url, fresh.error
                if fresh.outcome == "inconclusive":
                    status = "inconclusive"
            rows.append(
                VerifyRow(
                    id=source.key,
                    url=view.url,
                    status=status,
                    http_status=http_status,
                    checked=view.checked,
                    final_url=final_url,
                    error=error,
                )
            )
    return rows
