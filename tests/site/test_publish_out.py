"""publish --out replaces a whole folder: only a new, empty or own site folder is taken."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from checkhelp import run_prepguide
from test_publish import published_workspace


@pytest.fixture
def root(workspace: Path) -> Path:
    return published_workspace(workspace)


def _refused(root: Path, out: Path, words: str) -> None:
    before = sorted(p.relative_to(out) for p in out.rglob("*")) if out.exists() else None
    result = run_prepguide(root, "publish", "--out", str(out))
    assert result.returncode != 0, result.stdout
    assert words in result.stderr and "Traceback" not in result.stderr
    after = sorted(p.relative_to(out) for p in out.rglob("*")) if out.exists() else None
    assert after == before


def test_the_root_is_refused(root: Path) -> None:
    _refused(root, root, "is the root")
    _refused(root, root.parent, "is the root or holds it")
    _refused(root, root / "sources" / "site", "inside the root's sources/")
    assert (root / "sources" / "meta-gem.yaml").is_file()


def test_a_copy_of_a_root_is_refused(root: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-root"
    shutil.copytree(root / "sources", other / "sources")
    _refused(root, other, "holds sources")
    (tmp_path / "settings-only").mkdir()
    (tmp_path / "settings-only/prepguide.toml").write_text("", encoding="utf-8")
    _refused(root, tmp_path / "settings-only", "holds prepguide.toml")


def test_a_folder_of_other_files_is_refused(root: Path, tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "holiday.jpg").write_bytes(b"\xff\xd8 a photo")
    _refused(root, photos, "not a site this tool wrote")
    assert (photos / "holiday.jpg").read_bytes() == b"\xff\xd8 a photo"


def test_new_empty_and_own_site_folders_are_taken(root: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    for out in (tmp_path / "new", empty):
        result = run_prepguide(root, "publish", "--out", str(out))
        assert result.returncode == 0, result.stderr
        assert (out / "index.html").is_file()
    run_prepguide(root, "publish")
    # Its kept state is safe to delete: the site it wrote is still known as one of its own.
    shutil.rmtree(root / ".prepguide")
    result = run_prepguide(root, "publish")
    assert result.returncode == 0, result.stderr
    assert (root / "site/guides/shopify-catalog-clustering/index.html").is_file()
