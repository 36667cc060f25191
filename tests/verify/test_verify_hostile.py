"""Hostile link targets (issue 11, D19-D21): a bogus charset, slow answers, internal redirects."""

from __future__ import annotations

import asyncio
import ipaddress
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fakes.link_server import HUGE_BYTES, LinkServer

from generator.verify.ledger import Ledger
from generator.verify.probe import MAX_BODY_BYTES, is_internal
from generator.verify.run import Target, check_links

DAY1 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return Ledger.load(tmp_path / "sources" / ".verification.jsonl")


def run(targets, ledger, *, timeout=2.0, **options):
    return asyncio.run(
        check_links(
            targets,
            ledger,
            timeout=timeout,
            concurrency=4,
            host_interval=0,
            now=lambda: DAY1,
            **options,
        )
    )


async def _to_loopback(host: str, port: int) -> list[str]:
    """Resolve every test host name to 127.0.0.1, where the fake servers listen."""
    return ["127.0.0.1"]


def test_d19_a_bogus_charset_fails_that_link_and_the_rest_go_on(site, ledger):
    paths = ["/live", "/bogus-charset", "/new-home", "/no-head", "/changing"]
    for _attempt in range(2):  # a rerun meets the same page and still does not crash
        rows = run(
            [Target(site.url(p), ("rec",)) for p in paths],
            ledger,
        )
        by_url = {row.url: row for row in rows}
        assert len(rows) == 5
        bogus = by_url[site.url("/bogus-charset")]
        assert bogus.outcome == "failure" and "unknown charset 'bogus-xyz'" in bogus.error
        others = [by_url[site.url(p)].outcome for p in paths if p != "/bogus-charset"]
        assert others == ["live"] * 4
    assert len(Ledger.load(ledger.path).rows) == 10


@pytest.mark.parametrize("path", ["/drip", "/drip-headers"])
def test_d20_the_timeout_bounds_the_whole_request_not_each_read(site, ledger, path):
    site.drip_seconds = 0.05  # each read arrives well within the timeout; the whole never does
    start = time.monotonic()
    rows = run([Target(site.url(path), ("rec",))], ledger, timeout=1.0)
    elapsed = time.monotonic() - start
    assert rows[0].outcome == "failure" and "timed out after 1s" in rows[0].error
    assert elapsed < 2.5, f"a 1 s timeout took {elapsed:.1f} s"


def test_d20_the_body_read_is_capped(site, ledger):
    rows = run([Target(site.url("/huge"), ("rec",))], ledger, timeout=10.0)
    assert rows[0].outcome == "live"
    time.sleep(0.2)
    assert site.huge_sent < HUGE_BYTES / 2, "the checker stopped reading at its cap"
    assert MAX_BODY_BYTES < HUGE_BYTES / 8


def test_d21_a_redirect_from_a_public_site_to_an_internal_address_is_not_followed(ledger):
    with LinkServer() as public, LinkServer() as internal:
        public.redirects["/post"] = internal.url("/admin")
        url = public.url("/post").replace("127.0.0.1", "blog.test")
        rows = run(
            [Target(url, ("rec",))],
            ledger,
            resolver=_to_loopback,
            public_hosts=["blog.test"],
        )
        assert rows[0].outcome == "not-live"
        assert "internal address" in rows[0].error
        assert rows[0].final_url == internal.url("/admin")
        assert internal.hits == [], "the internal service never saw a request"
        assert ledger.link_status(url) == "not-live"


def test_d21_the_explicit_opt_in_follows_internal_redirects(ledger):
    with LinkServer() as public, LinkServer() as internal:
        public.redirects["/post"] = internal.url("/admin")
        url = public.url("/post").replace("127.0.0.1", "blog.test")
        rows = run(
            [Target(url, ("rec",))],
            ledger,
            resolver=_to_loopback,
            public_hosts=["blog.test"],
            allow_internal=True,
        )
        assert rows[0].outcome == "live"
        assert internal.requests("/admin") == ["HEAD", "GET"]


def test_d21_redirects_between_internal_hosts_are_followed_as_before(site, ledger):
    with LinkServer() as other:
        site.redirects["/elsewhere"] = other.url("/live")
        rows = run([Target(site.url("/elsewhere"), ("rec",))], ledger)
        assert rows[0].outcome == "live", "a loopback site is not a public host"


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.2",
        "::1",
        "10.1.2.3",
        "172.16.0.9",
        "192.168.1.1",
        "169.254.169.254",
        "fe80::1",
        "fd00:ec2::254",
        "100.100.100.200",
        "100.64.0.1",
        "0.0.0.0",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
    ],
)
def test_d21_internal_addresses(address):
    assert is_internal(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:2800:220:1::1"])
def test_d21_public_addresses(address):
    assert not is_internal(ipaddress.ip_address(address))
