"""The installed package, as a new user gets it: a wheel in a fresh venv, run outside the repo."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from venvs import share_dependencies

REPO = Path(__file__).resolve().parent.parent
RECORDS_CSV = """\
company,title,url,publisher,published,summary,techniques,stack
Globex,Exactly-once billing events at Globex,https://tech.globex.test/exactly-once,\
Globex Tech Blog,2026-08-15,"Globex moved its billing events to an exactly-once streaming \
pipeline that handles 3 billion events per day.",stream processing;idempotency,Kafka;Flink
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build a wheel from a clean copy of the project and install it into a new venv."""
    work = tmp_path_factory.mktemp("install")
    tree = work / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, tree / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "generator", tree / "generator", ignore=ignore)
    shutil.copytree(REPO / "prompts", tree / "prompts", ignore=ignore)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-index", "--no-build-isolation", "-w", work, tree],
        check=True,
        cwd=work,
        env=env,
        timeout=300,
    )
    wheel = next(work.glob("prepguide-*.whl"))
    target = work / "venv"
    venv.create(target, system_site_packages=True, with_pip=False)
    share_dependencies(target)
    python = target / "bin" / "python"
    subprocess.run(
        [*pip, "--python", python, "install", "--no-deps", "--no-index", wheel],
        check=True,
        cwd=work,
        env=env,
        timeout=300,
    )
    return target


def run(venv_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [str(venv_dir / "bin" / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def test_the_prompts_are_package_data_read_through_importlib_resources(
    installed: Path, tmp_path: Path
) -> None:
    probe = (
        "import importlib.resources as r, generator, generator.drafting.prompts as p;"
        "print(generator.__file__); print(p.default_prompts().joinpath('user.j2'));"
        "print(r.files('generator.prompts_data').joinpath('playbook.yaml').is_file())"
    )
    result = run(installed, tmp_path, "python", "-c", probe)
    assert result.returncode == 0, result.stderr
    package, prompts, found = result.stdout.splitlines()
    site = str(installed / "lib")
    assert package.startswith(site) and prompts.startswith(site), result.stdout
    assert str(REPO) not in prompts
    assert found == "True"


def test_every_module_of_the_source_tree_imports_from_the_wheel(
    installed: Path, tmp_path: Path
) -> None:
    modules = sorted(
        ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        for path in (REPO / "generator").rglob("*.py")
        if "__pycache__" not in path.parts and path.stem != "__main__"
    )
    probe = "import importlib, sys\nfor name in sys.argv[1:]: importlib.import_module(name)"
    result = run(installed, tmp_path, "python", "-c", probe, *modules)
    assert result.returncode == 0, result.stderr
    assert len(modules) > 50


def test_the_installed_cli_takes_a_new_folder_from_init_to_a_published_guide(
    installed: Path, tmp_path: Path
) -> None:
    (tmp_path / "records.csv").write_text(RECORDS_CSV, encoding="utf-8")
    guide_id = "exactly-once-billing-events-at-globex"
    for args in (
        ("init", "db", "--base-url", "https://guides.example.net/"),
        ("--root", "db", "sources", "import", "records.csv"),
        ("--root", "db", "generate"),
        ("--root", "db", "verify", "--manual", guide_id, "--by", "Ana"),
        ("--root", "db", "review", "approve", guide_id, "--by", "Ana"),
        ("--root", "db", "publish"),
    ):
        result = run(installed, tmp_path, "prepguide", *args)
        assert result.returncode == 0, (args, result.stdout, result.stderr)
    assert "published 1 guide in" in result.stdout
    page = tmp_path / "db" / "site" / "guides" / guide_id / "index.html"
    assert "Globex" in page.read_text(encoding="utf-8")
    assert not (tmp_path / "db" / "prompts").exists()
    body = (tmp_path / "db" / "guides" / f"{guide_id}.md").read_text(encoding="utf-8")
    assert "## Our career interpretation: reason about time, order and replay" in body
