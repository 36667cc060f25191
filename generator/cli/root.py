"""The root `prepguide` command group and its --root option."""

from __future__ import annotations

from pathlib import Path

import click

from generator import __version__
from generator.cli.common import Context


@click.group()
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
