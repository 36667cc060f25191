"""Debian's Chromium driven by Playwright; without it browser tests skip, but fail under CI."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import pytest

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


def _missing(what: str) -> None:
    """Skip a browser test for a missing part, except under CI, where it must run."""
    message = (
        f"{what} is missing: run `apt-get update && apt-get install -y "
        "--no-install-recommends chromium` and `pip install -e '.[test]'`"
    )
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message}; under CI=true browser tests never skip", pytrace=False)
    pytest.skip(f"{message} (or run `pytest -m 'not browser'`)")


@contextmanager
def chromium_browser() -> Iterator:
    """Launch Debian's Chromium headless; skip (fail under CI) when it is missing."""
    if not CHROMIUM.exists():
        _missing(f"Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("The playwright package")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def press_access_key(page, key: str) -> None:
    """Press Alt+key as a keyboard does, with the unmodified text that access keys match.

    Playwright's keyboard sends no text while Alt is down, so Chromium sees no access key.
    """
    session = page.context.new_cdp_session(page)
    code = f"Key{key.upper()}"
    event = {"modifiers": 1, "key": key, "code": code, "windowsVirtualKeyCode": ord(key.upper())}
    try:
        session.send(
            "Input.dispatchKeyEvent", {**event, "type": "rawKeyDown", "unmodifiedText": key}
        )
        session.send(
            "Input.dispatchKeyEvent", {**event, "type": "char", "text": key, "unmodifiedText": key}
        )
        session.send("Input.dispatchKeyEvent", {**event, "type": "keyUp"})
    finally:
        session.detach()


def axe_script() -> str:
    """Return axe-core's script, as the axe-playwright-python package ships it."""
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text()


def contrast_violations(page) -> list[dict]:
    """Run axe-core's colour-contrast rule on the page; return its violations."""
    page.evaluate(axe_script())
    return page.evaluate(
        "axe.run(document, {runOnly: ['color-contrast'], resultTypes: ['violations']})"
        ".then(r => r.violations)"
    )
