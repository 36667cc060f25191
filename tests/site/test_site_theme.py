"""Theming without forking: a root's templates/, catalogue and static/, and [site] logo, footer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_publish import published_workspace, site_files
from test_publish_incremental import cold_build

from generator.core.catalogue import packaged_catalogues
from generator.core.errors import ConfigError
from generator.guides.project import Project
from generator.site import publish
from generator.site.pages import packaged_templates
from generator.site.theme import packaged_static

GUIDE = "guides/shopify-catalog-clustering/index.html"


@pytest.fixture
def site_root(workspace: Path) -> Path:
    return published_workspace(workspace)


def set_site(root: Path, *lines: str) -> None:
    config = root / "prepguide.toml"
    config.write_text(config.read_text().replace("[site]\n", "[site]\n" + "\n".join(lines) + "\n"))


def own_template(root: Path, name: str, text: str) -> Path:
    path = root / "templates" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_roots_template_replaces_the_shipped_one_of_its_name_only(site_root: Path):
    base = packaged_templates()["base.html"]
    note = '<p class="house-note">Our house</p>'
    own_template(site_root, "base.html", base.replace("<main>", f"{note}\n<main>"))
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    pages = {n: d.decode() for n, d in site_files(out).items() if n.endswith(".html")}
    assert len(pages) > 10
    for name, text in pages.items():
        assert '<p class="house-note">Our house</p>' in text, name
    # The other templates are still the shipped ones.
    assert 'class="part source-account" data-kind="reports"' in pages[GUIDE]


def test_editing_an_override_remakes_the_pages_and_equals_a_cold_build(
    site_root: Path, tmp_path: Path
):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    shipped = packaged_templates()["guide.html"]
    own_template(site_root, "guide.html", shipped.replace("<article", "<article data-own"))
    report = publish(Project(site_root), out, preview=False)
    assert report.written == 2  # the two guide pages, nothing else
    assert "<article data-own" in (out / GUIDE).read_text()
    assert "data-own" not in (out / "index.html").read_text()
    own_template(site_root, "guide.html", shipped.replace("<article", "<article data-again"))
    publish(Project(site_root), out, preview=False)
    assert "<article data-again" in (out / GUIDE).read_text()
    (site_root / "static").mkdir()
    (site_root / "static/extra.css").write_text("p { margin: 0; }\n")
    report = publish(Project(site_root), out, preview=False)
    assert report.written == 1 and (out / "extra.css").is_file()
    assert publish(Project(site_root), out, preview=False).reused
    assert site_files(out) == cold_build(site_root, tmp_path / "cold", False)


def test_a_second_language_is_one_file(site_root: Path):
    english = (packaged_catalogues() / "en.toml").read_text(encoding="utf-8")
    german = (
        english.replace('"January", "February", "March"', '"Januar", "Februar", "März"')
        .replace('"October", "November", "December"', '"Oktober", "November", "Dezember"')
        .replace('"May", "June"', '"Mai", "Juni"')
        .replace('day = "{day} {month} {year}"', 'day = "{day}. {month} {year}"')
        .replace('last_reviewed = "Last reviewed {date}"', 'last_reviewed = "Geprüft am {date}"')
        .replace('reading_time = "{minutes} min read"', 'reading_time = "{minutes} Min. Lesezeit"')
        .replace('guides = "Guides"', 'guides = "Leitfäden"')
        .replace(
            'other = "{count} of the {total} engineering write-ups in our database mention '
            '{name} in their {where}."',
            'other = "{count} der {total} Artikel unserer Datenbank nennen {name} ({where})."',
        )
        .replace('where_stack = "stack"', 'where_stack = "Stack"')
        .replace(
            'separator = ", "\nlast = "{items} and {last}"',
            'separator = ", "\nlast = "{items} und {last}"',
        )
    )
    assert german.count("unserer Datenbank") == 1 and "und {last}" in german
    own_template(site_root, "catalogue/de.toml", german)
    set_site(site_root, 'language = "de"')
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    page = (out / GUIDE).read_text()
    assert page.startswith('<!doctype html>\n<html lang="de">')
    assert 'Geprüft am <time datetime="2026-11-30">30. November 2026</time>' in page
    assert re.search(r'<span class="reading-time">\d+ Min\. Lesezeit</span>', page)
    assert 'Published <time datetime="2026-05-20">20. Mai 2026</time>' in page
    assert '<a href="../../index.html">Leitfäden</a>' in page
    hub = (out / "topics/gpus/index.html").read_text()
    assert "3 der 4 Artikel unserer Datenbank nennen GPUs (Stack)." in hub
    assert "(Meta und Shopify)" in hub


def test_static_files_are_copied_and_replace_the_shipped_stylesheet(site_root: Path):
    static = site_root / "static"
    (static / "img").mkdir(parents=True)
    (static / "style.css").write_text("body { color: rebeccapurple; }\n")
    logo = b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 96 32'/>"
    (static / "img/logo.svg").write_bytes(logo)
    (static / "about").mkdir()
    (static / "about/index.html").write_text("<!doctype html><title>About</title>")
    (static / ".DS_Store").write_bytes(b"\0")
    set_site(
        site_root,
        'logo = "img/logo.svg"',
        'description = "Short career guides for platform engineers."',
        'footer_links = [{label = "About us", url = "about/index.html"}, '
        '{label = "Mastodon", url = "https://social.example.net/@prepguide"}]',
    )
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    files = site_files(out)
    assert files["style.css"] == b"body { color: rebeccapurple; }\n"
    assert files["img/logo.svg"] == logo
    assert "about/index.html" in files and ".DS_Store" not in files
    page = (out / GUIDE).read_text()
    brand = '<a class="brand" href="../../index.html"><img class="logo" src="../../img/logo.svg"'
    assert f'{brand} alt="" width="96" height="32">Prepguide</a>' in page  # no shift on load
    assert '<a href="../../about/index.html">About us</a>' in page
    assert '<a href="https://social.example.net/@prepguide">Mastodon</a>' in page
    index = (out / "index.html").read_text()
    assert '<p class="lede">Short career guides for platform engineers.</p>' in index
    # A new logo of another size is shown at its size; without its own stylesheet, the site
    # has the shipped one again.
    (static / "img/logo.svg").write_bytes(logo.replace(b"96 32", b"64 32"))
    (static / "style.css").unlink()
    publish(Project(site_root), out, preview=False)
    assert (out / "style.css").read_bytes() == packaged_static()["style.css"]
    assert 'width="64" height="32"' in (out / GUIDE).read_text()


@pytest.mark.parametrize(
    ("name", "text", "rule", "says"),
    [
        ("guide.html", "{% block content %}\n{% if %}", "templates", "line 2"),
        ("guide.html", "{{ site.__class__.__mro__ }}", "templates.sandbox", "may not use"),
        ("guide.html", "{{ nothing_given }}", "templates", "nothing_given"),
        ("guide.html", '{% extends "house.html" %}', "templates", "house.html"),
    ],
)
def test_a_broken_override_is_refused_naming_its_file(
    site_root: Path, name: str, text: str, rule: str, says: str
):
    path = own_template(site_root, name, text)
    with pytest.raises(ConfigError) as caught:
        publish(Project(site_root), site_root / "site", preview=False)
    assert caught.value.rule == rule and str(path) in str(caught.value)
    assert says in str(caught.value)
    assert not (site_root / "site").exists()


def test_an_override_linking_out_of_the_root_is_refused(site_root: Path, tmp_path: Path):
    outside = tmp_path / "elsewhere.html"
    outside.write_text(packaged_templates()["guide.html"])
    (site_root / "templates").mkdir()
    (site_root / "templates/guide.html").symlink_to(outside)
    with pytest.raises(ConfigError) as caught:
        publish(Project(site_root), site_root / "site", preview=False)
    assert caught.value.rule == "templates.symlink"
    (site_root / "templates/guide.html").unlink()
    (site_root / "static").mkdir()
    (site_root / "static/logo.svg").symlink_to(outside)
    with pytest.raises(ConfigError) as caught:
        publish(Project(site_root), site_root / "site", preview=False)
    assert caught.value.rule == "static.symlink"


@pytest.mark.parametrize("taken", ["index.html", "feed.xml", "guides/x/index.html", "topics/a.css"])
def test_a_static_file_may_not_take_a_page_path(site_root: Path, taken: str):
    path = site_root / "static" / taken
    path.parent.mkdir(parents=True)
    path.write_text("mine")
    with pytest.raises(ConfigError) as caught:
        publish(Project(site_root), site_root / "site", preview=False)
    assert caught.value.rule == "static" and taken in str(caught.value)


@pytest.mark.parametrize(
    ("lines", "field"),
    [
        (['logo = "logo.svg"'], "site.logo"),  # no such file in static/
        (['logo = "../logo.svg"'], "site.logo"),
        (['logo = "notes.txt"'], "site.logo"),
        (['footer_links = [{label = "x", url = "javascript:alert(1)"}]'], "site.footer_links"),
        (['footer_links = [{label = "About", url = "about/index.html"}]'], "site.footer_links"),
        (['footer_links = [{label = "", url = "https://example.net/"}]'], "site.footer_links"),
    ],
)
def test_theme_settings_are_checked(site_root: Path, lines: list[str], field: str):
    set_site(site_root, *lines)
    with pytest.raises(ConfigError) as caught:
        publish(Project(site_root), site_root / "site", preview=False)
    assert str(caught.value.field).startswith(field), caught.value
