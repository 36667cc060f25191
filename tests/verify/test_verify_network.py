"""`verify` without a network: inconclusive only when the whole run looks offline (issue 14.5)."""

from __future__ import annotations

import asyncio
import json
import socket
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import cli
from generator.guides.project import Project
from generator.verify.ledger import Ledger, LedgerRow
from generator.verify.run import Target, check_links

DAY1 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return Ledger.load(tmp_path / "sources" / ".verification.jsonl")


def resolver(table: dict[str, str | int]):
    """Answer from a table: an address, or a getaddrinfo error number."""

    async def resolve(host: str, port: int) -> list[str]:
        answer = table.get(host, socket.EAI_AGAIN)
        if isinstance(answer, int):
            raise socket.gaierror(answer, "Temporary failure in name resolution")
        return [answer]

    return resolve


def run(ledger, urls, table, *, at=DAY1):
    return asyncio.run(
        check_links(
            [Target(url, ("rec",)) for url in urls],
            ledger,
            timeout=1.0,
            concurrency=4,
            host_interval=0,
            now=lambda: at,
            resolver=resolver(table),
        )
    )


def closed_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def live_row(url: str) -> LedgerRow:
    return LedgerRow(
        at=DAY1 - timedelta(days=1),
        url=url,
        ids=["rec"],
        outcome="live",
        method="GET",
        http_status=200,
        fingerprint="sha256:x",
    )


def test_no_host_resolves_so_every_link_is_inconclusive_and_verdicts_stand(ledger):
    urls = ["https://blog.test/a", "https://blog.test/b", "https://news.test/c"]
    ledger.append([live_row(urls[0])])
    for day in range(5):  # days of an offline laptop never make a link dead
        rows = run(ledger, urls, {}, at=DAY1 + timedelta(days=3 * day))
        assert rows.offline
        assert [row.outcome for row in rows] == ["inconclusive"] * 3
        assert all("DNS lookup of" in row.error for row in rows)
    assert ledger.link_status(urls[0]) == "live", "an approved guide's link stays live"
    assert ledger.last_checked(urls[0]) == (DAY1 - timedelta(days=1)).date()
    assert {ledger.link_status(u) for u in urls[1:]} == {"inconclusive"}


def test_one_hosts_nxdomain_still_fails_when_other_hosts_resolve(site, ledger):
    expired = "https://expired.test/post"
    alive = site.url("/live").replace("127.0.0.1", "blog.test")
    table = {"blog.test": "127.0.0.1", "expired.test": socket.EAI_NONAME}
    statuses = []
    for offset in (0, 3, 6):
        rows = run(ledger, [expired, alive], table, at=DAY1 + timedelta(days=offset))
        assert not rows.offline
        by_url = {row.url: row for row in rows}
        assert by_url[expired].outcome == "failure" and "DNS lookup of expired.test" in (
            by_url[expired].error
        )
        assert by_url[alive].outcome == "live"
        statuses.append(ledger.link_status(expired))
    assert statuses == ["failing", "failing", "dead"], "an expired domain can still die"


def test_a_refused_connection_fails_when_the_network_is_up(site, ledger):
    refused = f"http://127.0.0.1:{closed_port()}/post"
    rows = run(ledger, [refused, site.url("/live")], {})
    assert not rows.offline
    assert {row.url: row.outcome for row in rows}[refused] == "failure"


def test_the_cli_says_no_network_once_and_keeps_the_verdict(tmp_path: Path):
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    (root / "prepguide.toml").write_text(
        "[verify]\ntimeout = 1\nhost_interval = 0\n", encoding="utf-8"
    )
    ports = [closed_port() for _ in range(3)]
    for number, port in enumerate(ports):
        record = {
            "company": "Acme",
            "title": f"Post {number}",
            "summary": "Acme wrote a post.",
            "url": f"http://127.0.0.1:{port}/post",
        }
        (root / "sources" / f"post-{number}.yaml").write_text(
            yaml.safe_dump(record), encoding="utf-8"
        )
    runner = CliRunner()
    manual = runner.invoke(
        cli, ["--root", str(root), "verify", "--manual", "post-0", "--by", "Ana"]
    )
    assert manual.exit_code == 0, manual.output
    result = runner.invoke(cli, ["--root", str(root), "verify", "--json", "--force"])
    assert result.stderr.count("no network?") == 1
    rows = json.loads(result.stdout)
    assert [row["status"] for row in rows] == ["inconclusive"] * 3
    project = Project(root)
    assert project.originals(project.source("post-0"))[0].link_status == "live"
    assert project.ledger.link_status(f"http://127.0.0.1:{ports[1]}/post") == "inconclusive"
