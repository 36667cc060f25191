"""The README's main command, run as written in a clean clone and a fresh virtualenv."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from venvs import share_dependencies

from generator.core.clock import today
from generator.guides.document import parse
from generator.sources.records import load_sources

REPO = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"<!-- (?P<name>[a-z-]+) -->\n```sh\n(?P<command>.+?)\n```", re.DOTALL)


def readme_command(name: str) -> str:
    """Extract the command under `<!-- name -->`, as .ci/run does for the test command."""
    commands = {m["name"]: m["command"].strip() for m in MARKER.finditer(_readme())}
    assert name in commands, f"README.md has no ```sh block under <!-- {name} -->"
    return commands[name]


def _readme() -> str:
    return (REPO / "README.md").read_text(encoding="utf-8")


def _pip_config_file_indexes() -> list[str]:
    """Return the local (file://) package indexes pip is configured with, if any."""
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True
    ).stdout
    values = [os.environ.get("PIP_INDEX_URL", ""), os.environ.get("PIP_EXTRA_INDEX_URL", "")]
    for line in listed.splitlines():
        key, _, value = line.partition("=")
        if key.endswith("index-url"):
            values.append(value.strip("'\""))
    return [url for value in values for url in value.split() if url.startswith("file://")]


def offline_pip_env() -> dict[str, str]:
    """Point pip at local indexes only, so the test never reaches the network."""
    indexes = _pip_config_file_indexes()
    if not indexes:
        pytest.skip("pip has no local (file://) index for the build backend; needs the network")
    return {"PIP_INDEX_URL": indexes[0], "PIP_EXTRA_INDEX_URL": " ".join(indexes[1:])}


def test_ci_runs_the_readme_test_command_extracted_the_same_way() -> None:
    test_command = readme_command("test-command")
    extracted = subprocess.run(
        ["awk", "/<!-- test-command -->/{found=1; next} found && /^```sh/{getline; print; exit}"],
        input=_readme(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert extracted == test_command
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "<!-- test-command -->" in ci and 'bash -euo pipefail -c "$command"' in ci
    assert "pytest" in test_command and "pip install -e '.[test]'" in test_command


def test_the_main_command_works_in_a_clean_clone(tmp_path: Path) -> None:
    command = readme_command("main-command")
    assert "prepguide build --preview" in command
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True, timeout=60)
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=60
    )
    share_dependencies(venv)
    env = {
        **os.environ,
        **offline_pip_env(),
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "VIRTUAL_ENV": str(venv),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]

    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import generator; print(generator.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(clone), f"the venv runs {where}, not the clone"

    out = result.stdout
    assert "backend: offline" in out
    counts = re.search(r"generated (\d+), skipped (\d+) unchanged, failed 0", out)
    assert counts, out
    sources = load_sources(clone / "sources", today())
    assert sources.problems == []
    assert int(counts[1]) + int(counts[2]) == len(sources.sources) >= 4
    assert sorted(p.stem for p in (clone / "guides").glob("*.md")) == sorted(sources.by_id())
    for source in sources.sources:
        doc = parse((clone / "guides" / f"{source.key}.md").read_text(encoding="utf-8"))
        assert doc.meta.provenance.source_hash == source.content_hash(), source.key
    # A preview goes to its own folder, never into the site/ a real publish fills.
    preview = clone / "site-preview"
    assert (preview / "index.html").is_file() and not (clone / "site").exists()
    for source in sources.sources:
        assert (preview / "guides" / source.key / "index.html").is_file()
    assert "Disallow: /" in (preview / "robots.txt").read_text(encoding="utf-8")
    assert f"open {(preview / 'index.html').as_uri()}" in out
