"""Debian's Chromium driven by Playwright; browser tests fail, never skip, without it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).parent / "artifacts"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def chromium_browser() -> Iterator:
    """Launch Debian's Chromium headless; fail with a clear message when it is missing."""
    assert CHROMIUM.exists(), (
        f"{CHROMIUM} is missing: install Debian's Chromium (apt-get install chromium); "
        "pages must be tested in a real browser"
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()
