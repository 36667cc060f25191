"""Append-only JSON Lines records (the send ledger, the suppression list), durable per line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.core import journal
from generator.core.errors import PrepguideError


class JournalError(PrepguideError):
    """A digest record file cannot be read or appended to."""


@dataclass(frozen=True)
class BadLine:
    """A line that is not a JSON object, reported and skipped."""

    number: int
    text: str


def _row(line: bytes) -> dict:
    row = json.loads(line)
    if not isinstance(row, dict):
        raise ValueError("not a JSON object")
    return row


def _valid(line: bytes) -> bool:
    try:
        _row(line)
    except ValueError:
        return False
    return True


def read(path: Path) -> tuple[list[dict], list[BadLine]]:
    """Return the rows of a journal and the lines that could not be read (a torn one last)."""
    try:
        contents = journal.read(path, _row)
    except OSError as exc:
        raise JournalError(f"cannot read: {exc.strerror}", path=path) from exc
    except journal.JournalError as exc:
        raise JournalError(exc.message, path=path) from None
    bad = [*contents.bad, *([contents.torn] if contents.torn else [])]
    return contents.rows, [BadLine(b.number, b.text[:80].decode("utf-8", "replace")) for b in bad]


class Journal:
    """An open append-only file: each append is one locked, fsynced line."""

    def __init__(self, path: Path, keep_torn_tail: bool = False) -> None:
        self.path = path
        self.keep_torn_tail = keep_torn_tail
        path.parent.mkdir(parents=True, exist_ok=True)
        self.warnings: list[str] = []  # torn tails set aside, one sentence each
        try:
            # A suppression list keeps even an unreadable torn tail, so that its reader stops
            # the send on it rather than losing an unsubscribe.
            valid = (lambda _line: True) if keep_torn_tail else _valid
            self._journal = journal.Journal(path, valid)
        except OSError as exc:
            raise JournalError(f"cannot open for appending: {exc.strerror}", path=path) from exc

    def append(self, row: dict) -> None:
        """Write one row and flush it to disk before returning."""
        line = json.dumps(row, ensure_ascii=False, sort_keys=True).encode("utf-8")
        try:
            torn = self._journal.append(line)
        except OSError as exc:
            raise JournalError(f"cannot append: {exc.strerror}", path=self.path) from exc
        if torn is not None:
            self.warnings.append(f"{self.path}: {torn.message}")

    def close(self) -> None:
        self._journal.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def rows_for(path: Path, **match) -> Iterator[dict]:
    """Yield the rows whose fields equal the given values."""
    rows, _ = read(path)
    for row in rows:
        if all(row.get(key) == value for key, value in match.items()):
            yield row
