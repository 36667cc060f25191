"""A company or tag names a folder of the site: one that is too long is refused at load."""

from __future__ import annotations

from pathlib import Path

import yaml
from checkhelp import run_prepguide
from test_publish import published_workspace

from generator.core.names import MAX_NAME, slugify


def _add_record(root: Path, name: str, **fields: object) -> Path:
    data = yaml.safe_load((root / "sources/meta-prometheus.yaml").read_text(encoding="utf-8"))
    data.pop("url", None)
    data.update(id=name, title=f"{name} title", **fields)
    path = root / "sources" / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_a_long_tag_or_company_is_refused_naming_field_and_limit(workspace: Path) -> None:
    tag = _add_record(workspace, "long-tag", techniques=["t" * 300])
    company = _add_record(workspace, "long-company", company="C" * 4096)
    result = run_prepguide(workspace, "sources", "check")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    for path, field in ((tag, "techniques.0"), (company, "company")):
        line = next(line for line in output.splitlines() if path.name in line and field in line)
        assert f"at most {MAX_NAME}" in line


def test_a_long_name_never_takes_the_site_down(workspace: Path) -> None:
    root = published_workspace(workspace)
    _add_record(root, "long-tag", techniques=["t" * 300], stack=["s" * 300])
    _add_record(root, "long-company", company="C" * 4096)
    result = run_prepguide(root, "publish")
    output = result.stdout + result.stderr
    assert "Traceback" not in output and "too long" not in output.lower()
    assert (root / "site/index.html").is_file()
    assert (root / "site/guides/shopify-catalog-clustering/index.html").is_file()
    check = run_prepguide(root, "sources", "check")
    assert "long-company" in check.stdout + check.stderr


def test_the_longest_allowed_name_makes_a_slug_that_fits_a_file_name() -> None:
    assert len(slugify("\U00020000" * MAX_NAME).encode()) + len(".html") <= 255
