"""Link checks against a loopback site: every outcome, drift, dead links and politeness."""

from __future__ import annotations

import asyncio
import socket
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from fakes.link_server import LinkServer

from generator import __version__
from generator.verify.ledger import Ledger, LedgerRow, derive
from generator.verify.probe import USER_AGENT, fingerprint, is_root_redirect
from generator.verify.run import Target, check_links

TIMEOUT = 0.3
DAY1 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return Ledger.load(tmp_path / "sources" / ".verification.jsonl")


def run(site, ledger, paths, *, at=DAY1, interval=0.0, concurrency=4, ids=("rec",)):
    targets = [Target(site.url(path), ids) for path in paths]
    return asyncio.run(
        check_links(
            targets,
            ledger,
            timeout=TIMEOUT,
            concurrency=concurrency,
            host_interval=interval,
            now=lambda: at,
        )
    )


def by_path(site, rows) -> dict[str, LedgerRow]:
    return {row.url.removeprefix(site.base): row for row in rows}


def test_every_outcome(site, ledger):
    paths = [
        "/live",
        "/moved",
        "/usurped",
        "/gone",
        "/removed",
        "/hang",
        "/broken",
        "/login",
        "/forbidden",
        "/throttled",
        "/busy",
        "/no-head",
        "/loop/4",
        "/loop/5",
    ]
    rows = by_path(site, run(site, ledger, paths))
    status = {path: ledger.link_status(site.url(path)) for path in paths}

    assert rows["/live"].outcome == "live" and rows["/live"].http_status == 200
    assert rows["/live"].fingerprint.startswith("sha256:")
    assert status["/live"] == "live"
    assert ledger.last_checked(site.url("/live")) == DAY1.date()

    assert rows["/moved"].outcome == "live"
    assert rows["/moved"].final_url == site.url("/new-home")
    assert status["/moved"] == "live"

    assert rows["/usurped"].outcome == "not-live"
    assert rows["/usurped"].final_url == site.url("/")
    assert status["/usurped"] == "not-live"

    for path, code in (("/gone", 404), ("/removed", 410), ("/broken", 500)):
        assert rows[path].outcome == "failure" and rows[path].http_status == code, path
        assert status[path] == "failing", "one failure never makes a link dead"
    assert rows["/hang"].outcome == "failure" and rows["/hang"].http_status is None
    assert "timed out after 0.3s" in rows["/hang"].error
    assert status["/hang"] == "failing"

    for path, code in (("/login", 401), ("/forbidden", 403), ("/throttled", 429), ("/busy", 503)):
        assert rows[path].outcome == "inconclusive" and rows[path].http_status == code, path
        assert status[path] == "inconclusive"

    assert rows["/no-head"].outcome == "live" and rows["/no-head"].method == "GET"
    assert site.requests("/no-head") == ["HEAD", "GET"]

    assert rows["/loop/4"].outcome == "live", "5 redirects are followed"
    assert rows["/loop/5"].outcome == "failure" and "more than 5 redirects" in rows["/loop/5"].error

    for path in paths:
        if status[path] != "live":
            assert ledger.last_checked(site.url(path)) is None, path


def test_requests_are_head_first_and_honest(site, ledger):
    run(site, ledger, ["/live", "/gone"])
    assert site.requests("/live") == ["HEAD", "GET"], "a live page is fetched once for its text"
    assert site.requests("/gone") == ["HEAD"], "a 404 answer to HEAD needs no GET"
    assert {hit.user_agent for hit in site.hits} == {f"prepguide/{__version__} (+link checker)"}
    assert USER_AGENT.startswith("prepguide/")


def test_timeout_does_not_wait_for_the_server(site, ledger):
    start = time.monotonic()
    rows = run(site, ledger, ["/hang"])
    assert rows[0].outcome == "failure"
    assert site.requests("/hang") == ["HEAD"], "a timed-out HEAD is not retried with GET"
    assert time.monotonic() - start < 2.0, "the server hangs for 3 s; the timeout is 0.3 s"


def test_changed_text_flags_drift_until_an_editor_verifies(site, ledger, tmp_path):
    url = site.url("/changing")
    run(site, ledger, ["/changing", "/live"])
    day2 = DAY1 + timedelta(days=1)
    rows = by_path(site, run(site, ledger, ["/changing", "/live"], at=day2))
    assert ledger.link_status(url) == "live", "same text, new markup and scripts: not a change"
    assert ledger.link_status(site.url("/live")) == "live"
    assert ledger.last_checked(url) == day2.date()

    site.changing_text = "Version two: the figure is now 25% fewer GPUs."
    day3 = DAY1 + timedelta(days=2)
    rows = by_path(site, run(site, ledger, ["/changing", "/live"], at=day3))
    assert rows["/changing"].outcome == "live"
    assert ledger.link_status(url) == "changed"
    assert ledger.last_checked(url) == day2.date(), "a changed page does not earn a Checked date"
    assert ledger.link_status(site.url("/live")) == "live"

    day4 = DAY1 + timedelta(days=3)
    run(site, ledger, ["/changing"], at=day4)
    assert ledger.link_status(url) == "changed", "drift stays flagged until resolved"

    manual = LedgerRow(
        at=day4 + timedelta(hours=1),
        url=url,
        ids=["rec"],
        outcome="manual",
        method="manual",
        by="Ana",
    )
    ledger.append([manual])
    assert ledger.link_status(url) == "live"
    assert ledger.last_checked(url) == day4.date()
    run(site, ledger, ["/changing"], at=day4 + timedelta(days=1))
    assert ledger.link_status(url) == "live", "the editor accepted the new text"
    assert derive(ledger.rows_for(url)).checked == (day4 + timedelta(days=1)).date()

    reread = Ledger.load(ledger.path)
    assert reread.link_status(url) == "live" and reread.problems == []


def test_dead_after_three_failures_three_days_apart(site, ledger):
    url = site.url("/gone")
    busy = site.url("/busy")
    statuses = []
    for offset in (0, 1, 2, 3, 5, 6):
        run(site, ledger, ["/gone", "/busy"], at=DAY1 + timedelta(days=offset))
        statuses.append(ledger.link_status(url))
    # Failures on days 0,1,2,3: only days 0 and 3 are 3 days apart; day 6 is the third.
    assert statuses == ["failing", "failing", "failing", "failing", "failing", "dead"]
    assert ledger.link_status(busy) == "inconclusive", "503 never counts toward dead"
    assert len(ledger.rows_for(busy)) == 6

    site_live = site.url("/live")
    ledger.append(
        [
            LedgerRow(
                at=DAY1 + timedelta(days=7),
                url=url,
                ids=["rec"],
                outcome="live",
                method="GET",
                http_status=200,
                fingerprint="sha256:x",
            )
        ]
    )
    assert ledger.link_status(url) == "live", "a dead link that comes back is live again"
    assert ledger.link_status(site_live) is None, "never checked"


def test_inconclusive_never_overrides_a_verdict(site, ledger):
    url = site.url("/live")
    run(site, ledger, ["/live"])
    ledger.append(
        [
            LedgerRow(
                at=DAY1 + timedelta(days=1),
                url=url,
                ids=["rec"],
                outcome="inconclusive",
                method="HEAD",
                http_status=429,
            )
        ]
    )
    assert ledger.link_status(url) == "live"
    assert ledger.last_checked(url) == DAY1.date()


def test_one_request_per_second_per_host(site, ledger):
    with LinkServer() as other:
        targets = [Target(site.url(p), ("a",)) for p in ("/live", "/gone")]
        targets += [Target(other.url(p), ("b",)) for p in ("/live", "/gone")]
        asyncio.run(check_links(targets, ledger, timeout=2, concurrency=2, now=lambda: DAY1))
        for server in (site, other):
            times = server.times()
            assert len(times) == 3  # HEAD+GET /live, HEAD /gone
            gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
            assert min(gaps) >= 0.98, gaps
        # The two hosts are checked side by side, not one after the other.
        assert other.times()[0] < site.times()[1]
        assert site.times()[0] < other.times()[1]


def test_configured_interval_spaces_requests(site, ledger):
    run(site, ledger, ["/live", "/moved", "/gone"], interval=0.2)
    times = site.times()
    assert len(times) == 6  # HEAD+GET, HEAD 301 + HEAD + GET, HEAD
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert min(gaps) >= 0.19, gaps


def test_fingerprint_ignores_markup_but_not_words():
    page = b"<html><head><script>x=1</script></head><body><p>Hello   world</p></body></html>"
    restyled = (
        b"<html><body><div class='a'>Hello</div>\n<b>world</b><style>p{}</style></body></html>"
    )
    reworded = b"<html><body><p>Hello there world</p></body></html>"
    kind = "text/html; charset=utf-8"
    assert fingerprint(page, kind, "utf-8") == fingerprint(restyled, kind, "utf-8")
    assert fingerprint(page, kind, "utf-8") != fingerprint(reworded, kind, "utf-8")
    assert fingerprint(b"%PDF-1.7 a", "application/pdf", None) != fingerprint(
        b"%PDF-1.7 b", "application/pdf", None
    )


def test_root_redirect_rule():
    assert is_root_redirect("https://a.example/post/1", "https://a.example/")
    assert is_root_redirect("https://a.example/post/1", "https://parked.example")
    assert not is_root_redirect("http://a.example/", "https://a.example/")
    assert not is_root_redirect("https://a.example/post/1", "https://a.example/post/2")


def test_only_loopback_is_reachable(loopback_only):
    """The suite-wide guard refuses and reports any connect beyond 127.0.0.1."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        with pytest.raises(ConnectionRefusedError):
            sock.connect(("192.0.2.1", 80))  # TEST-NET-1: never routed, and never tried
    finally:
        sock.close()
    assert loopback_only == [("192.0.2.1", 80)]
    loopback_only.clear()


def test_ledger_date_is_utc_day(site, ledger):
    late = datetime(2026, 11, 2, 23, 30, tzinfo=UTC)
    run(site, ledger, ["/live"], at=late)
    assert ledger.last_checked(site.url("/live")) == date(2026, 11, 2)
