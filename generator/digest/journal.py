"""Append-only JSON Lines records (the send ledger, the suppression list), durable per line."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import PrepguideError


class JournalError(PrepguideError):
    """A digest record file cannot be read or appended to."""


@dataclass(frozen=True)
class BadLine:
    """A line that is not a JSON object, reported and skipped."""

    number: int
    text: str


def read(path: Path) -> tuple[list[dict], list[BadLine]]:
    """Return the rows of a journal and the lines that could not be read."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return [], []
    except OSError as exc:
        raise JournalError(f"cannot read: {exc.strerror}", path=path) from exc
    rows, bad = [], []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        if isinstance(row, dict):
            rows.append(row)
        else:
            bad.append(BadLine(number, line[:80].decode("utf-8", "replace")))
    return rows, bad


def _is_row(line: bytes) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


class Journal:
    """An open append-only file: each append is one fsynced line."""

    def __init__(self, path: Path, keep_torn_tail: bool = False) -> None:
        self.path = path
        self.keep_torn_tail = keep_torn_tail
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            self._mend_tail()
        except OSError as exc:
            raise JournalError(f"cannot open for appending: {exc.strerror}", path=path) from exc

    def _mend_tail(self) -> None:
        """Drop a torn last line left by a killed append, so the next line starts clean."""
        size = os.fstat(self.fd).st_size
        if size == 0:
            return
        tail = os.pread(self.fd, min(size, 65536), max(0, size - 65536))
        if tail.endswith(b"\n"):
            return
        cut = tail.rfind(b"\n")
        if (cut < 0 and size > 65536) or self.keep_torn_tail or _is_row(tail[cut + 1 :]):
            os.write(self.fd, b"\n")  # a complete row lacking only its newline is kept
            return
        os.ftruncate(self.fd, size - len(tail) + cut + 1)

    def append(self, row: dict) -> None:
        """Write one row and flush it to disk before returning."""
        line = json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n"
        try:
            os.write(self.fd, line.encode("utf-8"))
            os.fsync(self.fd)
        except OSError as exc:
            raise JournalError(f"cannot append: {exc.strerror}", path=self.path) from exc

    def close(self) -> None:
        os.close(self.fd)

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
