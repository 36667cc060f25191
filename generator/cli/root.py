"""The root `prepguide` command group and its --root and --no-color options."""

from __future__ import annotations

import difflib
import importlib
from pathlib import Path

import click

from generator import __version__
from generator.cli.common import Context, colour_switch
from generator.core import collector

# Each command's module, imported only when the command runs, and the summary that
# `prepguide --help` shows without importing it (tests/test_generate_cli.py keeps them equal).
COMMANDS = {
    "articles": ("articles", "Career articles: read several write-ups side by side."),
    "batch": ("batch", "OpenAI batches: status, list, collect, cancel."),
    "build": ("site", "Generate, check and publish: the main job."),
    "check": ("check", "Check guides against their records; exit 1 on any error finding."),
    "completion": ("completion", "Print the shell completion script for bash, zsh or fish."),
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

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name = click.utils.make_str(args[0])
        unknown = self.get_command(ctx, name) is None and not name.startswith("-")
        if unknown and not ctx.resilient_parsing:
            raise click.UsageError(self.unknown_command(name), ctx)
        return super().resolve_command(ctx, args)

    def unknown_command(self, name: str) -> str:
        """Say a command is unknown, suggesting close names from COMMANDS as click does."""
        close = sorted(difflib.get_close_matches(name, sorted({*COMMANDS, *self.commands})))
        message = f"No such command {name!r}."
        if len(close) == 1:
            return f"{message} Did you mean {close[0]!r}?"
        if close:
            return f"{message} (Did you mean one of: {', '.join(map(repr, close))}?)"
        return message

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


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="prepguide", help="Print the version and exit.")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Folder holding sources/, guides/, prompts/ and prepguide.toml.",
)
@click.option(
    "--no-color",
    "--no-colour",
    "no_colour",
    is_flag=True,
    help="Plain text even on a terminal (so does a non-empty NO_COLOR).",
)
@click.pass_context
def cli(click_ctx: click.Context, root: Path, no_colour: bool) -> None:
    """Turn engineering write-ups into checked career-prep guides."""
    colour_switch["off"] = no_colour
    if no_colour:
        click_ctx.color = False
    click_ctx.obj = Context(root)
