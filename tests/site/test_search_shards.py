"""The search index in shards: an edit re-indexes its own shard, and search finds them all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser import chromium_browser
from fakes.static_host import StaticHost
from test_publish import published_workspace, site_files
from test_publish_hardening import add_guides
from test_publish_incremental import _inodes

from generator.guides.document import parse, serialize
from generator.guides.project import Project
from generator.site import publish
from generator.site.search import HUBS, shard_folder, shard_of

EDITED = "clone-0004"


def preview_site(workspace: Path) -> Path:
    """Publish a preview of the two sample guides and six clones: several shards."""
    root = published_workspace(workspace)
    add_guides(root, 6)
    publish(Project(root), root / "site-preview", preview=True)
    return root


def shard_names(out: Path) -> list[str]:
    page = (out / "search/index.html").read_text(encoding="utf-8")
    return re.search(r'data-shards="([^"]*)"', page).group(1).split()


def test_the_search_page_names_every_shard_the_build_made(workspace: Path):
    out = preview_site(workspace) / "site-preview"
    made = sorted(p.name for p in (out / "pagefind").iterdir() if p.is_dir())
    assert shard_names(out) == made
    assert HUBS in made and len(made) >= 4
    # Each shard is a whole bundle of its own, its pages' entries and nothing of another's.
    for shard in made:
        assert (out / shard_folder(shard) / "pagefind.js").is_file()
        assert (out / shard_folder(shard) / "pagefind-entry.json").is_file()
        assert not list((out / shard_folder(shard)).glob("pagefind-ui.*"))


def test_an_edit_to_one_guide_re_indexes_only_its_shard(workspace: Path, tmp_path: Path):
    root = preview_site(workspace)
    out = root / "site-preview"
    before, old = _inodes(out), site_files(out)
    path = root / f"guides/{EDITED}.md"
    doc = parse(path.read_text(encoding="utf-8"))
    doc.body = doc.body.replace("## Put it into practice", "Quokka.\n\n## Put it into practice")
    path.write_text(serialize(doc), encoding="utf-8")
    report = publish(Project(root), out, preview=True)
    after, new = _inodes(out), site_files(out)
    own = shard_folder(shard_of(f"guides/{EDITED}/index.html"))
    mates = [p for p in new if p.startswith("guides/") and shard_folder(shard_of(p)) == own]
    assert report.search.rebuilt and report.search.pages == len(mates) < 5
    changed = {p for p in after if p.startswith("pagefind/") and after[p] != before.get(p)}
    assert changed and all(p.startswith(own) for p in changed)
    # The other shards' files are the last build's, the same files with the same bytes.
    others = [p for p in before if p.startswith("pagefind/") and not p.startswith(own)]
    assert others and all(after[p] == before[p] and new[p] == old[p] for p in others)
    assert any(new[p] != old.get(p) for p in changed)
    assert shard_names(out) == shard_names(root / "site-preview")
    assert new["search/index.html"] == old["search/index.html"]
    # The same as a cold build of the same inputs, byte for byte.
    publish(Project(root), tmp_path / "cold", preview=True)
    assert site_files(tmp_path / "cold") == new


@pytest.mark.browser
def test_search_finds_pages_that_live_in_different_shards(workspace: Path):
    out = preview_site(workspace) / "site-preview"
    with StaticHost(out) as host, chromium_browser() as browser:
        page = browser.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto(host.url + "search/index.html?q=Shopify")
        page.locator("#search-results li a").first.wait_for(timeout=15000)
        page.wait_for_function("document.querySelectorAll('#search-results li').length >= 8")
        links = page.locator("#search-results li a")
        found = {link.get_attribute("href").removeprefix("../") for link in links.all()}
        assert "companies/shopify/index.html" in found
        assert f"guides/{EDITED}/index.html" in found
        assert "guides/shopify-catalog-clustering/index.html" in found
        assert len({shard_of(relative) for relative in found}) >= 4
        page.locator(f'#search-results a[href="../guides/{EDITED}/index.html"]').click()
        page.wait_for_load_state()
        assert page.url == host.url + f"guides/{EDITED}/index.html"
        assert problems == [], problems
