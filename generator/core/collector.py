"""The cyclic collector and long-lived objects: freeze them, and unfreeze only what we froze."""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager


def freeze() -> bool:
    """Move every object made so far out of the collector's reach; True when none was before."""
    outermost = gc.get_freeze_count() == 0
    gc.freeze()
    return outermost


def release(outermost: bool) -> None:
    """Undo a freeze() that returned outermost; an inner one leaves its caller's freeze alone."""
    if outermost:
        gc.unfreeze()


@contextmanager
def frozen() -> Iterator[None]:
    """Keep the collector off what exists on entry, and off what is frozen inside, until exit."""
    outermost = freeze()
    try:
        yield
    finally:
        release(outermost)


@contextmanager
def paused() -> Iterator[None]:
    """Keep the collector off while imports run: they make many objects and little garbage."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_at_exit = False


def freeze_at_exit() -> None:
    """Freeze the heap when the interpreter exits, so its final collections skip it.

    Finalization otherwise walks every object in a few full collections (about 80 ms after a
    generate run); what is frozen is still freed with the process, only not collected first.
    """
    global _at_exit
    if not _at_exit:
        _at_exit = True
        atexit.register(gc.freeze)
