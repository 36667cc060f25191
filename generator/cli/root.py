"""The root `prepguide` command group and its --root option."""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from generator import __version__
from generator.cli.common import Context
from generator.core import collector

# Each command's module, imported only when the command runs, and the summary that
# `prepguide --help` shows without importing it (tests/test_generate_cli.py keeps them equal).
COMMANDS = {
    "batch": ("batch", "OpenAI batches: status, list, collect, cancel."),
    "build": ("site", "Generate, check and publish: the main job."),
    "check": ("check", "Check guides against their records; exit 1 on any error finding."),
    "digest": ("digest", "The weekly digest: build an issue, send it, take unsubscribes."),
    "generate": (
        "generate",
        "Draft guides for new or changed sources (online, or through batch files).",
    ),
    "init": (
        "init",
        "Start a prepguide folder (default: --root) with settings and an example record.",
    ),
    "logs": (
        "generate",
        "Show the latest LLM calls: time, model, prompt, guide, tokens, latency, outcome.",
    ),
    "prompts": ("init", "The prompt templates and the offline drafter's playbook."),
    "publish": ("site", "Build the static site from approved guides."),
    "review": (
        "review",
        "Review guides: list, diff, approve, reject, withdraw, audit log, web page.",
    ),
    "sources": ("sources", "Validate and import source records."),
    "topics": ("site", "Print the topic hub statistics computed over the whole source database."),
    "verify": ("verify", "Check source and citation links; exit 1 when any is not live."),
}


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command is used."""

    _summaries = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, summary = COMMANDS[cmd_name]
            if self._summaries:
                return click.Command(cmd_name, help=summary)
            with collector.paused():
                importlib.import_module(f"generator.cli.{module}")
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._summaries = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._summaries = False

    def load_all(self) -> None:
        """Import every command module (for tools that walk `cli.commands`)."""
        for module in sorted({module for module, _ in COMMANDS.values()}):
            importlib.import_module(f"generator.cli.{module}")


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="prepguide")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Folder holding sources/, guides/, prompts/ and prepguide.toml.",
)
@click.pass_context
def cli(click_ctx: click.Context, root: Path) -> None:
    """Turn engineering write-ups into checked career-prep guides."""
    click_ctx.obj = Context(root)
