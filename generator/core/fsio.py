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
DEFAULT_DIR_MODE = 0o777 & ~_UMASK
TEMP_SUFFIX = ".tmp"
# .<name>.<pid>.<random>.tmp, as atomic_write_bytes names its temporary files.
TEMP_NAME = re.compile(r"^\..+\.(\d+)\.[^.]+\.tmp$")


def _write_temp(path: Path, data: bytes) -> tuple[int, str]:
    """Write data to a new temporary file beside path; return its open descriptor and name."""
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
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except BaseException:
        os.close(fd)
        Path(tmp).unlink(missing_ok=True)
        raise
    return fd, tmp


def atomic_write_bytes(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write data to path via a temporary file and os.replace; fsync unless not durable."""
    fd, tmp = _write_temp(path, data)
    try:
        try:
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _load_syncfs():
    try:
        import ctypes

        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (AttributeError, ImportError, OSError):
        return None
    syncfs.argtypes = [ctypes.c_int]
    return syncfs


_SYNCFS: list = []


def _flush_to_disk(fds: list[int]) -> None:
    """Make the data of these open files durable: one syncfs per file system, else fsync each."""
    if not _SYNCFS:
        _SYNCFS.append(_load_syncfs())
    syncfs = _SYNCFS[0]
    if syncfs is None:
        for fd in fds:
            os.fsync(fd)
        return
    # One journal commit for the whole batch instead of one (or more) per file.
    devices = {os.fstat(fd).st_dev: fd for fd in fds}
    for fd in devices.values():
        if syncfs(fd) != 0:
            import ctypes

            errno = ctypes.get_errno()
            raise OSError(errno, os.strerror(errno))


def atomic_write_many(items: list[tuple[Path, bytes]]) -> None:
    """Write several files atomically with one flush to disk: temporaries, sync, then renames.

    Renames happen in the order given, after every file's data is on disk, so a kill at any
    moment leaves each target either whole (old or new content) or absent, never partial.
    """
    staged: list[tuple[int, str, Path]] = []
    try:
        for path, data in items:
            fd, tmp = _write_temp(path, data)
            staged.append((fd, tmp, path))
        _flush_to_disk([fd for fd, _, _ in staged])
    except BaseException:
        for fd, tmp, _ in staged:
            os.close(fd)
            Path(tmp).unlink(missing_ok=True)
        raise
    for fd, _, _ in staged:
        os.close(fd)
    try:
        for _, tmp, path in staged:
            os.replace(tmp, path)
    except BaseException:
        for _, tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write UTF-8 text to path atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))


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


def process_running(pid: int) -> bool:
    """Return True while a process with this id exists."""
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
        if match and not process_running(int(match.group(1))):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def atomic_write_all(items: list[tuple[Path, bytes]]) -> None:
    """Like atomic_write_many for any number of files: each temporary is closed once written.

    One file is fsynced; more are flushed with one syncfs (else one fsync each) before the
    renames, which are flushed again before returning, so the new names are durable too.
    """
    if not items:
        return
    if len(items) == 1:
        path, data = items[0]
        atomic_write_bytes(path, data)
        _sync_folder(path.parent)
        return
    if not _SYNCFS:
        _SYNCFS.append(_load_syncfs())
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in items:
            fd, tmp = _write_temp(path, data)
            staged.append((tmp, path))
            try:
                if _SYNCFS[0] is None:
                    os.fsync(fd)
            finally:
                os.close(fd)
        _flush_folders({path.parent for _, path in staged})
        for tmp, path in staged:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise
    _flush_folders({path.parent for _, path in staged})


def write_in_place(items: list[tuple[Path, bytes]], *, flush: bool = True) -> None:
    """Overwrite files where they are (no temporary, no rename), then flush them all to disk.

    Not atomic: only for files that a durable write-ahead record can write again after a
    kill, and whose readers consult that record while it exists (review/group.py).
    flush=False leaves the flush to the caller's next one (a syncfs covers these files).
    """
    if not items:
        return
    if not _SYNCFS:
        _SYNCFS.append(_load_syncfs())
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    folders: set[Path] = set()
    for path, data in items:
        try:
            fd = os.open(path, flags, DEFAULT_MODE)
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, flags, DEFAULT_MODE)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if _SYNCFS[0] is None:
                os.fsync(fd)
        finally:
            os.close(fd)
        folders.add(path.parent)
    if flush:
        _flush_folders(folders)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_folder(folder: Path) -> None:
    """Make the names in a folder (a file created, renamed or removed there) durable."""
    _sync_folder(folder)


def _flush_folders(folders: set[Path]) -> None:
    """Flush the file systems of these folders (syncfs), else fsync each folder."""
    fds = [os.open(folder, os.O_RDONLY) for folder in sorted(folders)]
    try:
        if _SYNCFS and _SYNCFS[0] is not None:
            _flush_to_disk(fds)
        else:
            for fd in fds:
                os.fsync(fd)
    finally:
        for fd in fds:
            os.close(fd)
