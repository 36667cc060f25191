"""The `completion` command: print the shell completion script for bash, zsh or fish."""

from __future__ import annotations

import click
from click.shell_completion import get_completion_class

from generator.cli.root import cli

SHELLS = ("bash", "zsh", "fish")
COMPLETE_VAR = "_PREPGUIDE_COMPLETE"


@cli.command()
@click.argument("shell", type=click.Choice(SHELLS), help="The shell to complete for.")
def completion(shell: str) -> None:
    """Print the shell completion script for bash, zsh or fish.

    Load it from the shell's startup file: eval "$(prepguide completion bash)".
    """
    script_class = get_completion_class(shell)
    if script_class is None:  # click knows every name in SHELLS
        raise click.UsageError(f"no completion for {shell}")
    click.echo(script_class(cli, {}, "prepguide", COMPLETE_VAR).source())
