"""The weekly digest: the issue, the frozen mail, sending over real SMTP, unsubscribing."""

from __future__ import annotations

import email
import email.policy
import os
import signal
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner
from fakes.smtp_server import SmtpServer
from goldens import assert_golden

from generator.cli import cli
from generator.core.errors import ConfigError
from generator.digest import tokens
from generator.digest.issue import build_issue, last_full_week, parse_week
from generator.sources.records import Source

REPO = Path(__file__).resolve().parents[2]
SECRET = "a-test-secret-of-enough-length"
WEEK = "2026-W49"  # the pinned clock's week: guides published in tests land in it
DIGEST_SETTINGS = """
[digest]
sender = "Prepguide <digest@prepguide.example.org>"
footer = "Prepguide, 1 Example Street, Springfield. Contact: editors@prepguide.example.org"
unsubscribe_url = "https://prepguide.example.org/unsubscribe"
per_minute = 0
"""
EXTRA_RECORDS = {
    "acme-stream": """company: Acme
title: Exactly-once stream processing for billing events
url: https://acme.example.com/blog/stream-billing
published: 2026-09-02
checked: 2026-11-20
summary: Acme moved billing events onto a stream processor with exactly-once delivery. The new
  pipeline handles 2 million events per second.
scale: [2 million events per second]
techniques: [stream processing, change data capture]
stack: [Kafka, Flink]
""",
    "globex-cdc": """company: Globex
title: Change data capture from Postgres into the lakehouse
url: https://globex.example.com/eng/cdc
published: 2026-08-15
checked: 2026-11-21
summary: Globex streams row changes from Postgres into its lakehouse with change data capture,
  replacing nightly batch exports.
techniques: [change data capture, stream processing]
stack: [Postgres, Kafka]
""",
}


def run(root: Path, *args: str, code: int = 0, env: dict | None = None) -> str:
    result = CliRunner().invoke(cli, ["--root", str(root), *args], env=env)
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def digest_root(workspace: Path) -> Path:
    """Four published guides (two new records), one draft, one withdrawn, digest settings."""
    for name, text in EXTRA_RECORDS.items():
        (workspace / "sources" / f"{name}.yaml").write_text(text, encoding="utf-8")
    (workspace / "prepguide.toml").write_text(
        (workspace / "prepguide.toml").read_text() + DIGEST_SETTINGS, encoding="utf-8"
    )
    run(workspace, "generate", "--backend", "offline")
    run(workspace, "verify", "--manual", "meta-llm-training-at-scale", "--by", "Ed")
    ids = ["shopify-catalog-clustering", "meta-llm-training-at-scale", "acme-stream", "globex-cdc"]
    run(workspace, "review", "approve", *ids, "--by", "Ed")
    run(workspace, "publish")
    return workspace


def record(key: str, company: str, tags: list[str], published: str = "2026-01-05") -> Source:
    return Source.model_validate(
        {
            "id": key,
            "company": company,
            "title": f"{company} on {tags[0]}",
            "summary": f"{company} reports work on {tags[0]}. A second sentence follows.",
            "published": published,
            "techniques": tags,
        }
    )


def run_process(root: Path, *args: str, code: int, env: dict | None = None) -> str:
    """Run the real entry point, whose error messages and exit codes users see."""
    result = subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
    )
    assert result.returncode == code, result.stdout + result.stderr
    return result.stdout + result.stderr


def write_subscribers(path: Path, rows: list[tuple[str, str]]) -> Path:
    path.write_text(
        "Email,Status,Name\n" + "".join(f"{a},{s},Reader {i}\n" for i, (a, s) in enumerate(rows)),
        encoding="utf-8",
    )
    return path


def token_of(message) -> str:
    header = str(message["List-Unsubscribe"])
    return header.split("token=", 1)[1].rstrip(">")


def test_issue_groups_by_the_most_shared_topic_and_opens_with_counts():
    sources = [
        record("a", "Acme", ["stream processing", "Kafka"]),
        record("b", "Globex", ["stream processing"]),
        record("c", "Initech", ["stream processing", "caching"]),
        record("d", "Acme", ["caching"]),
        record("e", "Hooli", ["search ranking"]),
    ]
    day = date(2026, 11, 30)
    issue = build_issue(
        parse_week(WEEK),
        [(s, day) for s in sources] + [(record("old", "Old", ["caching"]), date(2026, 11, 1))],
        site_name="Prepguide",
        guide_url=lambda key: f"https://x.test/guides/{key}/",
    )
    assert issue.opening == (
        "5 new write-ups from 4 companies this week; most are about stream processing (3)."
    )
    assert [(g.topic, [i.guide_id for i in g.items]) for g in issue.groups] == [
        ("stream processing", ["a", "b", "c"]),
        (None, ["d", "e"]),
    ]
    first = issue.groups[0].items[0]
    assert (first.company, first.year, first.url) == ("Acme", 2026, "https://x.test/guides/a/")
    assert first.reports == "Acme reports work on stream processing."


def test_week_parsing_and_the_default_last_full_week():
    assert last_full_week(date(2026, 11, 30)).label == "2026-W48"  # a Monday
    assert last_full_week(date(2026, 12, 6)).label == "2026-W48"  # the Sunday ending W49
    assert parse_week("2026-W53").sunday == date(2027, 1, 3)
    with pytest.raises(ConfigError, match="YYYY-Www"):
        parse_week("2026-48")


def test_an_empty_week_says_so_and_writes_nothing(digest_root: Path):
    output = run(digest_root, "digest", "build")  # default: 2026-W48, before anything was live
    assert "2026-W48: no guides were first published that week; nothing to send" in output
    assert not (digest_root / "digest" / "2026-W48.eml").exists()


def test_only_live_guides_go_in_and_withdrawn_ones_leave(digest_root: Path):
    run(digest_root, "review", "withdraw", "globex-cdc", "--by", "Ed", "--reason", "superseded")
    output = run(digest_root, "digest", "build", "--week", WEEK)
    assert "3 new write-ups from 3 companies (Acme, Meta and Shopify) this week" in output
    assert "Change data capture from Postgres" not in output
    assert "Meta's Generative Ads Model" not in output  # a draft


def test_the_frozen_issue_is_a_safe_multipart_mail_with_one_click_unsubscribe(digest_root: Path):
    run(digest_root, "digest", "build", "--week", WEEK)
    raw = (digest_root / "digest" / f"{WEEK}.eml").read_bytes()
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert message.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in message.iter_parts()] == [
        "text/plain",
        "text/html",
    ]
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert (
        str(message["List-Unsubscribe"]).strip().startswith("<https://prepguide.example.org/unsub")
    )
    assert message["From"] == "Prepguide <digest@prepguide.example.org>"
    html = message.get_body(("html",)).get_content()
    text = message.get_body(("plain",)).get_content()
    for marker in ("<img", "<script", "<link", "<style", "src=", "url("):
        assert marker not in html
    assert "<table" in html and 'style="' in html
    assert "1 Example Street" in html and "1 Example Street" in text
    assert "https://prepguide.example.org/guides/acme-stream/" in text
    assert_golden("digest/issue-2026-W49.txt", text)
    assert_golden("digest/issue-2026-W49.html", html)
    run(digest_root, "digest", "build", "--week", WEEK)
    assert (digest_root / "digest" / f"{WEEK}.eml").read_bytes() == raw  # reproducible


def test_build_needs_the_mail_settings(workspace: Path):
    run(workspace, "generate", "--backend", "offline")
    run(workspace, "review", "approve", "shopify-catalog-clustering", "--by", "Ed")
    run(workspace, "publish")
    output = run_process(workspace, "digest", "build", "--week", WEEK, code=2)
    assert "digest.sender" in output and "prepguide.toml" in output


def test_send_gives_each_confirmed_subscriber_their_own_link_once(
    digest_root: Path, tmp_path: Path
):
    run(digest_root, "digest", "build", "--week", WEEK)
    subscribers = write_subscribers(
        tmp_path / "subs.csv",
        [
            ("ann@example.com", "confirmed"),
            ("bob@example.com", "Confirmed"),
            ("cat@example.com", "pending"),
            ("dan@example.com", "unsubscribed"),
            ("ANN@example.com", "confirmed"),  # the same person twice
        ],
    )
    with SmtpServer() as server:
        env = {"PREPGUIDE_SMTP_URL": server.url, "PREPGUIDE_DIGEST_SECRET": SECRET}
        dry = run(digest_root, "digest", "send", "--week", WEEK, "--to", str(subscribers),
                  "--dry-run", env=env)  # fmt: skip
        assert "2 to send" in dry and "2 not confirmed" in dry and server.mailbox.count() == 0
        output = run(digest_root, "digest", "send", "--week", WEEK, "--to", str(subscribers),
                     env=env)  # fmt: skip
        assert "sent 2, failed 0" in output
        received = {tuple(rcpt): message for rcpt, message in server.mailbox.messages}
        assert sorted(received) == [("ann@example.com",), ("bob@example.com",)]
        for (address,), message in received.items():
            assert address in str(message["To"])
            token = token_of(message)
            assert tokens.verify(SECRET, token) == address
            assert f"token={token}" in message.get_body(("html",)).get_content()
            assert f"token={token}" in message.get_body(("plain",)).get_content()
        again = run(digest_root, "digest", "send", "--week", WEEK, "--to", str(subscribers),
                    env=env)  # fmt: skip
        assert "0 to send, 2 already sent" in again and server.mailbox.count() == 2

        # Bob unsubscribes through his own link; the next issue's send skips him.
        bob = received[("bob@example.com",)]
        run(digest_root, "digest", "unsubscribe", token_of(bob), env=env)
        (digest_root / "digest" / "sends.jsonl").unlink()  # as if it were a new issue
        later = run(digest_root, "digest", "send", "--week", WEEK, "--to", str(subscribers),
                    env=env)  # fmt: skip
        assert "1 to send" in later and "1 unsubscribed" in later
        assert [rcpt for rcpt, _ in server.mailbox.messages[2:]] == [["ann@example.com"]]


def test_a_refused_recipient_is_recorded_and_the_rest_go_on(digest_root: Path, tmp_path: Path):
    run(digest_root, "digest", "build", "--week", WEEK)
    subscribers = write_subscribers(
        tmp_path / "subs.csv",
        [(f"r{i}@example.com", "confirmed") for i in range(4)],
    )
    with SmtpServer(refuse={"r1@example.com"}) as server:
        env = {"PREPGUIDE_SMTP_URL": server.url, "PREPGUIDE_DIGEST_SECRET": SECRET}
        output = run(digest_root, "digest", "send", "--week", WEEK, "--to", str(subscribers),
                     env=env, code=1)  # fmt: skip
        assert "sent 3, failed 1" in output and "r1@example.com: 550" in output
        assert server.mailbox.count() == 3
    ledger = (digest_root / "digest" / "sends.jsonl").read_text()
    assert '"event": "failed"' in ledger and "r1@example.com" in ledger


def test_send_refuses_without_a_secret_and_a_forged_token_is_refused(digest_root: Path, tmp_path):
    run(digest_root, "digest", "build", "--week", WEEK)
    subscribers = write_subscribers(tmp_path / "s.csv", [("a@example.com", "confirmed")])
    output = run_process(
        digest_root, "digest", "send", "--week", WEEK, "--to", str(subscribers), code=2
    )
    assert "PREPGUIDE_DIGEST_SECRET" in output
    forged = tokens.sign("another-secret-entirely", "a@example.com")
    output = run_process(digest_root, "digest", "unsubscribe", forged, code=1,
                 env={"PREPGUIDE_DIGEST_SECRET": SECRET})  # fmt: skip
    assert "signature does not match" in output
    assert not (digest_root / "digest" / "suppressions.jsonl").exists()


def test_a_send_killed_half_way_resumes_and_delivers_each_message_at_most_once(
    digest_root: Path, tmp_path: Path
):
    run(digest_root, "digest", "build", "--week", WEEK)
    config = digest_root / "prepguide.toml"
    config.write_text(config.read_text().replace("per_minute = 0", "per_minute = 1200"))
    addresses = [f"p{i:02d}@example.com" for i in range(30)]
    subscribers = write_subscribers(tmp_path / "s.csv", [(a, "confirmed") for a in addresses])
    with SmtpServer() as server:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
            "PREPGUIDE_SMTP_URL": server.url,
            "PREPGUIDE_DIGEST_SECRET": SECRET,
        }
        command = [sys.executable, "-m", "generator", "--root", str(digest_root), "digest",
                   "send", "--week", WEEK, "--to", str(subscribers)]  # fmt: skip
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while server.mailbox.count() < 12 and time.monotonic() < deadline:
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        process.wait()
        first_round = server.mailbox.count()
        assert 12 <= first_round < 30
        rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
        counts: dict[str, int] = {}
        for rcpt, _ in server.mailbox.messages:
            counts[rcpt[0]] = counts.get(rcpt[0], 0) + 1
        assert max(counts.values()) == 1, counts  # never twice
        missing = set(addresses) - set(counts)
        # At most the one message in flight at the kill is uncertain, and it is reported.
        assert len(missing) <= 1
        for address in missing:
            assert f"uncertain {address}" in rerun.stdout
        # Exit 1 while anyone is still uncertain (even one that did arrive), so a script notices.
        still_uncertain = "  uncertain " in rerun.stdout
        assert rerun.returncode == (1 if still_uncertain else 0), rerun.stdout + rerun.stderr
        if missing:
            resend = [*command, "--resend-uncertain"]
            subprocess.run(resend, env=env, capture_output=True, text=True, timeout=60, check=True)
            assert sorted(r[0] for r, _ in server.mailbox.messages) == sorted(addresses)


def test_a_root_writes_its_own_mail_and_its_mistakes_are_named(digest_root: Path):
    folder = digest_root / "templates" / "digest"
    folder.mkdir(parents=True)
    shipped = (REPO / "generator" / "templates" / "digest" / "email.txt").read_text()
    (folder / "email.txt").write_text("Hello from the editors.\n\n" + shipped, encoding="utf-8")
    run(digest_root, "digest", "build", "--week", WEEK)
    raw = (digest_root / "digest" / f"{WEEK}.eml").read_bytes()
    message = email.message_from_bytes(raw, policy=email.policy.default)
    text = message.get_body(("plain",)).get_content()
    assert text.startswith("Hello from the editors.")
    assert "https://prepguide.example.org/guides/acme-stream/" in text
    html = message.get_body(("html",)).get_content()
    assert "Hello from the editors." not in html  # the shipped HTML template is kept

    (digest_root / "digest" / f"{WEEK}.eml").unlink()
    (folder / "email.html").write_text("<p>{{ issue.no_such_value }}</p>", encoding="utf-8")
    output = run_process(digest_root, "digest", "build", "--week", WEEK, code=2)
    assert "email.html" in output and "no_such_value" in output
    (folder / "email.html").write_text("<p>{% for x in %}</p>", encoding="utf-8")
    output = run_process(digest_root, "digest", "build", "--week", WEEK, code=2)
    assert "email.html" in output and "syntax error at line 1" in output
    # a mail without the unsubscribe link is never frozen
    (folder / "email.html").unlink()
    (folder / "email.txt").write_text("{{ issue.opening }}\n{{ footer }}\n", encoding="utf-8")
    output = run_process(digest_root, "digest", "build", "--week", WEEK, code=2)
    assert "email.txt" in output and "unsubscribe link" in output
    assert not (digest_root / "digest" / f"{WEEK}.eml").exists()
