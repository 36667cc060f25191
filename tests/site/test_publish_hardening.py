"""Publishing under kills, concurrency, deleted files and broken caches (issue 11, A and E)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from test_publish import published_workspace, site_files

from generator import review
from generator.cli import cli
from generator.core.errors import PublishError
from generator.guides.document import parse, serialize
from generator.guides.project import Project
from generator.site import publish

REPO = Path(__file__).resolve().parents[2]


def cli_command(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "generator", "--root", str(root), *args]


def cli_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def add_guides(root: Path, count: int) -> None:
    """Clone the sample record and its draft into count more records with drafts."""
    record = yaml.safe_load((root / "sources/shopify-catalog-clustering.yaml").read_text())
    doc = parse((root / "guides/shopify-catalog-clustering.md").read_text())
    body = doc.body
    for i in range(count):
        guide_id = f"clone-{i:04d}"
        url = f"https://example.org/clone/{i}"
        data = dict(record, id=guide_id, url=url)
        (root / f"sources/{guide_id}.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
        doc.body = body.replace(record["url"], url)
        doc.meta.id = guide_id
        doc.meta.source = guide_id
        (root / f"guides/{guide_id}.md").write_text(serialize(doc), encoding="utf-8")


def set_min_sources(root: Path, value: int) -> None:
    config = root / "prepguide.toml"
    text = config.read_text(encoding="utf-8")
    if "[topics]" not in text:
        text += "\n[topics]\nmin_sources = 2\n"
    lines = [
        f"min_sources = {value}" if line.startswith("min_sources") else line
        for line in text.splitlines()
    ]
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def site_root(workspace: Path) -> Path:
    return published_workspace(workspace)


def test_a3_a_killed_incremental_publish_leaves_the_old_site_or_the_new_one(
    site_root: Path, tmp_path: Path
):
    add_guides(site_root, 60)
    set_min_sources(site_root, 2)
    publish(Project(site_root), site_root / "site-preview", preview=True)
    old = site_files(site_root / "site-preview")
    snapshot = tmp_path / "snapshot"
    shutil.copytree(site_root, snapshot, symlinks=True)
    set_min_sources(site_root, 1)
    publish(Project(site_root), tmp_path / "cold", preview=True)
    new = site_files(tmp_path / "cold")
    assert new != old
    command = cli_command(site_root, "publish", "--preview", "--jobs", "1")

    def restore() -> None:
        shutil.rmtree(site_root)
        shutil.copytree(snapshot, site_root, symlinks=True)
        set_min_sources(site_root, 1)

    restore()
    start = time.monotonic()
    subprocess.run(command, env=cli_env(), check=True, capture_output=True)
    duration = time.monotonic() - start
    assert site_files(site_root / "site-preview") == new
    seed = random.randrange(2**32)
    print(f"kill loop seed {seed}, uninterrupted run {duration:.2f}s")
    rng = random.Random(seed)
    outcomes = []
    for _ in range(8):  # iteration cap
        restore()
        process = subprocess.Popen(command, env=cli_env(), stdout=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, duration))
        process.send_signal(signal.SIGKILL)
        process.wait()
        found = site_files(site_root / "site-preview")
        assert found in (old, new), f"a mix of old and new pages (seed {seed})"
        outcomes.append("new" if found == new else "old")
    print(f"outcomes: {outcomes}")
    # The next publish after a kill finishes the job.
    subprocess.run(command, env=cli_env(), check=True, capture_output=True)
    assert site_files(site_root / "site-preview") == new
    # No killed build's tree is left; the site before the current one is kept to build from.
    hidden = [p.name for p in site_root.iterdir() if p.name.startswith(".site.")]
    assert hidden in ([], [".site.previous"])


def _children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a4_workers_exit_when_a_publish_is_killed(site_root: Path):
    add_guides(site_root, 300)
    process = subprocess.Popen(
        # Three processes: this one takes a share of the work, two forked workers the rest.
        cli_command(site_root, "publish", "--preview", "--jobs", "3"),
        env=cli_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while len(workers) < 2 and process.poll() is None and time.monotonic() < deadline:
        workers = _children(process.pid)
        time.sleep(0.005)
    assert len(workers) >= 2, "the publish finished before its workers were seen"
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    orphans = [pid for pid in workers if _alive(pid)]
    for pid in orphans:  # leave nothing behind even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not orphans, "orphaned workers"


def test_a5_a_deleted_working_file_keeps_the_live_version_live(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    page = out / "guides/shopify-catalog-clustering/index.html"
    before = page.read_bytes()
    (site_root / "guides/shopify-catalog-clustering.md").unlink()
    report = publish(Project(site_root), out, preview=False)
    assert "shopify-catalog-clustering" in report.guides
    assert report.missing == ["shopify-catalog-clustering"]
    assert page.read_bytes() == before and report.removed == []
    state = review.read_state(Project(site_root), "shopify-catalog-clustering")
    assert state.status == "published"
    result = CliRunner().invoke(cli, ["--root", str(site_root), "publish"])
    assert result.exit_code == 0, result.output
    assert "shopify-catalog-clustering.md is missing; its approved version stays live" in (
        result.output
    )


def test_a5_a_missing_working_file_after_other_changes_is_still_reported(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    (site_root / "guides/shopify-catalog-clustering.md").unlink()
    record = site_root / "sources/meta-gem.yaml"
    record.write_text(record.read_text() + "notes: A changed note.\n", encoding="utf-8")
    report = publish(Project(site_root), out, preview=False)
    assert report.missing == ["shopify-catalog-clustering"]
    assert (out / "guides/shopify-catalog-clustering/index.html").is_file()


def test_a6_two_publishes_at_once_both_finish_with_one_whole_site(site_root: Path, tmp_path: Path):
    add_guides(site_root, 40)
    publish(Project(site_root), site_root / "site-preview", preview=True)
    set_min_sources(site_root, 1)
    for _ in range(3):
        first, second = (
            subprocess.Popen(
                cli_command(site_root, "publish", "--preview", "--jobs", "1"),
                env=cli_env(),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        )
        for process in (first, second):
            out, err = process.communicate(timeout=120)
            assert process.returncode == 0, err
            assert "Traceback" not in err
        config = (site_root / "prepguide.toml").read_text()
        set_min_sources(site_root, 2 if "min_sources = 1" in config else 1)
    publish(Project(site_root), tmp_path / "cold", preview=True)
    publish(Project(site_root), site_root / "site-preview", preview=True)
    assert site_files(site_root / "site-preview") == site_files(tmp_path / "cold")


def test_a6_a_publish_that_cannot_get_the_lock_refuses_cleanly(site_root: Path):
    lock = site_root / ".prepguide/publish/publish.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'a'); "
            "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(30)",
            str(lock),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(PublishError, match="another publish of this workspace"):
            publish(Project(site_root), site_root / "site", preview=False, lock_timeout=0.3)
        assert not (site_root / "site").exists()
    finally:
        holder.kill()
        holder.wait()
    assert publish(Project(site_root), site_root / "site", preview=False).guides


def test_e23_a_publish_cache_with_another_schema_is_moved_aside(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    cache = site_root / ".prepguide/verdicts.sqlite"
    cache.unlink()
    for leftover in cache.parent.glob("verdicts.sqlite-*"):
        leftover.unlink()
    db = sqlite3.connect(cache)
    db.execute("CREATE TABLE findings (key INTEGER, value BLOB, extra TEXT)")
    db.execute("INSERT INTO findings VALUES (1, x'00', 'x')")
    db.commit()
    db.close()
    report = publish(Project(site_root), site_root / "other", preview=False)
    assert report.guides == ["meta-llm-training-at-scale", "shopify-catalog-clustering"]
    assert any("moved aside" in w and "verdicts.sqlite" in w for w in report.warnings)
    assert list(cache.parent.glob("verdicts.sqlite.corrupt-*"))


@pytest.mark.parametrize(
    "manifest",
    [
        {"version": 2, "pages": {"index.html": ["abc", 12]}},
        {"fingerprint": 7, "pages": []},
        [1, 2, 3],
    ],
)
def test_e23_a_manifest_with_wrong_types_is_moved_aside_and_rebuilt(
    site_root: Path, manifest: object
):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    expected = site_files(out)
    (path,) = (site_root / ".prepguide/publish").glob("manifest-*.json")
    path.write_text(json.dumps(manifest), encoding="utf-8")
    report = publish(Project(site_root), out, preview=False)
    assert any("moved aside" in w and "manifest" in w for w in report.warnings)
    assert site_files(out) == expected
    again = publish(Project(site_root), out, preview=False).warnings
    assert not [w for w in again if "base_url" not in w]  # the sample's base URL is an example


def test_e23_a_tampered_page_of_the_old_site_is_rendered_again_not_reused(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    page = out / "guides/shopify-catalog-clustering/index.html"
    good = page.read_bytes()
    poisoned = good.replace(b"<main", b"<script>alert(1)</script><main", 1)[: len(good)]
    page.write_bytes(poisoned)
    record = site_root / "sources/meta-gem.yaml"
    record.write_text(record.read_text() + "notes: A changed note.\n", encoding="utf-8")
    report = publish(Project(site_root), out, preview=False)
    assert page.read_bytes() == good
    assert "guides/shopify-catalog-clustering/index.html" in report.pages


def test_e24_a_publish_that_cannot_record_its_publication_swaps_nothing_in(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=True)  # a preview records no publication
    before = site_files(out)
    # No review state can be written: the review folder's group lock is a folder.
    lock = site_root / "guides/.review/.group.lock"
    lock.unlink(missing_ok=True)
    lock.mkdir()
    with pytest.raises(PublishError, match="cannot record the publication"):
        publish(Project(site_root), out, preview=False)
    assert site_files(out) == before
    # No killed build's tree is left; the site before the current one is kept to build from.
    hidden = [p.name for p in site_root.iterdir() if p.name.startswith(".site.")]
    assert hidden in ([], [".site.previous"])
    state = review.read_state(Project(site_root), "shopify-catalog-clustering")
    assert state.status == "approved"
    with pytest.raises(PublishError):  # a new site folder is not created either
        publish(Project(site_root), site_root / "fresh", preview=False)
    assert not (site_root / "fresh").exists()
