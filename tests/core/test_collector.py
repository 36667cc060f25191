"""The collector helpers: pausing for imports and freezing at exit leave the state as found."""

from __future__ import annotations

import gc
import subprocess
import sys

from generator.core import collector as heap


def test_paused_turns_the_collector_off_inside_and_back_on_only_if_it_was_on() -> None:
    assert gc.isenabled()
    with heap.paused():
        assert not gc.isenabled()
        with heap.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with heap.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_heap_is_frozen_at_exit_and_atexit_handlers_still_run() -> None:
    script = (
        "import atexit, gc\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
        "from generator.core import collector as heap\n"
        "heap.freeze_at_exit(); heap.freeze_at_exit()\n"
        "print('before', gc.get_freeze_count())\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["before", "0", "frozen", "True"]
