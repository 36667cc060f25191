"""Browser tests skip with a clear reason when Chromium is missing, but never under CI."""

from __future__ import annotations

from pathlib import Path

import browser
import pytest


@pytest.fixture
def no_chromium(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setattr(browser, "CHROMIUM", Path("/nonexistent/chromium"))
    return monkeypatch


def test_missing_chromium_skips_and_says_how_to_install_it(no_chromium) -> None:
    no_chromium.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped, browser.chromium_browser():
        pass
    reason = str(skipped.value)
    assert "/nonexistent/chromium is missing" in reason
    assert "apt-get update && apt-get install -y --no-install-recommends chromium" in reason
    assert "pytest -m 'not browser'" in reason


def test_under_ci_missing_chromium_fails_instead_of_skipping(no_chromium) -> None:
    no_chromium.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="never skip"), browser.chromium_browser():
        pass
