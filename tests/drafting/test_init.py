"""A new user's own folder: init, the shipped prompts, and a wrong --root."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from datetime import date
from pathlib import Path

import pytest
import yaml

from generator.drafting.prompts import PromptSet, default_prompts
from generator.sources.records import load_sources

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_init_writes_settings_an_example_record_and_a_gitignore(tmp_path: Path) -> None:
    root = tmp_path / "mydb"
    result = run_cli("init", str(root), "--name", "Career Notes", "--base-url", "https://n.test/")
    assert result.returncode == 0, result.stderr
    settings = tomllib.loads((root / "prepguide.toml").read_text(encoding="utf-8"))
    assert settings["site"] == {"name": "Career Notes", "base_url": "https://n.test/"}
    assert "# freshness_days = 180" in (root / "prepguide.toml").read_text(encoding="utf-8")
    ignored = (root / ".gitignore").read_text(encoding="utf-8").split()
    assert {"site/", ".prepguide/"} <= set(ignored)
    records = load_sources(root / "sources", date(2026, 11, 30))
    assert [s.key for s in records.sources] == ["example-co-page-cache"]
    assert records.problems == []
    assert not (root / "prompts").exists(), "the prompts ship with the package"


def test_a_built_folder_leaves_git_only_its_records_and_guides(tmp_path: Path) -> None:
    root = tmp_path / "mydb"
    assert run_cli("init", str(root)).returncode == 0
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for _ in range(2):  # the second build keeps the first site aside as its base
        built = run_cli("--root", str(root), "build", "--preview")
        assert built.returncode == 0, built.stderr
    assert (root / ".site-preview.previous").is_dir() and not (root / "site").exists()
    status = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    untracked = {line[3:].split("/")[0] for line in status if line}
    assert untracked == {".gitignore", "prepguide.toml", "sources", "guides"}


def test_init_without_a_base_url_leaves_it_commented(tmp_path: Path) -> None:
    assert run_cli("--root", str(tmp_path / "db"), "init").returncode == 0
    text = (tmp_path / "db" / "prepguide.toml").read_text(encoding="utf-8")
    assert "base_url" not in tomllib.loads(text)["site"]
    assert '# base_url = "https://' in text


@pytest.mark.parametrize("existing", ["prepguide.toml", ".gitignore"])
def test_init_refuses_to_overwrite_anything(tmp_path: Path, existing: str) -> None:
    (tmp_path / existing).write_text("mine\n", encoding="utf-8")
    result = run_cli("init", str(tmp_path))
    assert result.returncode == 2
    assert f"{tmp_path / existing}: already exists" in result.stderr
    assert (tmp_path / existing).read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [existing], "nothing else written"


def test_init_refuses_a_folder_that_already_holds_records(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "mine.yaml").write_text("company: A\n", encoding="utf-8")
    result = run_cli("init", str(tmp_path))
    assert result.returncode == 2 and "already holds records" in result.stderr
    assert not (tmp_path / "prepguide.toml").exists()


@pytest.mark.parametrize("kind", ["missing", "empty", "unrelated"])
def test_a_folder_that_is_not_a_prepguide_folder_exits_2_naming_init(
    tmp_path: Path, kind: str
) -> None:
    root = tmp_path / "db"
    if kind != "missing":
        root.mkdir()
    if kind == "unrelated":
        (root / "notes.txt").write_text("x", encoding="utf-8")
    for args in (["sources", "check"], ["generate"], ["review", "list"], ["publish"]):
        result = run_cli("--root", str(root), *args)
        assert result.returncode == 2, (args, result.stdout)
        assert "prepguide init" in result.stderr
        assert "0 valid" not in result.stdout
    assert not root.exists() or sorted(p.name for p in root.iterdir()) in ([], ["notes.txt"])


def test_a_folder_with_only_prepguide_toml_or_only_sources_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "prepguide.toml").write_text("", encoding="utf-8")
    (tmp_path / "b" / "sources").mkdir(parents=True)
    for name in ("a", "b"):
        result = run_cli("--root", str(tmp_path / name), "sources", "check")
        assert result.returncode == 0, result.stderr
        assert "0 valid, 0 invalid" in result.stdout


def test_prompts_export_copies_the_defaults_and_refuses_to_overwrite(tmp_path: Path) -> None:
    assert run_cli("init", str(tmp_path)).returncode == 0
    result = run_cli("--root", str(tmp_path), "prompts", "export")
    assert result.returncode == 0, result.stderr
    exported = sorted(p.name for p in (tmp_path / "prompts").iterdir())
    assert exported == sorted(p.name for p in (REPO / "prompts").iterdir())
    for name in exported:
        assert (tmp_path / "prompts" / name).read_bytes() == (REPO / "prompts" / name).read_bytes()
    (tmp_path / "prompts" / "user.j2").write_text("edited", encoding="utf-8")
    again = run_cli("--root", str(tmp_path), "prompts", "export")
    assert again.returncode == 2 and "already exists" in again.stderr
    assert (tmp_path / "prompts" / "user.j2").read_text(encoding="utf-8") == "edited"
    elsewhere = run_cli("prompts", "export", str(tmp_path / "copy"))
    assert elsewhere.returncode == 0 and (tmp_path / "copy" / "playbook.yaml").is_file()


def test_a_roots_prompt_overrides_the_default_file_by_file(tmp_path: Path) -> None:
    shipped = PromptSet(tmp_path / "prompts")
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "repair.j2").write_text(
        "Fix these:\n{% for e in errors %}- {{ e }}\n{% endfor %}", encoding="utf-8"
    )
    mine = PromptSet(tmp_path / "prompts")
    assert mine.repair(["x"])["content"] == "Fix these:\n- x"
    assert shipped.repair(["x"])["content"] != mine.repair(["x"])["content"]
    assert mine.hash != shipped.hash
    record = load_sources(REPO / "sources", date(2026, 11, 30)).by_id()["meta-gem"]
    assert mine.messages(record) == shipped.messages(record), "the other files stay shipped"


def test_the_prompt_hash_covers_only_the_templates_in_use(tmp_path: Path) -> None:
    (tmp_path / "prompts").mkdir()
    before = PromptSet(tmp_path / "prompts").hash
    (tmp_path / "prompts" / "unused.j2").write_text("never rendered", encoding="utf-8")
    assert PromptSet(tmp_path / "prompts").hash == before
    (tmp_path / "prompts" / "part.j2").write_text("Be brief.", encoding="utf-8")
    user = default_prompts().joinpath("user.j2").read_text(encoding="utf-8")
    (tmp_path / "prompts" / "user.j2").write_text(
        user + '\n{% include "part.j2" %}', encoding="utf-8"
    )
    with_include = PromptSet(tmp_path / "prompts")
    assert "part.j2" in with_include.used
    (tmp_path / "prompts" / "part.j2").write_text("Be very brief.", encoding="utf-8")
    assert PromptSet(tmp_path / "prompts").hash != with_include.hash


def test_a_new_folder_generates_and_publishes_without_a_prompts_folder(tmp_path: Path) -> None:
    root = tmp_path / "db"
    assert run_cli("init", str(root), "--base-url", "https://n.test/").returncode == 0
    result = run_cli("--root", str(root), "build")
    assert result.returncode == 0, result.stderr
    doc = yaml.safe_load(
        (root / "guides" / "example-co-page-cache.md").read_text(encoding="utf-8").split("---")[1]
    )
    assert doc["provenance"]["backend"] == "offline"
    body = (root / "guides" / "example-co-page-cache.md").read_text(encoding="utf-8")
    assert "## Our career interpretation: decide what may be stale" in body
    assert not (root / "prompts").exists()


def test_digest_build_works_in_a_folder_fresh_from_init(tmp_path: Path) -> None:
    root = tmp_path / "db"
    assert run_cli("init", str(root), "--name", "Guides for Zoë").returncode == 0
    text = (root / "prepguide.toml").read_text(encoding="utf-8")
    assert "[digest]" in text and "# per_minute = 60" in text
    assert tomllib.loads(text)["digest"]["sender"] == "Guides for Zoë <digest@example.org>"
    empty = run_cli("--root", str(root), "digest", "build")
    assert empty.returncode == 0, empty.stderr
    # The example record is never published; made a real write-up, it is.
    record = root / "sources" / "example-co-page-cache.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("example: true\n", ""))
    steps = [
        ("verify", "--manual", "example-co-page-cache", "--by", "Ann"),
        ("build",),
        ("review", "approve", "example-co-page-cache", "--by", "Ann"),
        ("publish",),
    ]
    for step in steps:
        done = run_cli("--root", str(root), *step)
        assert done.returncode == 0, (step, done.stderr)
    issue = run_cli("--root", str(root), "digest", "build", "--week", "2026-W49")
    assert issue.returncode == 0, issue.stderr
    eml = root / "digest" / "2026-W49.eml"
    assert f"wrote {eml}" in issue.stdout
    assert "How Example Co cached its product pages" in issue.stdout
    assert b"https://example.org/unsubscribe?token=" in eml.read_bytes()


def test_init_refuses_a_sources_folder_that_links_out_of_the_root(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "new"
    root.mkdir()
    (root / "sources").symlink_to(outside)
    result = run_cli("--root", str(root), "init")
    assert result.returncode != 0
    assert "outside the root" in result.stderr and "nothing was written" in result.stderr
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in root.iterdir()) == ["sources"]


@pytest.mark.parametrize(
    "option", [["--name", "x" * 5000], ["--base-url", "ftp://example.org"], ["--name", ""]]
)
def test_init_refuses_settings_that_later_commands_would_refuse(
    tmp_path: Path, option: list[str]
) -> None:
    root = tmp_path / "new"
    result = run_cli("--root", str(root), "init", *option)
    assert result.returncode != 0, result.stdout
    assert "prepguide.toml" in result.stderr and "site." in result.stderr
    assert not (root / "prepguide.toml").exists()
    assert not (root / "sources").exists()
