"""The publish's kept state and compiled templates are data: a crafted file is never run."""

from __future__ import annotations

import hashlib
import json
import pickle
import random
from pathlib import Path

from jinja2.bccache import bc_magic
from test_publish import published_workspace, run, site_files
from test_publish_incremental import cold_build, edit_summary

from generator.site.pages import forget_compiled, packaged_templates, template_folder


class _Payload:
    """Unpickling this writes the marker file: what a poisoned cache would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (exec, (f"open({str(self.marker)!r}, 'w').write('ran')",))


def _plant(root: Path, marker: Path) -> None:
    """Put a code-running file everywhere a build of this tool or an older one reads a cache."""
    folder = root / ".prepguide/publish"
    payload = pickle.dumps(_Payload(marker))
    for manifest in folder.glob("manifest-*.json"):
        key = manifest.stem.removeprefix("manifest-")
        for name in ("state", "records"):
            for suffix in (".json", ".pickle"):
                (folder / f"{name}-{key}{suffix}").write_bytes(payload)
    # Jinja2's FileSystemBytecodeCache: a magic header, then a pickled checksum.
    templates = folder / "templates"
    templates.mkdir(exist_ok=True)
    for name in packaged_templates():
        filename = str(template_folder() / name)
        key = hashlib.sha1(f"{name}|{filename}".encode()).hexdigest()
        (templates / f"__jinja2_{key}.cache").write_bytes(bc_magic + payload)
    for path in folder.rglob("*"):
        if path.is_file():
            path.chmod(0o600)


def test_a_poisoned_publish_cache_is_rebuilt_and_never_run(workspace: Path, tmp_path: Path):
    root = published_workspace(workspace)
    marker = tmp_path / "marker"
    run(root, "publish")
    _plant(root, marker)
    edit_summary(root, random.Random(1))  # a build that reads the kept state
    output = run(root, "publish")
    assert not marker.exists()
    assert "moved aside" in output
    assert site_files(root / "site") == cold_build(root, tmp_path / "cold", False)
    _plant(root, marker)
    forget_compiled()  # as a fresh process starts
    run(root, "publish", "--out", str(tmp_path / "second"))
    run(root, "publish")
    assert not marker.exists()


def test_a_kept_state_with_a_foreign_field_is_moved_aside(workspace: Path, tmp_path: Path):
    root = published_workspace(workspace)
    run(root, "publish")
    (state,) = (root / ".prepguide/publish").glob("state-*.json")
    data = json.loads(state.read_text(encoding="utf-8"))
    data["__reduce__"] = "os.system"
    state.write_text(json.dumps(data), encoding="utf-8")
    edit_summary(root, random.Random(2))
    output = run(root, "publish")
    assert "not a publish state of this version" in output
    assert list((root / ".prepguide/publish").glob("state-*.json.broken-*"))
    assert site_files(root / "site") == cold_build(root, tmp_path / "cold", False)
