"""One send per issue at a time: an fcntl lock file per week that names who holds it."""

from __future__ import annotations

import fcntl
import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from generator.core.clock import iso
from generator.core.errors import PrepguideError


class SendLockError(PrepguideError):
    """Another process is sending the same issue."""


def _holder(handle) -> str:
    handle.seek(0)
    try:
        info = json.loads(handle.read() or "{}")
    except ValueError:
        info = {}
    if not isinstance(info, dict) or not info:
        return "another process (it has not written its name yet)"
    return f"pid {info.get('pid')} on {info.get('host')}, since {info.get('since')}"


@contextmanager
def send_lock(digest_dir: Path, week: str) -> Iterator[None]:
    """Hold digest/.<week>.send.lock for the block; raise SendLockError when it is held."""
    path = digest_dir / f".{week}.send.lock"
    try:
        digest_dir.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise SendLockError(
            f"cannot take the send lock ({exc.strerror}); nothing was sent", path=path
        ) from exc
    with handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SendLockError(
                f"{week} is being sent by {_holder(handle)}; nothing was sent by this run. "
                "Wait for that send to finish, then run again to pick up anyone it missed",
                path=path,
                rule="digest.lock",
            ) from None
        try:
            handle.seek(0)
            handle.truncate()
            info = {
                "pid": os.getpid(),
                "host": socket.gethostname(),
                "since": iso(datetime.now(tz=UTC)),
            }
            handle.write(json.dumps(info))
            handle.flush()
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
