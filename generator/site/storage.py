"""Storage: the publish's folder under .prepguide/, and what becomes of a file it cannot read."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.core import collector
from generator.core.clock import now

CACHE_DIR = "publish"


def move_aside(path: Path, why: str, warnings: list[str]) -> None:
    """Rename a broken manifest or kept state out of the way and say so; the build starts afresh."""
    stamp = now().strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.broken-{stamp}-{os.getpid()}")
    try:
        path.rename(target)
    except FileNotFoundError:
        return
    warnings.append(f"{path}: {why}; moved aside to {target.name} and rebuilt")


@contextmanager
def no_collection() -> Iterator[None]:
    """Keep the cyclic collector off while many long-lived objects are made, then freeze them.

    Loading the kept state makes some hundred thousand objects, none of them garbage; the
    collections their allocation triggers would walk them again and again, and so would the
    next ones unless they are frozen (publish unfreezes everything when it ends).
    """
    with collector.paused():
        try:
            yield
        finally:
            gc.freeze()
