"""A root's prompts/ is text with placeholders: a template cannot run code or read outside."""

from __future__ import annotations

from pathlib import Path

import pytest
from checkhelp import run_prepguide
from fakes.openai_server import FakeOpenAI

from generator.core.errors import ConfigError, PrepguideError
from generator.drafting.prompts import PromptSet
from generator.guides.project import Project

MODES = {
    "offline": ["generate", "--backend", "offline"],
    "online": ["generate", "--backend", "openai"],
    "batch-export": ["generate", "--batch-export", "{tmp}/requests.jsonl"],
}


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


def payload(marker: Path) -> str:
    return f"{{{{ cycler.__init__.__globals__.os.popen('touch {marker}').read() }}}}\n"


def generate(root: Path, fake: FakeOpenAI, tmp_path: Path, mode: str):
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in MODES[mode]]
    result = run_prepguide(root, *args, OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=fake.base_url)
    result.output = result.stdout + result.stderr
    assert "Traceback" not in result.output
    return result


@pytest.mark.parametrize("mode", ["batch-export", "online"])
def test_a_template_that_reaches_for_code_runs_nothing_and_is_named(
    workspace: Path, fake: FakeOpenAI, tmp_path: Path, mode: str
):
    marker = tmp_path / "marker"
    user = workspace / "prompts" / "user.j2"
    user.write_text(user.read_text(encoding="utf-8") + payload(marker), encoding="utf-8")
    result = generate(workspace, fake, tmp_path, mode)
    assert not marker.exists()
    assert result.returncode != 0
    assert "prompt template user.j2 reaches for" in result.output
    assert fake.request_count == 0
    assert not list((workspace / "guides").glob("*.md"))


def test_the_offline_drafter_runs_no_template_code(workspace, fake, tmp_path: Path):
    marker = tmp_path / "marker"
    for name in ("user.j2", "repair.j2", "system.j2"):
        (workspace / "prompts" / name).write_text(payload(marker), encoding="utf-8")
    result = generate(workspace, fake, tmp_path, "offline")
    assert result.returncode == 0, result.output
    assert not marker.exists()


def test_a_repair_template_that_reaches_for_code_is_refused_with_its_file(
    workspace: Path, tmp_path: Path
):
    marker = tmp_path / "marker"
    (workspace / "prompts" / "repair.j2").write_text(payload(marker), encoding="utf-8")
    prompts = PromptSet(workspace / "prompts")
    with pytest.raises(ConfigError) as caught:
        prompts.repair(["a heading is missing"])
    assert not marker.exists()
    assert caught.value.path == str(workspace / "prompts" / "repair.j2")
    assert caught.value.rule == "prompts.sandbox"


def test_a_template_may_still_use_its_placeholders_and_filters(workspace: Path):
    (workspace / "prompts" / "repair.j2").write_text(
        "Fix {{ errors | length }}: {{ errors | join('; ') | upper }}", encoding="utf-8"
    )
    message = PromptSet(workspace / "prompts").repair(["one", "two"])
    assert message["content"] == "Fix 2: ONE; TWO"


def test_a_prompt_that_links_out_of_the_root_is_not_read_nor_sent(
    workspace: Path, fake: FakeOpenAI, tmp_path: Path
):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("SECRET-TEXT-OUTSIDE", encoding="utf-8")
    system = workspace / "prompts" / "system.j2"
    system.unlink()
    system.symlink_to(secret)
    for mode in ("online", "batch-export"):
        result = generate(workspace, fake, tmp_path, mode)
        assert result.returncode != 0
        assert "outside the root" in result.output and str(system) in result.output
    assert fake.request_count == 0
    assert not (tmp_path / "requests.jsonl").exists()
    assert not any("SECRET" in p.read_text() for p in (workspace / "guides").rglob("*.md"))


def test_a_prompt_link_inside_the_root_is_followed(workspace: Path):
    shared = workspace / "shared-system.j2"
    shared.write_text("You write for {{ site_name }}.", encoding="utf-8")
    system = workspace / "prompts" / "system.j2"
    system.unlink()
    system.symlink_to(shared)
    project = Project(workspace)
    source = project.sources.sources[0]
    messages = PromptSet(workspace / "prompts", "Acme").messages(source)
    assert messages[0]["content"] == "You write for Acme."


def test_a_prompts_folder_that_links_out_of_the_root_is_refused(workspace: Path, tmp_path: Path):
    outside = tmp_path / "elsewhere"
    (workspace / "prompts").rename(outside)
    (workspace / "prompts").symlink_to(outside)
    with pytest.raises(PrepguideError) as caught:
        PromptSet(workspace / "prompts")
    assert "outside the root" in str(caught.value)
    assert caught.value.rule == "prompts.symlink"


def test_a_settings_file_that_links_out_of_the_root_is_refused(workspace: Path, tmp_path: Path):
    outside = tmp_path / "other.toml"
    outside.write_text((workspace / "prepguide.toml").read_text(), encoding="utf-8")
    (workspace / "prepguide.toml").unlink()
    (workspace / "prepguide.toml").symlink_to(outside)
    result = run_prepguide(workspace, "sources", "check")
    result.output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "outside the root" in result.output and "prepguide.toml" in result.output
    assert "Traceback" not in result.output


def test_a_playbook_nested_too_deep_is_refused_with_its_file(workspace: Path, fake, tmp_path):
    playbook = workspace / "prompts" / "playbook.yaml"
    playbook.write_text("lessons: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    result = generate(workspace, fake, tmp_path, "offline")
    assert result.returncode != 0
    assert str(playbook) in result.output and "nested more than" in result.output
    assert "RecursionError" not in result.output
