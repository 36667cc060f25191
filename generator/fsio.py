"""Writers: every file the tool writes goes through an atomic replace."""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import tempfile
from pathlib import Path

# mkstemp creates files readable only by their owner; written files get the usual mode.
_UMASK = os.umask(0)
os.umask(_UMASK)
DEFAULT_MODE = 0o666 & ~_UMASK
TEMP_SUFFIX = ".tmp"
# .<name>.<pid>.<random>.tmp, as atomic_write_bytes names its temporary files.
TEMP_NAME = re.compile(r"^\..+\.(\d+)\.[^.]+\.tmp$")


def atomic_write_bytes(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write data to path via a temporary file and os.replace; fsync unless not durable."""
    prefix = f".{path.name}.{os.getpid()}."
    try:
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=TEMP_SUFFIX, dir=path.parent)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = DEFAULT_MODE
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write UTF-8 text to path atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write data atomically unless the file already holds exactly it; return True if written."""
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    atomic_write_bytes(path, data)
    return True


def sha256_text(text: str) -> str:
    """Return the hex SHA-256 of UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def open_sqlite(path: Path, schema: str) -> sqlite3.Connection:
    """Open (creating) a WAL-mode SQLite file that survives a kill at any moment."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("pragma journal_mode=wal")
    db.execute("pragma synchronous=normal")
    db.execute(schema)
    return db


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_orphaned_temp_files(folder: Path) -> list[Path]:
    """Delete temporary files left below folder by writers that were killed mid-write."""
    removed = []
    for path in folder.rglob(f".*{TEMP_SUFFIX}") if folder.is_dir() else []:
        match = TEMP_NAME.match(path.name)
        if match and not _running(int(match.group(1))):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed
