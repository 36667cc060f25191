"""Incremental publishing: random edits, then the same site as a cold build of the same inputs."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest
import yaml
from test_publish import published_workspace, site_files
from test_publish_hardening import add_guides, set_min_sources

from generator import review
from generator.core.errors import PrepguideError
from generator.guides.document import serialize
from generator.guides.project import Project
from generator.site import publish

TAGS = ["edge caching", "GPUs", "PyTorch", "sharding", "vector search"]


def _record(root: Path, rng: random.Random) -> Path:
    return rng.choice(sorted((root / "sources").glob("*.yaml")))


def _edit_record(root: Path, rng: random.Random, change) -> str:
    path = _record(root, rng)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path.stem


def _live(root: Path) -> list[str]:
    project = Project(root)
    return [
        guide_id
        for guide_id in project.guides.ids()
        if (state := review.read_state(project, guide_id)) and state.live
    ]


def edit_summary(root: Path, rng: random.Random) -> str:
    return _edit_record(root, rng, lambda d: d.update(summary=d["summary"] + " Also in prose."))


def add_tag(root: Path, rng: random.Random) -> str:
    tag = rng.choice(TAGS)
    return _edit_record(root, rng, lambda d: d.setdefault("techniques", []).append(tag))


def drop_tag(root: Path, rng: random.Random) -> str:
    return _edit_record(root, rng, lambda d: d.update(stack=d.get("stack", [])[1:]))


def min_sources(root: Path, rng: random.Random) -> str:
    value = rng.randint(1, 3)
    set_min_sources(root, value)
    return str(value)


def page_size(root: Path, rng: random.Random) -> str:
    config = root / "prepguide.toml"
    lines = [line for line in config.read_text().splitlines() if not line.startswith("page_size")]
    size = rng.randint(1, 6)
    lines.insert(lines.index("[site]") + 1, f"page_size = {size}")
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(size)


def site_name(root: Path, rng: random.Random) -> str:
    config = root / "prepguide.toml"
    lines = [line for line in config.read_text().splitlines() if not line.startswith("name")]
    name = rng.choice(["Prepguide", "Prep Notes", "Guides"])
    lines.insert(lines.index("[site]") + 1, f'name = "{name}"')
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return name


def approve_new_text(root: Path, rng: random.Random) -> str:
    project = Project(root)
    # A guide whose working file was deleted has nothing to edit.
    guide_id = rng.choice(sorted(p.stem for p in (root / "guides").glob("*.md")))
    doc = project.guides.read(guide_id)
    marker = f"An added sentence {rng.randint(0, 999)}."
    doc.body = doc.body.replace("## Put it into practice", f"{marker}\n\n## Put it into practice")
    project.guides.path(guide_id).write_text(serialize(doc), encoding="utf-8")
    try:
        review.approve(Project(root), guide_id, by="Ed")
    except PrepguideError as exc:
        return f"{guide_id} (not approved: {exc.rule})"
    return guide_id


def draft_edit(root: Path, rng: random.Random) -> str:
    path = rng.choice(sorted((root / "guides").glob("*.md")))
    path.write_text(path.read_text(encoding="utf-8") + "\nA draft line.\n", encoding="utf-8")
    return path.stem


def withdraw(root: Path, rng: random.Random) -> str:
    live = _live(root)
    if not live:
        return "none live"
    guide_id = rng.choice(live)
    try:
        review.withdraw(Project(root), guide_id, by="Ed", reason="superseded")
    except PrepguideError as exc:
        return f"{guide_id} (refused: {exc.rule})"
    return guide_id


def delete_working_file(root: Path, rng: random.Random) -> str:
    files = sorted((root / "guides").glob("*.md"))
    path = rng.choice(files)
    path.unlink()
    return path.stem


def delete_record(root: Path, rng: random.Random) -> str:
    path = _record(root, rng)
    path.unlink()
    return path.stem


def add_record(root: Path, rng: random.Random) -> str:
    source = _record(root, rng)
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    new_id = f"new-{rng.randint(0, 10**6)}"
    data.update(id=new_id, url=f"https://example.org/{new_id}")
    (root / "sources" / f"{new_id}.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return new_id


def next_day(root: Path, rng: random.Random, monkeypatch: pytest.MonkeyPatch) -> str:
    moved = int(os.environ["SOURCE_DATE_EPOCH"]) + 86400 * rng.randint(1, 3)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(moved))
    return str(moved)


EDITS = [
    edit_summary,
    add_tag,
    drop_tag,
    min_sources,
    page_size,
    site_name,
    approve_new_text,
    draft_edit,
    withdraw,
    delete_working_file,
    delete_record,
    add_record,
    next_day,
]


def cold_build(root: Path, target: Path, preview: bool) -> dict[str, bytes]:
    """Build the same inputs from scratch: a copy without the site and without any cache."""
    ignored = shutil.ignore_patterns("site", "site-preview", ".prepguide")
    shutil.copytree(root, target, ignore=ignored)
    folder = target / ("site-preview" if preview else "site")
    publish(Project(target), folder, preview=preview)
    return site_files(folder)


def test_an_incremental_build_after_random_edits_equals_a_cold_build(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = published_workspace(workspace)
    add_guides(root, 6)
    for guide_id in (f"clone-{i:04d}" for i in range(0, 6, 2)):
        review.approve(Project(root), guide_id, by="Ed")
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    print(f"random edits, seed {seed}")
    publish(Project(root), root / "site", preview=False)
    for round_number in range(8):
        preview = rng.random() < 0.3
        for _ in range(rng.randint(1, 3)):
            edit = rng.choice(EDITS)
            args = (monkeypatch,) if edit is next_day else ()
            print(f"  round {round_number}: {edit.__name__} {edit(root, rng, *args)}")
        # A preview has a folder of its own, and is built incrementally there too.
        folder = root / ("site-preview" if preview else "site")
        report = publish(Project(root), folder, preview=preview)
        cold = cold_build(root, tmp_path / f"cold-{round_number}", preview)
        assert site_files(folder) == cold, f"round {round_number}, seed {seed}"
        print(f"    preview={preview}: {report.written} of {len(report.pages)} pages changed")


def _inodes(out: Path) -> dict[str, int]:
    return {p.relative_to(out).as_posix(): p.stat().st_ino for p in out.rglob("*") if p.is_file()}


def test_a_draft_edit_of_a_live_guide_changes_no_page(workspace: Path):
    root = published_workspace(workspace)
    out = root / "site"
    publish(Project(root), out, preview=False)
    before = _inodes(out)
    path = root / "guides/shopify-catalog-clustering.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nA draft line.\n", encoding="utf-8")
    report = publish(Project(root), out, preview=False)
    assert (report.written, report.reused) == (0, False)
    assert _inodes(out) == before
    assert report.guides == ["meta-llm-training-at-scale", "shopify-catalog-clustering"]


def test_a_newly_approved_text_rewrites_only_the_pages_that_show_it(workspace: Path):
    root = published_workspace(workspace)
    out = root / "site"
    publish(Project(root), out, preview=False)
    before = _inodes(out)
    project = Project(root)
    doc = project.guides.read("shopify-catalog-clustering")
    doc.body = doc.body.replace("## Put it into practice", "A new line.\n\n## Put it into practice")
    project.guides.path(doc.meta.id).write_text(serialize(doc), encoding="utf-8")
    review.approve(Project(root), "shopify-catalog-clustering", by="Ed")
    report = publish(Project(root), out, preview=False)
    after = _inodes(out)
    changed = sorted(page for page in after if after[page] != before.get(page))
    bundle = [page for page in changed if page.startswith("pagefind/")]
    assert [page for page in changed if page not in bundle] == [
        "feed.xml",
        "guides/shopify-catalog-clustering/index.html",
    ]
    # The indexed text changed, so the search bundle is made again (its unchanged files kept).
    assert report.search.rebuilt and bundle
    assert report.written == 2 + len(bundle)
    assert "A new line." in (out / "guides/shopify-catalog-clustering/index.html").read_text()


def _state(root: Path) -> Path:
    (path,) = (root / ".prepguide/publish").glob("state-*.json")
    return path


def test_a_kept_state_that_is_corrupt_is_moved_aside_and_the_site_is_the_same(
    workspace: Path, tmp_path: Path
):
    root = published_workspace(workspace)
    publish(Project(root), root / "site", preview=False)
    _state(root).write_bytes(b"not a state")
    edit_summary(root, random.Random(1))
    report = publish(Project(root), root / "site", preview=False)
    assert any("moved aside" in w and "state-" in w for w in report.warnings)
    assert site_files(root / "site") == cold_build(root, tmp_path / "cold", False)


def test_a_kept_state_that_others_can_write_is_not_used(workspace: Path, tmp_path: Path):
    root = published_workspace(workspace)
    publish(Project(root), root / "site", preview=False)
    state = _state(root)
    assert state.stat().st_mode & 0o077 == 0
    state.chmod(0o666)
    draft_edit(root, random.Random(2))
    edit_summary(root, random.Random(3))
    report = publish(Project(root), root / "site", preview=False)
    assert any("writable by others" in w for w in report.warnings)
    assert site_files(root / "site") == cold_build(root, tmp_path / "cold", False)


def test_an_approved_revision_changed_after_a_build_is_read_again(workspace: Path):
    root = published_workspace(workspace)
    publish(Project(root), root / "site", preview=False)
    project = Project(root)
    state = review.read_state(project, "shopify-catalog-clustering")
    revision = project.guides.history_dir("shopify-catalog-clustering") / state.live.revision
    revision.write_text(revision.read_text(encoding="utf-8") + "\nA forged line.\n")
    report = publish(Project(root), root / "site", preview=False)
    assert report.guides == ["meta-llm-training-at-scale"]
    assert "no longer matches its approved hash" in report.left_out["shopify-catalog-clustering"]
    assert not (root / "site/guides/shopify-catalog-clustering").exists()


def test_files_put_into_the_site_folder_between_builds_are_kept(workspace: Path):
    root = published_workspace(workspace)
    out = root / "site"
    publish(Project(root), out, preview=False)
    for round_number in range(3):  # a new tree each time: the old one's folders were seen
        (out / "CNAME").write_text(f"guides.example.org {round_number}\n")
        (out / f"guides/shopify-catalog-clustering/note-{round_number}.txt").write_text("kept")
        edit_summary(root, random.Random(round_number))
        report = publish(Project(root), out, preview=False)
        assert report.written > 0
        assert (out / "CNAME").read_text() == f"guides.example.org {round_number}\n"
        notes = sorted(p.name for p in (out / "guides/shopify-catalog-clustering").glob("*.txt"))
        assert notes == [f"note-{n}.txt" for n in range(round_number + 1)]


def test_a_link_put_into_the_kept_previous_site_never_leads_the_build_outside(
    workspace: Path, tmp_path: Path
):
    root = published_workspace(workspace)
    out = root / "site"
    publish(Project(root), out, preview=False)
    edit_summary(root, random.Random(1))
    publish(Project(root), out, preview=False)
    spare = root / ".site.previous"
    assert spare.is_dir()
    outside = tmp_path / "outside"
    outside.mkdir()
    folder = spare / "guides/shopify-catalog-clustering"
    shutil.rmtree(folder)
    folder.symlink_to(outside, target_is_directory=True)
    edit_summary(root, random.Random(2))
    publish(Project(root), out, preview=False)
    assert list(outside.iterdir()) == []
    assert not (out / "guides/shopify-catalog-clustering").is_symlink()
    assert (out / "guides/shopify-catalog-clustering/index.html").is_file()


def test_a_live_text_changed_after_selection_stops_the_build_with_the_old_site_in_place(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    # Selection hands back no text: each page reads its revision again, checked by its hash.
    from generator.core.errors import PublishError
    from generator.site import model

    root = published_workspace(workspace)
    out = root / "site"
    publish(Project(root), out, preview=False)
    before = site_files(out)
    edit_summary(root, random.Random(4))  # every page's inputs change: all are rendered
    project = Project(root)
    state = review.read_state(project, "shopify-catalog-clustering")
    revision = project.guides.history_dir("shopify-catalog-clustering") / state.live.revision
    made = model.SiteModel.__init__

    def tamper_after_selection(self, *args, **kwargs):
        made(self, *args, **kwargs)
        revision.write_text(revision.read_text(encoding="utf-8") + "\nA forged line.\n")

    monkeypatch.setattr(model.SiteModel, "__init__", tamper_after_selection)
    with pytest.raises(PublishError, match="changed while the site was being built"):
        publish(Project(root), out, preview=False)
    assert site_files(out) == before
