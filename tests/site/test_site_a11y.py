"""Accessibility: axe-core in Debian's Chromium on every kind of page of the published site.

axe.min.js comes from the axe-playwright-python package (test extra), so nothing is fetched.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import axe_script, chromium_browser
from test_digest_site import digest_site
from test_site_browser import local_only

from generator.guides.project import Project
from generator.site import publish

pytestmark = pytest.mark.browser

BLOCKING = ("serious", "critical")
PAGES = [
    "index.html",
    "guides/shopify-catalog-clustering/index.html",
    "topics/gpus/index.html",
    "companies/meta/index.html",
    "digest/index.html",
    "digest/2026-W49/index.html",
]


def axe_violations(site: Path, pages: list[str]) -> dict[str, list[dict]]:
    """Run axe-core on each page; return its violations by page (every impact)."""
    script = axe_script()
    found = {}
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        for relative in pages:
            page.goto((site / relative).as_uri())
            page.evaluate(script)
            found[relative] = page.evaluate(
                "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)"
            )
        local_only(requests)
    return found


def describe(violations: dict[str, list[dict]]) -> str:
    return "\n".join(
        f"{page}: {v['id']} ({v['impact']}) {v['help']} at {[n['target'] for n in v['nodes']]}"
        for page, found in violations.items()
        for v in found
    )


def test_no_serious_or_critical_axe_violation_on_any_kind_of_page(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    root = digest_site(workspace, monkeypatch, subscribe=True)
    found = axe_violations(root / "site", PAGES)
    print(describe(found) or "axe-core: no violations")
    blocking = {page: [v for v in vs if v["impact"] in BLOCKING] for page, vs in found.items()}
    assert not any(blocking.values()), describe(blocking)
    # The labels that once missed 4.5:1 are checked by name.
    assert not [v for vs in found.values() for v in vs if v["id"] == "color-contrast"]


def test_a_preview_keeps_its_banner_inside_a_landmark(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    root = digest_site(workspace, monkeypatch, subscribe=False)
    out = root / "preview"
    publish(Project(root), out, preview=True)
    found = axe_violations(out, ["index.html", "guides/meta-gem/index.html"])
    print(describe(found) or "axe-core: no violations")
    failing = [
        v for vs in found.values() for v in vs if v["impact"] in BLOCKING or v["id"] == "region"
    ]
    assert not failing, describe(found)
