"""The digest against hostile input: concurrent sends, damaged records, odd addresses, headers."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fakes.smtp_server import SmtpServer
from test_digest import DIGEST_SETTINGS, EXTRA_RECORDS, REPO, SECRET, WEEK, run, write_subscribers

from generator.digest import tokens
from generator.digest.addresses import AddressError, parse_mailbox
from generator.digest.lock import send_lock


def prepguide(root: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the real entry point, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
    )


@pytest.fixture(scope="module")
def built_template(tmp_path_factory) -> Path:
    """A root with four published guides and the frozen issue of WEEK, built once."""
    root = tmp_path_factory.mktemp("digest") / "ws"
    root.mkdir()
    shutil.copytree(REPO / "sources", root / "sources")
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    for name, text in EXTRA_RECORDS.items():
        (root / "sources" / f"{name}.yaml").write_text(text, encoding="utf-8")
    with open(root / "prepguide.toml", "a", encoding="utf-8") as handle:
        handle.write(DIGEST_SETTINGS)
    run(root, "generate", "--backend", "offline")
    ids = ["shopify-catalog-clustering", "acme-stream", "globex-cdc"]
    run(root, "review", "approve", *ids, "--by", "Ed")
    run(root, "publish")
    run(root, "digest", "build", "--week", WEEK)
    return root


@pytest.fixture
def root(built_template: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "ws"
    shutil.copytree(built_template, copy, symlinks=True)
    return copy


def env_for(server: SmtpServer) -> dict:
    return {"PREPGUIDE_SMTP_URL": server.url, "PREPGUIDE_DIGEST_SECRET": SECRET}


def send(root: Path, subscribers: Path, server: SmtpServer, *extra: str):
    return prepguide(
        root,
        "digest",
        "send",
        "--week",
        WEEK,
        "--to",
        str(subscribers),
        *extra,
        env=env_for(server),
    )


def recipients(server: SmtpServer) -> list[str]:
    return sorted(address for rcpt, _ in server.mailbox.messages for address in rcpt)


def set_setting(root: Path, old: str, new: str) -> None:
    config = root / "prepguide.toml"
    text = config.read_text(encoding="utf-8")
    assert old in text
    config.write_text(text.replace(old, new), encoding="utf-8")


# Item 4: one send per issue at a time.


def test_two_concurrent_sends_of_one_issue_mail_each_subscriber_once(root: Path, tmp_path: Path):
    set_setting(root, "per_minute = 0", "per_minute = 120")  # 0.5 s a message: 10 s in all
    addresses = [f"c{i:02d}@example.com" for i in range(20)]
    subscribers = write_subscribers(tmp_path / "s.csv", [(a, "confirmed") for a in addresses])
    with SmtpServer() as server:
        command = [sys.executable, "-m", "generator", "--root", str(root), "digest", "send",
                   "--week", WEEK, "--to", str(subscribers)]  # fmt: skip
        first = subprocess.Popen(
            command,
            env={**os.environ, "PYTHONPATH": str(REPO), **env_for(server)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 30
        while server.mailbox.count() < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        second = send(root, subscribers, server)
        assert first.poll() is None, "the first send ended before the second one ran"
        out, err = first.communicate(timeout=60)
        assert first.returncode == 0, out + err
        assert second.returncode == 1, second.stdout + second.stderr
        assert f"{WEEK} is being sent by pid {first.pid} on {socket.gethostname()}, since 20" in (
            second.stderr
        )
        assert "Traceback" not in second.stderr
        assert recipients(server) == addresses  # each exactly once, 20 messages in all


def test_sends_of_two_weeks_may_run_at_once_and_a_held_week_is_refused(root, tmp_path):
    subscribers = write_subscribers(tmp_path / "s.csv", [("a@example.com", "confirmed")])
    digest_dir = root / "digest"
    with SmtpServer() as server:
        with send_lock(digest_dir, WEEK):
            held = send(root, subscribers, server)
            assert held.returncode == 1
            assert f"is being sent by pid {os.getpid()}" in held.stderr
            assert server.mailbox.count() == 0
        with send_lock(digest_dir, "2026-W48"):
            other = send(root, subscribers, server)
        assert other.returncode == 0, other.stdout + other.stderr
        assert recipients(server) == ["a@example.com"]


# Item 5: a damaged suppression list never mails someone who left.

DAMAGE = {
    "trailing comma": b'{"email": "left@example.org", "via": "token"},\n',
    "not UTF-8": b'{"email": "left@example.org", "via": "tok\xff\xfeen"}\n',
    "not an object": b'["left@example.org"]\n',
    "no email field": b'{"address": "left@example.org"}\n',
    "torn tail holding an address": b'{"email": "left@example.org", "via": "tok',
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_suppression_line_stops_the_send_naming_file_and_line(root, tmp_path, damage):
    path = root / "digest" / "suppressions.jsonl"
    path.write_bytes(b'{"email": "gone@example.org", "via": "token"}\n' + DAMAGE[damage])
    subscribers = write_subscribers(
        tmp_path / "s.csv", [("left@example.org", "confirmed"), ("stay@example.org", "confirmed")]
    )
    with SmtpServer() as server:
        result = send(root, subscribers, server)
        assert result.returncode == 1, result.stdout + result.stderr
        assert f"{path}: line 2 " in result.stderr and "nothing was sent" in result.stderr
        assert "Traceback" not in result.stderr
        assert server.mailbox.count() == 0
    # An unsubscribe arriving now is still recorded, and the damaged line is kept for a human.
    token = tokens.sign(SECRET, "new@example.org")
    later = prepguide(root, "digest", "unsubscribe", token, env={"PREPGUIDE_DIGEST_SECRET": SECRET})
    assert later.returncode == 0 and f"warning: recorded, but {path}: line 2 " in later.stderr
    raw = path.read_bytes()
    assert DAMAGE[damage].rstrip(b"\n") + b"\n" in raw
    assert json.loads(raw.splitlines()[-1])["email"] == "new@example.org"
    with SmtpServer() as server:
        assert send(root, subscribers, server).returncode == 1 and server.mailbox.count() == 0


def test_a_torn_tail_without_an_address_is_ignored_with_a_warning(root, tmp_path):
    path = root / "digest" / "suppressions.jsonl"
    path.write_bytes(b'{"email": "left@example.org", "via": "token"}\n{"ti')
    subscribers = write_subscribers(
        tmp_path / "s.csv", [("left@example.org", "confirmed"), ("stay@example.org", "confirmed")]
    )
    with SmtpServer() as server:
        result = send(root, subscribers, server)
        assert result.returncode == 0, result.stdout + result.stderr
        assert f"warning: {path}: line 2 is a torn tail with no address in it" in result.stderr
        assert recipients(server) == ["stay@example.org"]


def test_a_complete_last_line_without_its_newline_is_kept_by_reading_and_appending(root, tmp_path):
    path = root / "digest" / "suppressions.jsonl"
    path.write_bytes(b'{"email": "left@example.org", "via": "token"}')
    subscribers = write_subscribers(
        tmp_path / "s.csv", [("left@example.org", "confirmed"), ("stay@example.org", "confirmed")]
    )
    with SmtpServer() as server:
        result = send(root, subscribers, server)
        assert result.returncode == 0 and "1 unsubscribed" in result.stdout
        assert recipients(server) == ["stay@example.org"]
        message = server.mailbox.messages[0][1]
        token = str(message["List-Unsubscribe"]).split("token=", 1)[1].rstrip(">")
    run(root, "digest", "unsubscribe", token, env={"PREPGUIDE_DIGEST_SECRET": SECRET})
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["email"] for line in lines] == [
        "left@example.org",
        "stay@example.org",
    ]


# Item 6: one mailbox is one recipient, however it is written.


def test_addresses_are_parsed_and_normalised_by_the_standard_library():
    for text in (
        "dup@example.org",
        "<dup@example.org>",
        '"dup"@example.org',
        "Dup <dup@EXAMPLE.Org>",
    ):
        assert parse_mailbox(text).address == "dup@example.org"
    assert parse_mailbox('"a b"@Example.org').address == '"a b"@example.org'
    assert parse_mailbox("u@bücher.example").address == "u@xn--bcher-kva.example"
    assert parse_mailbox("U@BÜCHER.example").key == "u@xn--bcher-kva.example"
    for bad in ("x", "a@", "@b.org", "a@b.org, c@d.org", "a@[127.0.0.1]", "a@b.org\nBcc: c@d.org",
                "=?utf-8?q?a=0D=0ABcc:_x@y.org?= <d@example.org>", "a@exa_mple.org"):  # fmt: skip
        with pytest.raises(AddressError):
            parse_mailbox(bad)


def test_one_mailbox_written_several_ways_is_mailed_once_and_its_unsubscribe_holds(root, tmp_path):
    (root / "digest" / "suppressions.jsonl").write_text(
        '{"email": "<Left@EXAMPLE.org>", "via": "token"}\n', encoding="utf-8"
    )
    subscribers = tmp_path / "s.csv"
    subscribers.write_text(
        "email,status\n"
        "dup@example.org,confirmed\n"
        "<dup@example.org>,confirmed\n"
        '"""dup""@Example.ORG",confirmed\n'
        "Dup <DUP@EXAMPLE.org>,confirmed\n"
        '"""left""@example.ORG",confirmed\n'
        "u@bücher.example,confirmed\n",
        encoding="utf-8",
    )
    with SmtpServer() as server:
        result = send(root, subscribers, server)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "2 to send" in result.stdout and "1 unsubscribed" in result.stdout
        assert recipients(server) == ["dup@example.org", "u@xn--bcher-kva.example"]
        again = send(root, subscribers, server)
        assert "0 to send, 2 already sent" in again.stdout and server.mailbox.count() == 2


# Item 7: header values are refused at load or encoded, never injected.


@pytest.mark.parametrize(
    ("old", "new", "setting"),
    [
        ('name = "Prepguide"', 'name = "Prep\\nguide"', "site.name"),
        ('name = "Prepguide"', 'name = "=?utf-8?q?P=0D=0ABcc:_x@evil.example?="', "site.name"),
        ('sender = "Prepguide', 'sender = "Bcc: x@evil.example\\nPrepguide', "digest.sender"),
        ('sender = "Prepguide', 'sender = "=?utf-8?q?a=0D=0A=0D=0A?= Prepguide', "digest.sender"),
    ],
)
def test_a_line_break_in_a_header_setting_is_refused_naming_it(root, old, new, setting):
    set_setting(root, old, new)
    (root / "digest" / f"{WEEK}.eml").unlink()
    result = prepguide(root, "digest", "build", "--week", WEEK)
    assert result.returncode == 2, result.stdout + result.stderr
    assert setting in result.stderr and "Traceback" not in result.stderr
    assert not (root / "digest" / f"{WEEK}.eml").exists()


def test_a_damaged_frozen_issue_is_refused_without_a_traceback(root, tmp_path):
    path = root / "digest" / f"{WEEK}.eml"
    raw = path.read_bytes()
    path.write_bytes(raw.replace(b"Subject: ", b"Subject: x\n\nBcc: a@evil.example\n", 1))
    subscribers = write_subscribers(tmp_path / "s.csv", [("a@example.com", "confirmed")])
    with SmtpServer() as server:
        result = send(root, subscribers, server)
        assert result.returncode == 1, result.stdout + result.stderr
        assert f"{path}: the frozen issue cannot be sent" in result.stderr
        assert "Traceback" not in result.stderr and server.mailbox.count() == 0


def test_an_international_local_part_goes_by_smtputf8_only_where_offered(root, tmp_path):
    subscribers = write_subscribers(
        tmp_path / "s.csv", [("jörg@bücher.example", "confirmed"), ("a@example.com", "confirmed")]
    )
    with SmtpServer() as plain:
        result = send(root, subscribers, plain)
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert "failed jörg@xn--bcher-kva.example: the server does not offer SMTPUTF8" in (
            result.stderr
        )
        assert recipients(plain) == ["a@example.com"]
    with SmtpServer(smtputf8=True) as server:
        result = send(root, subscribers, server)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "1 to send, 1 already sent" in result.stdout
        [(rcpt, message)] = server.mailbox.messages
        assert rcpt == ["jörg@xn--bcher-kva.example"]
        assert str(message["To"]) == "Reader 0 <jörg@xn--bcher-kva.example>"
        assert "token=" in str(message["List-Unsubscribe"])


# Item 15: one odd row is refused by its line; everyone else is sent.


def test_an_odd_subscriber_row_is_refused_by_line_and_the_rest_are_sent(root, tmp_path):
    subscribers = tmp_path / "s.csv"
    subscribers.write_text(
        "email,status,name\n"
        "a@example.com,confirmed,Ann\n"
        'evil@example.com,confirmed,"Eve\r\nBcc: all@evil.example"\n'
        "not-an-address,confirmed,Nobody\n"
        "u@bücher.example,confirmed,Udo\n"
        "z@example.com,confirmed,Zed\n",
        encoding="utf-8",
    )
    with SmtpServer() as server:
        for _ in range(2):  # and the same on the rerun
            result = send(root, subscribers, server)
            assert result.returncode == 0, result.stdout + result.stderr
            assert f"{subscribers}: line 3: name" in result.stderr
            assert f"{subscribers}: line 5: email 'not-an-address'" in result.stderr
        assert recipients(server) == ["a@example.com", "u@xn--bcher-kva.example", "z@example.com"]
        for _, message in server.mailbox.messages:
            assert message["Bcc"] is None


# Item 16: uncertain means DATA was started; exit 1 while anyone is uncertain.


def test_a_listed_uncertain_recipient_makes_the_send_exit_1(root, tmp_path):
    (root / "digest" / "sends.jsonl").write_text(
        json.dumps({"week": WEEK, "email": "u1@example.com", "event": "attempt"}) + "\n"
    )
    subscribers = write_subscribers(
        tmp_path / "s.csv", [("u1@example.com", "confirmed"), ("u2@example.com", "confirmed")]
    )
    with SmtpServer() as server:
        result = send(root, subscribers, server)
        assert result.returncode == 1, result.stdout + result.stderr
        assert "uncertain u1@example.com" in result.stdout
        assert recipients(server) == ["u2@example.com"]
        dry = send(root, subscribers, server, "--dry-run")
        assert dry.returncode == 1 and "1 uncertain" in dry.stdout
        resend = send(root, subscribers, server, "--resend-uncertain")
        assert resend.returncode == 0, resend.stdout + resend.stderr
        assert recipients(server) == ["u1@example.com", "u2@example.com"]


def test_after_a_421_the_next_recipient_is_sent_on_a_new_session_not_made_uncertain(root, tmp_path):
    addresses = ["r0@example.com", "r1@example.com", "r2@example.com"]
    subscribers = write_subscribers(tmp_path / "s.csv", [(a, "confirmed") for a in addresses])
    with SmtpServer(replies={"r0@example.com": "421 4.3.2 shutting down"}) as server:
        result = send(root, subscribers, server)
        assert result.returncode == 1, result.stdout + result.stderr
        assert "sent 2, failed 1, uncertain 0" in result.stdout
        assert "failed r0@example.com: 421 4.3.2 shutting down (nothing was sent" in result.stderr
        assert recipients(server) == ["r1@example.com", "r2@example.com"]
    ledger = [
        json.loads(line)
        for line in (root / "digest" / "sends.jsonl").read_text().split("\n")
        if line
    ]
    assert [row["event"] for row in ledger if row["email"] == "r0@example.com"] == ["failed"]
    with SmtpServer() as server:
        rerun = send(root, subscribers, server)
        assert rerun.returncode == 0 and "1 to send, 2 already sent" in rerun.stdout
        assert recipients(server) == ["r0@example.com"]


# Item 17: settings are validated at load, the SMTP URL in one line.


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("https://prepguide.example.org/unsub>,<https://evil.example/collect", "'>'"),
        ("https://prepguide.example.org/unsubscribe#top", "#fragment"),
        ("https://prepguide.example.org/u nsubscribe", "' '"),
        ("https://prepguide.example.org/unsubscribe?token=x", "token="),
    ],
)
def test_an_unsafe_unsubscribe_url_is_refused_at_load(root, url, said):
    set_setting(root, "https://prepguide.example.org/unsubscribe", url)
    result = prepguide(root, "digest", "build", "--week", WEEK)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "digest.unsubscribe_url" in result.stderr and said in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_sender_is_refused_at_load(root):
    set_setting(root, "Prepguide <digest@prepguide.example.org>", "a@b.org, c@d.org")
    result = prepguide(root, "digest", "build", "--week", WEEK)
    assert result.returncode == 2 and "digest.sender" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_malformed_smtp_url_is_one_line_naming_the_variable(root, tmp_path):
    subscribers = write_subscribers(tmp_path / "s.csv", [("a@example.com", "confirmed")])
    result = prepguide(
        root, "digest", "send", "--week", WEEK, "--to", str(subscribers),
        env={"PREPGUIDE_SMTP_URL": "smtp://[::1", "PREPGUIDE_DIGEST_SECRET": SECRET},
    )  # fmt: skip
    assert result.returncode == 2, result.stdout + result.stderr
    [line] = result.stderr.strip().splitlines()
    assert "PREPGUIDE_SMTP_URL" in line and "smtp://host[:port]" in line
