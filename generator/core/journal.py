"""Append-only JSON Lines files: whole lines, locked and fsynced, and one rule for a torn tail.

The rule, for the last line of a file that lacks its newline (what an append killed mid-write
leaves): when the line is valid it is kept, and the next append ends it with its newline;
when it is not, readers report it and the next append copies it to ``<name>.torn-N`` beside
the file and cuts it off. Every complete line is kept; what a line must hold is the caller's
to say (``valid`` and ``parse``), so a bad line in the middle is reported with its number.
"""

from __future__ import annotations

import fcntl
import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from generator.core.errors import PrepguideError

T = TypeVar("T")
TORN = "torn"
CHUNK = 65536


class JournalError(PrepguideError):
    """A journal cannot be read as a file."""


@dataclass(frozen=True)
class BadLine:
    """A line that could not be parsed: its number, its bytes and the parser's error."""

    number: int
    text: bytes
    error: ValueError


@dataclass(frozen=True)
class Torn:
    """An invalid unterminated last line, copied aside and cut from its journal."""

    path: Path
    line: int
    aside: Path

    @property
    def message(self) -> str:
        return (
            f"line {self.line} was torn by an interrupted write; "
            f"kept it as {self.aside.name} and removed it"
        )


@dataclass
class Contents(Generic[T]):
    """What a journal holds: parsed rows in order, bad complete lines, an invalid torn tail."""

    rows: list[T] = field(default_factory=list)
    bad: list[BadLine] = field(default_factory=list)
    torn: BadLine | None = None
    aside: list[Path] = field(default_factory=list)  # torn tails set aside by earlier appends


def torn_copies(path: Path) -> list[Path]:
    """List the torn tails set aside beside a journal, in the order they were made."""
    found = []
    for copy in path.parent.glob(f"{path.name}.{TORN}-*") if path.parent.is_dir() else []:
        number = copy.name.rsplit("-", 1)[1]
        if number.isdigit():
            found.append((int(number), copy))
    return [copy for _, copy in sorted(found)]


def read_bytes(path: Path) -> bytes:
    """Return the bytes of a journal, b"" when absent; refuse a device or folder in its place."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return b""
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise JournalError("is not a regular file; a journal must be one", path=path)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def parse(raw: bytes, parse_line: Callable[[bytes], T]) -> Contents[T]:
    """Parse each non-blank line; parse_line raises ValueError for a line it cannot read."""
    contents: Contents[T] = Contents()
    lines = raw.split(b"\n")
    last = len(lines)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            contents.rows.append(parse_line(line))
        except ValueError as exc:
            bad = BadLine(number, line, exc)
            if number == last:
                contents.torn = bad
            else:
                contents.bad.append(bad)
    return contents


def read(path: Path, parse_line: Callable[[bytes], T]) -> Contents[T]:
    """Read and parse a journal, listing the torn tails set aside beside it."""
    contents = parse(read_bytes(path), parse_line)
    contents.aside = torn_copies(path)
    return contents


def _free_copy(path: Path) -> tuple[int, Path]:
    """Create the first free `<name>.torn-N` beside path; return its descriptor and path."""
    number = 1
    while True:
        copy = Path(f"{path}.{TORN}-{number}")
        try:
            return os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644), copy
        except FileExistsError:
            number += 1


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class Journal:
    """An append-only file open for appending; every append mends the tail, then fsyncs once."""

    def __init__(self, path: Path, valid: Callable[[bytes], bool]) -> None:
        self.path = path
        self.valid = valid
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)

    def _mend(self) -> tuple[bytes, Torn | None]:
        """Return what must precede the next line: a newline, or nothing after cutting a tear."""
        size = os.fstat(self.fd).st_size
        if size == 0 or os.pread(self.fd, 1, size - 1) == b"\n":
            return b"", None
        start = size
        tail = b""
        while b"\n" not in tail and start > 0:
            start = max(0, start - CHUNK)
            tail = os.pread(self.fd, size - start, start)
        cut = start + tail.rfind(b"\n") + 1
        line = tail[cut - start :]
        if not line.strip() or self.valid(line):
            return b"\n", None
        number = os.pread(self.fd, cut, 0).count(b"\n") + 1
        fd, copy = _free_copy(self.path)
        try:
            _write_all(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.ftruncate(self.fd, cut)
        return b"", Torn(self.path, number, copy)

    def extend(self, lines: Iterable[bytes]) -> Torn | None:
        """Append lines (each without its newline) under an exclusive lock, with one fsync."""
        lines = list(lines)
        if any(b"\n" in line for line in lines):
            raise ValueError("a journal line cannot hold a newline")
        data = b"".join(line + b"\n" for line in lines)
        if not data:
            return None
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        try:
            before, torn = self._mend()
            _write_all(self.fd, before + data)
            os.fsync(self.fd)
        finally:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        return torn

    def append(self, line: bytes) -> Torn | None:
        """Append one line (without its newline) under an exclusive lock and fsync it."""
        return self.extend([line])

    def close(self) -> None:
        os.close(self.fd)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def append(path: Path, lines: Iterable[bytes], valid: Callable[[bytes], bool]) -> Torn | None:
    """Append lines to a journal with one fsync; return the torn tail it set aside, if any."""
    with Journal(path, valid) as journal:
        return journal.extend(lines)
