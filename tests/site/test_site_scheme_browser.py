"""The dark scheme and print styles, in Debian's Chromium: contrast by axe-core, layout by eye."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import ARTIFACTS, chromium_browser
from test_digest_site import digest_site
from test_site_a11y import PAGES, axe_script, describe
from test_site_browser import local_only

from generator.guides.project import Project
from generator.site import publish

pytestmark = pytest.mark.browser

GUIDE = "guides/shopify-catalog-clustering/index.html"
# The colours of the ground and of the text, as the browser computes them.
COLOURS = """() => {
  const parse = c => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const style = getComputedStyle(document.body);
  return {ground: parse(style.backgroundColor), ink: parse(style.color)};
}"""


def luminance(rgb: list[float]) -> float:
    """Return the WCAG relative luminance of an sRGB colour."""
    channels = [c / 255 for c in rgb]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: list[float], b: list[float]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_dark_scheme_is_dark_and_keeps_aa_contrast_on_every_kind_of_page(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    root = digest_site(workspace, monkeypatch, subscribe=True)
    preview = root / "preview"
    publish(Project(root), preview, preview=True)  # the draft banner and labels too
    pages = [(root / "site", p) for p in PAGES] + [
        (preview, "index.html"),
        (preview, "guides/meta-gem/index.html"),
    ]
    script = axe_script()
    found: dict[str, list[dict]] = {}
    ARTIFACTS.mkdir(exist_ok=True)
    requests: list[str] = []
    with chromium_browser() as browser:
        for scheme in ("dark", "light"):
            page = browser.new_page(viewport={"width": 1100, "height": 900}, color_scheme=scheme)
            page.on("request", lambda request: requests.append(request.url))
            for folder, relative in pages:
                page.goto((folder / relative).as_uri())
                colours = page.evaluate(COLOURS)
                ground = luminance(colours["ground"])
                assert (ground < 0.05) if scheme == "dark" else (ground > 0.9), (scheme, colours)
                assert contrast(colours["ground"], colours["ink"]) >= 7, (relative, colours)
                page.evaluate(script)
                found[f"{scheme} {folder.name}/{relative}"] = page.evaluate(
                    "axe.run(document, {runOnly: ['color-contrast'], resultTypes: ['violations']})"
                    ".then(r => r.violations)"
                )
            page.goto((root / "site" / GUIDE).as_uri())
            page.screenshot(path=str(ARTIFACTS / f"site-guide-{scheme}.png"), full_page=True)
            local_only(requests)
            page.close()
    assert not any(found.values()), describe(found)


def test_a_guide_prints_black_on_white_with_the_originals_addresses(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    root = digest_site(workspace, monkeypatch, subscribe=True)
    ARTIFACTS.mkdir(exist_ok=True)
    with chromium_browser() as browser:
        page = browser.new_page(color_scheme="dark")  # a dark screen still prints on white
        page.goto((root / "site" / GUIDE).as_uri())
        page.emulate_media(media="print")
        shown = page.evaluate(
            """() => Object.fromEntries(
              ['.site-nav', '.breadcrumbs', '.related', '.subscribe', 'article .part', '.citations']
                .map(s => [s, getComputedStyle(document.querySelector(s)).display]))"""
        )
        assert shown[".site-nav"] == shown[".breadcrumbs"] == "none", shown
        assert shown[".related"] == shown[".subscribe"] == "none", shown
        assert shown["article .part"] != "none" and shown[".citations"] != "none", shown
        colours = page.evaluate(COLOURS)
        assert colours["ground"] == [255, 255, 255] and colours["ink"] == [0, 0, 0], colours
        after = page.evaluate(
            "getComputedStyle(document.querySelector('.citations a'), '::after').content"
        )
        assert "https://shopify.engineering/catalog-clustering" in after
        pdf = page.pdf(format="A4")
        (ARTIFACTS / "site-guide-print.pdf").write_bytes(pdf)
    assert pdf.startswith(b"%PDF")
