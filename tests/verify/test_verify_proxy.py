"""Link checks behind a proxy: HTTP_PROXY and NO_PROXY are honoured, internal redirects are not."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest
from fakes.link_server import LinkServer
from fakes.proxy_server import ForwardProxy

from generator.verify.ledger import Ledger
from generator.verify.run import Target, check_links

PUBLIC = "links.prepguide.test"


async def no_dns(host: str, port: int) -> list[str]:
    """Resolve nothing, as on a machine where only the proxy can look names up."""
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


def run(targets: list[Target], tmp_path: Path):
    ledger = Ledger.load(tmp_path / "sources" / ".verification.jsonl")
    return asyncio.run(
        check_links(targets, ledger, timeout=5.0, concurrency=4, host_interval=0, resolver=no_dns)
    )


@pytest.fixture
def proxy(site: LinkServer, monkeypatch: pytest.MonkeyPatch):
    host, port = site.base.removeprefix("http://").split(":")
    with ForwardProxy((host, int(port))) as server:
        monkeypatch.setenv("HTTP_PROXY", server.url)
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        yield server


def test_links_go_through_the_proxy_from_the_environment(site, proxy, tmp_path):
    rows = run([Target(f"http://{PUBLIC}/live", ("rec",))], tmp_path)
    assert rows[0].outcome == "live", rows[0].error
    assert [(m, url) for m, url, _ in proxy.seen] == [
        ("HEAD", f"http://{PUBLIC}/live"),
        ("GET", f"http://{PUBLIC}/live"),
    ]


def test_no_proxy_hosts_are_reached_directly(site, proxy, tmp_path):
    rows = run([Target(site.url("/live"), ("rec",))], tmp_path)
    assert rows[0].outcome == "live"
    assert proxy.seen == [] and site.requests("/live") == ["HEAD", "GET"]


def test_a_proxied_public_page_redirecting_inside_is_not_followed(site, proxy, tmp_path):
    with LinkServer() as internal:
        site.redirects["/post"] = internal.url("/admin")
        rows = run([Target(f"http://{PUBLIC}/post", ("rec",))], tmp_path)
    assert rows[0].outcome == "not-live"
    assert "internal address" in rows[0].error
    assert internal.hits == [], "the internal service never saw a request"


def test_without_a_proxy_a_name_that_does_not_resolve_fails(site, tmp_path):
    rows = run(
        [Target(f"http://{PUBLIC}/live", ("rec",)), Target(site.url("/live"), ("r2",))], tmp_path
    )
    by_url = {row.url: row for row in rows}
    assert by_url[f"http://{PUBLIC}/live"].outcome == "failure"
    assert "DNS lookup" in by_url[f"http://{PUBLIC}/live"].error
