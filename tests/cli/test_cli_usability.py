"""A new user at the command line: help everywhere, suggestions, completion, colour, counts."""

from __future__ import annotations

import ast
import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.core.names import plural

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None):
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        cwd=cwd,
    )


def run_on_a_terminal(*args: str, env: dict[str, str] | None = None) -> str:
    """Run the CLI with stdout and stderr on a pseudo-terminal; return all it wrote."""
    main, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", *args],
        stdin=subprocess.DEVNULL,
        stdout=child,
        stderr=child,
        env={**os.environ, **(env or {})},
    )
    os.close(child)
    chunks = []
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            process.kill()
            break
        try:
            data = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    process.wait(timeout=60)
    os.close(main)
    return b"".join(chunks).decode("utf-8", errors="replace")


def every_command():
    """Yield (path, command) for the root group and every command below it."""
    cli.load_all()

    def walk(command: click.Command, path: tuple[str, ...]):
        yield path, command
        if isinstance(command, click.Group):
            for name in sorted(command.commands):
                yield from walk(command.commands[name], (*path, name))

    yield from walk(cli, ("prepguide",))


def test_every_option_and_argument_of_every_command_has_help() -> None:
    commands = dict(every_command())
    assert ("prepguide", "completion") in commands
    assert ("prepguide", "review", "approve") in commands
    missing = [
        f"{' '.join(path)} {param.param_type_name} {param.name}"
        for path, command in commands.items()
        for param in command.params
        if not (getattr(param, "help", None) or "").strip()
    ]
    assert missing == []
    undocumented = [" ".join(path) for path, command in commands.items() if not command.help]
    assert undocumented == []


@pytest.mark.parametrize(
    "words", [(), ("review",), ("review", "approve"), ("digest", "build"), ("completion",)]
)
def test_minus_h_is_help_everywhere(words: tuple[str, ...]) -> None:
    short = run_cli(*words, "-h")
    long = run_cli(*words, "--help")
    assert short.returncode == 0, short.stderr
    assert short.stdout == long.stdout
    assert short.stdout.startswith(f"Usage: prepguide {' '.join(words)}".rstrip() + " ")
    assert "-h, --help" in short.stdout


def test_arguments_are_explained_in_the_help_page() -> None:
    page = run_cli("review", "approve", "-h").stdout
    assert re.search(r"\[?GUIDE_IDS\]?\.\.\.\s+Guide ids to approve\.", page)


def test_a_top_level_typo_gets_a_suggestion_as_a_subcommand_typo_does() -> None:
    top = run_cli("genrate")
    assert top.returncode == 2
    assert "Error: No such command 'genrate'. Did you mean 'generate'?" in top.stderr
    sub = run_cli("review", "aprove")
    assert sub.returncode == 2
    assert "Error: No such command 'aprove'. Did you mean 'approve'?" in sub.stderr
    nothing = run_cli("zzzz")
    assert nothing.returncode == 2
    assert "Error: No such command 'zzzz'.\n" in nothing.stderr


def test_completion_bash_prints_a_bash_completion_function_for_prepguide() -> None:
    result = run_cli("completion", "bash")
    assert result.returncode == 0, result.stderr
    assert "_prepguide_completion() {" in result.stdout
    assert "_PREPGUIDE_COMPLETE=bash_complete" in result.stdout
    assert re.search(r"complete .*-F _prepguide_completion prepguide\b", result.stdout)
    for shell, mark in [("zsh", "#compdef prepguide"), ("fish", "complete --no-files")]:
        other = run_cli("completion", shell)
        assert other.returncode == 0 and mark in other.stdout, (shell, other.stdout[:200])
    assert run_cli("completion", "tcsh").returncode == 2


def test_the_completion_script_completes_commands_and_options() -> None:
    asked = {"_PREPGUIDE_COMPLETE": "bash_complete", "COMP_CWORD": "1"}
    commands = run_cli(env={**asked, "COMP_WORDS": "prepguide gen"})
    assert commands.stdout.split() == ["plain,generate"]
    options = run_cli(
        env={**asked, "COMP_WORDS": "prepguide review approve --b", "COMP_CWORD": "3"}
    )
    assert options.stdout.split() == ["plain,--by"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_loads_the_script_and_registers_the_completion(tmp_path: Path) -> None:
    script = tmp_path / "prepguide.bash"
    script.write_text(run_cli("completion", "bash").stdout, encoding="utf-8")
    shown = subprocess.run(
        ["bash", "--norc", "-c", f"source {script} && complete -p prepguide"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert shown.returncode == 0, shown.stderr
    assert "_prepguide_completion" in shown.stdout


def test_output_that_is_not_a_terminal_has_no_colour(workspace: Path) -> None:
    (workspace / "sources" / "broken.yaml").write_text("company: Acme\n", encoding="utf-8")
    result = run_cli("--root", str(workspace), "sources", "check", env={"NO_COLOR": ""})
    assert result.returncode == 1
    assert "invalid source: " in result.stderr
    assert not ANSI.search(result.stdout + result.stderr)


def test_a_terminal_gets_colour_unless_no_color_says_otherwise(workspace: Path) -> None:
    (workspace / "sources" / "broken.yaml").write_text("company: Acme\n", encoding="utf-8")
    args = ("--root", str(workspace), "sources", "check")
    coloured = run_on_a_terminal(*args, env={"NO_COLOR": ""})
    assert click.style("invalid source:", fg="red", bold=True) in coloured
    plain_by_env = run_on_a_terminal(*args, env={"NO_COLOR": "1"})
    plain_by_flag = run_on_a_terminal("--no-color", *args, env={"NO_COLOR": ""})
    for plain in (plain_by_env, plain_by_flag):
        assert "invalid source: " in plain
        assert not ANSI.search(plain)
    assert ANSI.sub("", coloured) == plain_by_env


def test_plural_says_one_without_an_s() -> None:
    assert [plural(n, "guide") for n in (0, 1, 2)] == ["0 guides", "1 guide", "2 guides"]
    assert plural(1, "retry", "retries") == "1 retry"
    assert plural(3, "retry", "retries") == "3 retries"


def test_one_checked_guide_is_counted_in_the_singular(workspace: Path) -> None:
    root = str(workspace)
    assert run_cli("--root", root, "generate", "--backend", "offline").returncode == 0
    ids = sorted(path.stem for path in (workspace / "guides").glob("*.md"))
    result = run_cli("--root", root, "check", ids[0])
    summary = result.stdout.strip().splitlines()[-1]
    assert summary.startswith("checked 1 guide: "), summary
    counts = re.findall(r"\b(\d+) (errors?|warnings?)\b", result.stdout)
    assert counts
    for count, noun in counts:
        assert noun.endswith("s") == (count != "1"), (count, noun)


CLI_PACKAGE = Path(__file__).resolve().parents[2] / "generator" / "cli"
PREFIXES = ("warning: ", "error: ", "refused: ", "not imported: ", "invalid source: ")


def test_commands_print_warnings_and_errors_only_through_the_coloured_helpers() -> None:
    """A hand-written "warning: ..." line would stay plain on a terminal."""
    by_hand = []
    for path in sorted(CLI_PACKAGE.glob("*.py")):
        if path.name == "common.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            first = node.values[0] if isinstance(node, ast.JoinedStr) and node.values else node
            text = first.value if isinstance(first, ast.Constant) else None
            if isinstance(text, str) and text.startswith(PREFIXES):
                by_hand.append(f"{path.name}:{node.lineno}: {text[:40]!r}")
    assert by_hand == []


def test_a_terminal_sees_warnings_in_yellow_and_summaries_in_green_and_red(
    workspace: Path,
) -> None:
    export = workspace / "export.csv"
    export.write_text(
        "Title,Company,Summary\nQueues at Acme,Acme,Acme built queues.\nNo company,,\n",
        encoding="utf-8",
    )
    imported = run_on_a_terminal(
        "--root", str(workspace), "sources", "import", str(export), env={"NO_COLOR": ""}
    )
    assert click.style("wrote", fg="green") in imported
    assert click.style("not imported:", fg="red", bold=True) in imported
    assert click.style("1 written", fg="green") in imported
    assert click.style("1 refused", fg="red", bold=True) in imported
    assert "0 duplicates" in imported

    state = workspace / ".prepguide"
    state.mkdir(exist_ok=True)  # the import may have kept its parsed index there
    (state / "llm-calls.sqlite3").write_bytes(b"not a database")
    logs = run_on_a_terminal("--root", str(workspace), "logs", env={"NO_COLOR": ""})
    assert click.style("warning:", fg="yellow") + " " in logs
    assert "could not be read" in logs


def test_counts_of_one_are_in_the_singular_across_commands(workspace: Path) -> None:
    root = ("--root", str(workspace))
    outputs = [run_cli(*root, "generate", "--backend", "offline")]
    # Of the offline drafts of the sample records, one has no finding and one has one error.
    refused = run_cli(*root, "review", "approve", "meta-llm-training-at-scale", "--by", "Ann")
    assert refused.returncode == 1
    assert "cannot approve while checks report 1 error: " in refused.stderr
    clean = run_cli(*root, "review", "approve", "--clean", "--by", "Ann")
    assert clean.returncode == 0, clean.stderr
    assert clean.stdout.strip().splitlines()[-1] == "approved 1 clean draft"
    published = run_cli(*root, "publish")
    assert published.stdout.startswith("published 1 guide in "), published.stdout
    records = workspace / "batch.jsonl"
    url = "https://shopify.engineering/catalog-clustering/"  # a sample record's
    known = {"company": "Shopify", "title": "Again", "summary": "Seen.", "url": url}
    fresh = {"company": "Acme", "title": "Queues", "summary": "Acme built queues."}
    records.write_text("\n".join(map(json.dumps, [known, fresh])) + "\n", encoding="utf-8")
    imported = run_cli(*root, "sources", "import", str(records))
    assert "1 written, 1 duplicate, 0 refused" in imported.stdout
    outputs += [refused, clean, published, imported, run_cli(*root, "check")]
    text = "\n".join(result.stdout + result.stderr for result in outputs)
    assert re.findall(r"\w+\(s\)", text.replace("http(s)", "")) == []
    wrong = re.findall(
        r"\b1 (errors|warnings|guides|drafts|clean drafts|pages|problems|duplicates|links|"
        r"requests|rounds|write-ups|topics)\b",
        text,
    )
    assert wrong == []


def test_every_command_takes_minus_h() -> None:
    runner = CliRunner()
    refused = {}
    for path, _command in every_command():
        result = runner.invoke(cli, [*path[1:], "-h"], prog_name="prepguide")
        if result.exit_code != 0 or not result.output.startswith(f"Usage: {' '.join(path)}"):
            refused[" ".join(path)] = result.output[:200]
    assert refused == {}
