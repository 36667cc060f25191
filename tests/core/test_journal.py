"""core.journal: whole fsynced lines, and one rule for a torn tail, for every JSON Lines log."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from generator.core import journal
from generator.digest import journal as digest_journal
from generator.review import audit
from generator.verify.ledger import Ledger, LedgerRow


def _row(line: bytes) -> dict:
    row = json.loads(line)
    if not isinstance(row, dict):
        raise ValueError("not an object")
    return row


def _valid(line: bytes) -> bool:
    try:
        _row(line)
    except ValueError:
        return False
    return True


def entry(n: int) -> audit.AuditEntry:
    return audit.AuditEntry(
        time=f"2026-11-30T00:00:{n:02d}Z",
        actor="ada",
        action="approve",
        guide=f"g{n}",
        from_state="draft",
        to_state="approved",
    )


def test_a_valid_unterminated_line_is_kept_and_terminated(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"n": 1}\n{"n": 2}')
    contents = journal.read(path, _row)
    assert contents.rows == [{"n": 1}, {"n": 2}] and contents.torn is None
    assert journal.append(path, [b'{"n": 3}'], _valid) is None
    assert path.read_bytes() == b'{"n": 1}\n{"n": 2}\n{"n": 3}\n'
    assert not list(tmp_path.glob("*.torn-*"))


def test_an_invalid_torn_tail_is_copied_aside_and_removed_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"n": 1}\n{"n": 2}\n{"n": 3, "na')
    contents = journal.read(path, _row)
    assert contents.rows == [{"n": 1}, {"n": 2}] and contents.bad == []
    assert contents.torn is not None and contents.torn.number == 3
    torn = journal.append(path, [b'{"n": 4}'], _valid)
    assert torn == journal.Torn(path, 3, tmp_path / "log.jsonl.torn-1")
    assert torn.message == (
        "line 3 was torn by an interrupted write; kept it as log.jsonl.torn-1 and removed it"
    )
    assert (tmp_path / "log.jsonl.torn-1").read_bytes() == b'{"n": 3, "na'
    assert path.read_bytes() == b'{"n": 1}\n{"n": 2}\n{"n": 4}\n'
    path.write_bytes(path.read_bytes() + b"{")
    assert journal.append(path, [b'{"n": 5}'], _valid).aside.name == "log.jsonl.torn-2"
    assert journal.read(path, _row).aside == [
        tmp_path / "log.jsonl.torn-1",
        tmp_path / "log.jsonl.torn-2",
    ]


def test_a_torn_tail_with_no_newline_before_it_is_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"x" * 200_000)
    torn = journal.append(path, [b'{"n": 1}'], _valid)
    assert torn is not None and torn.line == 1
    assert torn.aside.stat().st_size == 200_000
    assert path.read_bytes() == b'{"n": 1}\n'


def test_a_damaged_middle_line_is_reported_with_its_number(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"n": 1}\n\nnot json\n[1]\n{"n": 5}\n')
    contents = journal.read(path, _row)
    assert contents.rows == [{"n": 1}, {"n": 5}]
    assert [(bad.number, bad.text) for bad in contents.bad] == [(3, b"not json"), (4, b"[1]")]
    assert contents.torn is None
    assert journal.append(path, [b'{"n": 6}'], _valid) is None
    assert path.read_bytes().endswith(b'[1]\n{"n": 5}\n{"n": 6}\n'), "complete lines are kept"


def test_a_group_append_of_many_lines_is_one_fsync(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"n": 0}')  # unterminated and valid: its newline goes in the same write
    calls = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        calls.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", counting_fsync)
    lines = [json.dumps({"n": n}).encode() for n in range(1, 501)]
    assert journal.append(path, lines, _valid) is None
    assert len(calls) == 1
    assert [row["n"] for row in journal.read(path, _row).rows] == list(range(501))
    with journal.Journal(path, _valid) as log:
        log.extend(lines[:10])
        log.append(lines[0])
    assert len(calls) == 3


def test_a_line_holding_a_newline_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="newline"):
        journal.append(tmp_path / "log.jsonl", [b'{"a": 1}\n{"b": 2}'], _valid)
    assert not (tmp_path / "log.jsonl").exists() or (tmp_path / "log.jsonl").read_bytes() == b""


def test_a_folder_in_place_of_a_journal_is_refused(tmp_path: Path) -> None:
    (tmp_path / "log.jsonl").mkdir()
    with pytest.raises(journal.JournalError, match="not a regular file"):
        journal.read(tmp_path / "log.jsonl", _row)


GROUP = 5


def _appender(path: Path, writer: int) -> None:
    """Append groups of GROUP lines forever (until killed), each group one call."""
    n = 0
    while True:
        lines = [
            json.dumps({"w": writer, "g": n, "i": i, "pad": "x" * random.randrange(2000)}).encode()
            for i in range(GROUP)
        ]
        journal.append(path, lines, _valid)
        n += 1


def test_writers_killed_at_random_leave_only_whole_groups(tmp_path: Path) -> None:
    """Kill concurrent appenders at random moments: every line whole, every group together."""
    path = tmp_path / "log.jsonl"
    rng = random.Random(int(os.environ.get("PREPGUIDE_KILL_SEED", random.randrange(2**32))))
    for round_ in range(5):
        pids = []
        for writer in range(3):
            pid = os.fork()
            if pid == 0:  # the child never returns to pytest
                try:
                    _appender(path, round_ * 10 + writer)
                finally:
                    os._exit(0)
            pids.append(pid)
        time.sleep(rng.uniform(0.01, 0.15))
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        for pid in pids:
            os.waitpid(pid, 0)
    contents = journal.read(path, _row)
    assert contents.bad == [] and contents.torn is None
    assert path.read_bytes().endswith(b"\n")
    rows = contents.rows
    assert len(rows) >= GROUP
    for start in range(0, len(rows), GROUP):
        group = rows[start : start + GROUP]
        assert [row["i"] for row in group] == list(range(GROUP)), "a group was split"
        assert len({(row["w"], row["g"]) for row in group}) == 1, "groups interleaved"


# --- the callers keep their messages and rules ----------------------------------------------


def test_audit_reports_and_sets_aside_a_torn_tail_naming_the_log(tmp_path: Path) -> None:
    path = tmp_path / ".audit.jsonl"
    assert audit.append(path, entry(1)) is None
    with path.open("ab") as handle:
        handle.write(b'{"time": "2026-11-30T00:00:00Z", "actor": "a", "act')
    log = audit.load(path)
    assert [e.guide for e in log.entries] == ["g1"]
    assert [(p.rule, p.path) for p in log.problems] == [("audit.torn", str(path))]
    assert "line 2 is incomplete (an interrupted write)" in str(log.problems[0])
    warning = audit.append(path, entry(2))
    assert warning is not None and warning.rule == "audit.torn"
    assert str(warning) == (
        f"{path}: line 2 was torn by an interrupted write; "
        "kept it as .audit.jsonl.torn-1 and removed it"
    )
    log = audit.load(path)
    assert [e.guide for e in log.entries] == ["g1", "g2"]
    assert [p.rule for p in log.problems] == ["audit.torn"]
    assert ".audit.jsonl.torn-1 holds a line" in str(log.problems[0])


def test_audit_keeps_a_valid_unterminated_entry(tmp_path: Path) -> None:
    path = tmp_path / ".audit.jsonl"
    audit.append(path, entry(1))
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    assert audit.load(path).problems == []
    audit.append(path, entry(2))
    assert [e.guide for e in audit.read(path)] == ["g1", "g2"]
    assert path.read_bytes().count(b"\n") == 2


def test_audit_names_a_bad_middle_line(tmp_path: Path) -> None:
    path = tmp_path / ".audit.jsonl"
    audit.append(path, entry(1))
    path.write_bytes(path.read_bytes() + b'{"time": 1}\n')
    audit.append(path, entry(3))
    log = audit.load(path)
    assert [e.guide for e in log.entries] == ["g1", "g3"]
    assert [p.rule for p in log.problems] == ["audit"]
    assert str(log.problems[0]).startswith(f"{path}: line 2 is not a valid audit entry")


def test_the_ledger_sets_a_torn_tail_aside_and_reports_it(tmp_path: Path) -> None:
    path = tmp_path / ".verification.jsonl"
    row = LedgerRow(
        at=datetime(2026, 11, 1, tzinfo=UTC), url="https://a.example/", ids=["a"],
        outcome="live", method="GET",
    )  # fmt: skip
    path.write_bytes(row.model_dump_json().encode() + b'\n{"url": "x", "surprise": 1}\n{"at": "2')
    ledger = Ledger.load(path)
    assert len(ledger.rows) == 1
    assert [(p.rule, p.field) for p in ledger.problems] == [
        ("ledger.invalid", "at"),
        ("ledger.torn", None),
    ]
    assert "line 2:" in str(ledger.problems[0]) and "line 3 is incomplete" in str(
        ledger.problems[1]
    )
    ledger.append([row, row])
    assert ledger.problems[-1].rule == "ledger.torn"
    assert "kept it as .verification.jsonl.torn-1" in str(ledger.problems[-1])
    assert (tmp_path / ".verification.jsonl.torn-1").read_bytes() == b'{"at": "2'
    again = Ledger.load(path)
    assert len(again.rows) == 3
    assert [p.rule for p in again.problems] == ["ledger.invalid", "ledger.torn"]


def test_the_digest_journal_keeps_a_valid_unterminated_row(tmp_path: Path) -> None:
    """New rule: the send log used to drop even a valid unterminated last row."""
    path = tmp_path / "sends.jsonl"
    path.write_bytes(b'{"event": "sent", "email": "a"}')
    with digest_journal.Journal(path) as log:
        log.append({"event": "sent", "email": "b"})
    assert log.warnings == []
    rows, bad = digest_journal.read(path)
    assert [row["email"] for row in rows] == ["a", "b"] and bad == []


def test_the_digest_journal_sets_a_torn_row_aside_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "sends.jsonl"
    path.write_bytes(b'{"event": "sent", "email": "a"}\n{"event": "att')
    rows, bad = digest_journal.read(path)
    assert len(rows) == 1 and [b.number for b in bad] == [2]
    with digest_journal.Journal(path) as log:
        log.append({"event": "sent", "email": "b"})
    assert log.warnings == [
        f"{path}: line 2 was torn by an interrupted write; "
        "kept it as sends.jsonl.torn-1 and removed it"
    ]
    rows, bad = digest_journal.read(path)
    assert [row["email"] for row in rows] == ["a", "b"] and bad == []
