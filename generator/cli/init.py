"""The `init` and `prompts export` commands: start a folder, copy out the default prompts."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import Context, paint, pass_ctx
from generator.cli.root import cli


@cli.command()
@click.argument(
    "folder",
    required=False,
    type=click.Path(file_okay=False, path_type=Path),
    help="The folder to start (default: --root).",
)
@click.option("--name", "site_name", default="Prepguide", show_default=True, help="Site name.")
@click.option("--base-url", default=None, help="Where the site will be served (https://...).")
@pass_ctx
def init(ctx: Context, folder: Path | None, site_name: str, base_url: str | None) -> None:
    """Start a prepguide folder (default: --root) with settings and an example record."""
    from generator.drafting import init_root

    root = folder if folder is not None else ctx.root
    for path in init_root(root, site_name=site_name, base_url=base_url):
        click.echo(f"{paint('wrote', 'success')} {path}")
    prefix = "prepguide" if root == Path(".") else f"prepguide --root {root}"
    click.echo(
        "next: add records to sources/ (or `sources import FILE`), then "
        f"`{prefix} build --preview`; `prepguide prompts export` copies the prompts out to edit"
    )


@cli.group()
def prompts() -> None:
    """The prompt templates and the offline drafter's playbook."""


@prompts.command("export")
@click.argument(
    "folder",
    required=False,
    type=click.Path(file_okay=False, path_type=Path),
    help="Where to copy them (default: ROOT/prompts).",
)
@pass_ctx
def prompts_export(ctx: Context, folder: Path | None) -> None:
    """Copy the default prompts to FOLDER (default: ROOT/prompts) to edit them there."""
    from generator.drafting import export_prompts

    target = folder if folder is not None else ctx.root / "prompts"
    for path in export_prompts(target):
        click.echo(f"{paint('wrote', 'success')} {path}")
    click.echo("files in the root's prompts/ replace the shipped ones, file by file")
