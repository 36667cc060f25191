"""The CLI end to end in a throwaway root: build, incremental generate, history, exit codes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from goldens import assert_golden

from generator.core import fsio

SAMPLE_IDS = [
    "meta-gem",
    "meta-llm-training-at-scale",
    "meta-prometheus",
    "shopify-catalog-clustering",
]
LATER_EPOCH = "1796083200"  # 2026-12-01T00:00:00Z


def run_cli(root: Path, *args: str, env: dict[str, str] | None = None):
    return subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def generate(root: Path, *args: str, env: dict[str, str] | None = None):
    result = run_cli(root, "generate", "--backend", "offline", *args, env=env)
    assert result.returncode == 0, result.stderr
    return result


def guide_files(root: Path) -> dict[str, bytes]:
    return {p.stem: p.read_bytes() for p in sorted((root / "guides").glob("*.md"))}


def kept_versions(root: Path, guide_id: str) -> list[bytes]:
    return [p.read_bytes() for p in sorted((root / "guides" / ".history" / guide_id).glob("*.md"))]


def test_build_preview_drafts_every_source_and_says_where_to_open_the_site(
    workspace: Path,
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--preview"],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "backend: offline" in out
    assert "generated 4, skipped 0 unchanged, failed 0" in out
    assert "can be drafted but not published until an editor adds" in out
    assert (
        "checks: 1 of 4 guides clean; 3 have error findings and cannot be approved until fixed "
        "(meta-gem, meta-llm-training-at-scale, meta-prometheus)"
    ) in out
    assert f"open {(workspace / 'site-preview' / 'index.html').as_uri()}" in out
    assert sorted(guide_files(workspace)) == SAMPLE_IDS
    index = (workspace / "site-preview" / "index.html").read_text(encoding="utf-8")
    for guide_id in SAMPLE_IDS:
        page = (workspace / "site-preview/guides" / guide_id / "index.html").read_text()
        assert "Draft: not reviewed" in page
        assert 'name="robots" content="noindex' in page
        assert f"guides/{guide_id}/" in index
    shopify = workspace / "site-preview" / "guides" / "shopify-catalog-clustering" / "index.html"
    assert "What Shopify reports" in shopify.read_text(encoding="utf-8")


def test_generate_is_incremental(workspace: Path) -> None:
    generate(workspace)
    before = guide_files(workspace)
    stamps = {p.name: p.stat().st_mtime_ns for p in (workspace / "guides").glob("*.md")}
    again = generate(workspace, env={"SOURCE_DATE_EPOCH": LATER_EPOCH})
    assert "generated 0, skipped 4 unchanged, failed 0" in again.stdout
    assert guide_files(workspace) == before
    assert stamps == {p.name: p.stat().st_mtime_ns for p in (workspace / "guides").glob("*.md")}


def test_a_changed_source_regenerates_only_its_guide_and_keeps_the_old_one(
    workspace: Path,
) -> None:
    generate(workspace)
    before = guide_files(workspace)
    record = workspace / "sources" / "meta-llm-training-at-scale.yaml"
    record.write_text(
        record.read_text(encoding="utf-8").replace("very\n  large GPU clusters", "large clusters"),
        encoding="utf-8",
    )
    result = generate(workspace, env={"SOURCE_DATE_EPOCH": LATER_EPOCH})
    assert "generated 1, skipped 3 unchanged" in result.stdout
    after = guide_files(workspace)
    assert after["meta-llm-training-at-scale"] != before["meta-llm-training-at-scale"]
    assert b"train LLMs across large clusters." in after["meta-llm-training-at-scale"]
    assert {k: v for k, v in after.items() if k != "meta-llm-training-at-scale"} == {
        k: v for k, v in before.items() if k != "meta-llm-training-at-scale"
    }
    assert before["meta-llm-training-at-scale"] in kept_versions(
        workspace, "meta-llm-training-at-scale"
    )


def test_only_the_named_ids_are_generated(workspace: Path) -> None:
    result = generate(workspace, "meta-gem", "meta-prometheus")
    assert "generated 2, skipped 0 unchanged" in result.stdout
    assert sorted(guide_files(workspace)) == ["meta-gem", "meta-prometheus"]


def test_dry_run_writes_nothing(workspace: Path) -> None:
    result = generate(workspace, "--dry-run")
    assert "dry run: 4 to generate, 0 to skip" in result.stdout
    assert not (workspace / "guides").exists()


def test_force_regenerates_and_first_keeps_the_previous_version(workspace: Path) -> None:
    generate(workspace)
    previous = guide_files(workspace)
    result = generate(workspace, "--force", env={"SOURCE_DATE_EPOCH": LATER_EPOCH})
    assert "generated 4, skipped 0 unchanged" in result.stdout
    for guide_id, text in guide_files(workspace).items():
        assert b"generated_at: '2026-12-01T00:00:00Z'" in text
        assert previous[guide_id] in kept_versions(workspace, guide_id)


def test_a_hand_edited_guide_is_never_overwritten_without_a_copy(workspace: Path) -> None:
    generate(workspace)
    guide = workspace / "guides" / "meta-gem.md"
    edited = guide.read_text(encoding="utf-8").replace(
        "## Put it into practice", "An editor's paragraph.\n\n## Put it into practice"
    )
    guide.write_text(edited, encoding="utf-8")

    result = generate(workspace)
    assert "generated 0, skipped 4 unchanged" in result.stdout
    assert guide.read_text(encoding="utf-8") == edited

    generate(workspace, "--force", env={"SOURCE_DATE_EPOCH": LATER_EPOCH})
    assert edited.encode("utf-8") in kept_versions(workspace, "meta-gem")
    assert "An editor's paragraph." not in guide.read_text(encoding="utf-8")


def test_writes_leave_no_temporary_files(workspace: Path) -> None:
    generate(workspace)
    generate(workspace, "--force", env={"SOURCE_DATE_EPOCH": LATER_EPOCH})
    assert run_cli(workspace, "build", "--preview").returncode == 0
    assert [p for p in workspace.rglob("*") if p.name.endswith(".tmp")] == []


def test_a_write_that_fails_at_the_last_moment_keeps_the_old_file(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generate(workspace)
    guide = workspace / "guides" / "meta-gem.md"
    old = guide.read_bytes()

    def crash(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(fsio.os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        fsio.atomic_write_text(guide, "half-written")
    assert guide.read_bytes() == old
    assert sorted(p.name for p in guide.parent.iterdir() if p.is_file()) == [
        f"{guide_id}.md" for guide_id in SAMPLE_IDS
    ]


def test_a_bad_record_is_skipped_reported_and_fails_the_run_at_the_end(workspace: Path) -> None:
    bad = workspace / "sources" / "zz-bad.yaml"
    bad.write_text(
        "company: Acme\ntitle: Bad\nsummary: S.\npublished: 03/04/2026\n", encoding="utf-8"
    )
    result = run_cli(workspace, "generate", "--backend", "offline")
    assert result.returncode == 1
    assert f"invalid source: {bad}: published: '03/04/2026' is ambiguous" in result.stderr
    assert "generated 4, skipped 0 unchanged, failed 0" in result.stdout
    assert sorted(guide_files(workspace)) == SAMPLE_IDS

    shutil.rmtree(workspace / "guides")
    built = run_cli(workspace, "build", "--preview")
    assert built.returncode == 1
    assert f"invalid source: {bad}: published:" in built.stderr
    assert sorted(guide_files(workspace)) == SAMPLE_IDS
    assert (workspace / "site-preview" / "index.html").exists()
    assert not (workspace / "site-preview" / "guides" / "zz-bad").exists()


def test_an_unknown_id_is_reported(workspace: Path) -> None:
    result = run_cli(workspace, "generate", "--backend", "offline", "meta-gem", "no-such-id")
    assert result.returncode == 1
    assert "no valid source record with id 'no-such-id'" in result.stderr
    assert sorted(guide_files(workspace)) == ["meta-gem"]


def test_help_works_as_module_and_console_script(workspace: Path) -> None:
    module = run_cli(workspace, "--help")
    assert module.returncode == 0
    for command in ("sources", "generate", "check", "publish", "build"):
        assert command in module.stdout
    script = shutil.which("prepguide")
    assert script is not None
    console = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert console.returncode == 0
    assert console.stdout == module.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["no-such-command"],
        ["generate", "--backend", "nope"],
        ["generate", "--concurrency", "0"],
        ["sources", "import"],
        ["build", "--no-such-flag"],
    ],
    ids=lambda args: " ".join(args),
)
def test_usage_errors_exit_2(workspace: Path, args: list[str]) -> None:
    result = run_cli(workspace, *args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Usage:" in result.stderr or "Error:" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (workspace / "guides").exists()


def test_a_broken_settings_file_is_a_usage_error_naming_it(workspace: Path) -> None:
    config = workspace / "prepguide.toml"
    config.write_text("[site]\npage_size = 0\n", encoding="utf-8")
    result = run_cli(workspace, "generate", "--backend", "offline")
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {config}: site.page_size:")


def test_sample_guide_matches_its_golden_file(workspace: Path) -> None:
    generate(workspace, "shopify-catalog-clustering")
    text = (workspace / "guides" / "shopify-catalog-clustering.md").read_text(encoding="utf-8")
    assert_golden("guides/shopify-catalog-clustering.md", text)


def test_written_files_keep_the_usual_permissions(workspace: Path) -> None:
    assert run_cli(workspace, "build", "--preview").returncode == 0
    guide = workspace / "guides" / "meta-gem.md"
    page = workspace / "site-preview" / "guides" / "meta-gem" / "index.html"
    assert guide.stat().st_mode & 0o044 == 0o044, "others cannot read the guide"
    assert page.stat().st_mode & 0o044 == 0o044, "a web server could not read the page"
    guide.chmod(0o640)
    guide.write_text(guide.read_text(encoding="utf-8") + "\nAn editor's note.\n", encoding="utf-8")
    assert run_cli(workspace, "generate", "--force").returncode == 0
    assert guide.stat().st_mode & 0o777 == 0o640, "regeneration changed the editor's mode"


def test_a_rerun_removes_temporary_files_of_a_killed_writer(workspace: Path) -> None:
    guides = workspace / "guides"
    guides.mkdir()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    orphan = guides / f".meta-gem.md.{dead.stdout.strip()}.k3x9q2ab.tmp"
    orphan.write_text("half a guide", encoding="utf-8")
    in_flight = guides / f".meta-gem.md.{os.getpid()}.z8y7x6wv.tmp"
    in_flight.write_text("another writer is busy", encoding="utf-8")
    assert run_cli(workspace, "generate", "--backend", "offline").returncode == 0
    assert not orphan.exists(), "a killed writer's temporary file was left behind"
    assert in_flight.exists(), "a running writer's temporary file was deleted"


def test_a_guide_file_that_cannot_be_read_fails_alone_and_stays_as_it_is(workspace: Path) -> None:
    generate(workspace)
    guide = workspace / "guides" / "meta-gem.md"
    broken = b"\xff\xfe an editor's file in the wrong encoding\n"
    guide.write_bytes(broken)
    result = run_cli(workspace, "generate", "--backend", "offline", "--force")
    assert result.returncode == 1
    assert "generated 3, skipped 0 unchanged, failed 1" in result.stdout
    assert "meta-gem" in result.stderr and "not UTF-8" in result.stderr
    assert guide.read_bytes() == broken
    assert [p for p in workspace.rglob("*") if p.name.endswith(".tmp")] == []
