"""Nothing unapproved on the public site: the init example, empty companies and topics, previews."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml
from click.testing import CliRunner
from test_publish import published_workspace, site_files
from test_publish_pages import html_pages, sitemap_urls

from generator import review
from generator.cli import cli
from generator.guides.project import Project
from generator.site import publish

EXAMPLE = "example-co-page-cache"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], capture_output=True, text=True, timeout=120
    )


def test_the_init_example_is_marked_and_never_published_and_a_warning_names_it(tmp_path: Path):
    root = tmp_path / "db"
    assert run_cli("init", str(root), "--base-url", "https://n.test/").returncode == 0
    record = root / "sources" / f"{EXAMPLE}.yaml"
    assert yaml.safe_load(record.read_text(encoding="utf-8"))["example"] is True
    # Even verified and approved, the example stays off the published site.
    assert (
        run_cli("--root", str(root), "verify", "--manual", EXAMPLE, "--by", "Ann").returncode == 0
    )
    assert run_cli("--root", str(root), "generate").returncode == 0
    review.approve(Project(root), EXAMPLE, by="Ann")
    built = run_cli("--root", str(root), "publish")
    assert built.returncode == 0, built.stderr
    assert f"warning: {record} is an example record (example: true)" in built.stderr
    assert f"left out {EXAMPLE}: its record is an example" in built.stdout
    for name, data in site_files(root / "site").items():
        assert b"Example Co" not in data, name
    assert sitemap_urls(root / "site") == {
        f"https://n.test/{page}" for page in ("", "topics/", "companies/", "digest/")
    }
    assert review.read_state(Project(root), EXAMPLE).status == "approved", "not marked published"
    # A preview shows it, bannered, in its own folder; build warns there too.
    preview = run_cli("--root", str(root), "build", "--preview")
    assert preview.returncode == 0, preview.stderr
    assert "is an example record" in preview.stderr
    page = root / "site-preview" / "guides" / EXAMPLE / "index.html"
    assert "How Example Co cached its product pages" in page.read_text(encoding="utf-8")
    ignored = (root / ".gitignore").read_text(encoding="utf-8").split()
    assert {"site/", "site-preview/", ".site-preview.previous/"} <= set(ignored)


def add_record(root: Path, key: str, **fields: object) -> None:
    record = {
        "company": "Acme",
        "title": f"Acme write-up {key}",
        "url": f"https://acme.example.com/{key}",
        "published": "2025-03-01",
        "summary": "Acme reports something.",
        **fields,
    }
    (root / "sources" / f"{key}.yaml").write_text(yaml.safe_dump(record), encoding="utf-8")


def test_a_company_or_topic_with_no_guide_on_the_site_has_no_page_and_no_sitemap_entry(
    workspace: Path,
):
    root = published_workspace(workspace)
    add_record(root, "acme-one", stack=["GPUs"], techniques=["bespoke thing"])
    add_record(root, "acme-two", techniques=["bespoke thing"])
    out = root / "site"
    publish(Project(root), out, preview=False)
    urls = sitemap_urls(out)
    assert not (out / "companies/acme").exists() and not (out / "topics/bespoke-thing").exists()
    assert not any("/companies/acme/" in url or "/bespoke-thing/" in url for url in urls)
    pages = html_pages(out)
    assert not any(
        "companies/acme/" in page or "topics/bespoke-thing/" in page for page in pages.values()
    )
    # The record still counts in the statistics and shows as a card on a hub with guides.
    hub = pages["topics/gpus/index.html"]
    assert 'id="acme-one"' in hub and "4 of the 6 engineering write-ups" in hub
    assert "Acme" not in pages["companies/index.html"]
    # A related story never links a company page that does not exist.
    assert "companies/shopify/index.html" in pages["guides/shopify-catalog-clustering/index.html"]


def test_a_preview_goes_to_its_own_folder_and_never_replaces_a_published_site(
    workspace: Path,
):
    root = published_workspace(workspace)
    runner = CliRunner()
    published = runner.invoke(cli, ["--root", str(root), "publish"])
    assert published.exit_code == 0, published.output
    before = site_files(root / "site")
    preview = runner.invoke(cli, ["--root", str(root), "publish", "--preview"])
    assert preview.exit_code == 0, preview.output
    assert (root / "site-preview/guides/meta-gem/index.html").is_file()
    assert f"to {root / 'site-preview'}" in preview.output
    assert "Disallow: /" in (root / "site-preview/robots.txt").read_text()
    refused = run_cli("--root", str(root), "publish", "--out", str(root / "site"), "--preview")
    assert refused.returncode != 0
    assert "holds a published site" in refused.stderr
    assert site_files(root / "site") == before, "the published site was touched"
