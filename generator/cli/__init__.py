"""The command line: parse arguments, call the library, print results.

One module per command group; importing one registers its commands on `cli`, which imports
it only when one of its commands runs (see root.COMMANDS).
"""

from __future__ import annotations

import sqlite3
import sys

import click

from generator.cli.common import colour_switch, fail
from generator.cli.root import cli
from generator.core import ConfigError, PrepguideError, StorageError, collector

__all__ = ["cli", "main"]


def main() -> None:
    """Run the CLI, turning library errors into messages and exit codes."""
    collector.freeze_at_exit()
    colour_switch["off"] = False
    try:
        cli.main(prog_name="prepguide", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except ConfigError as exc:
        fail(str(exc), 2)
    except StorageError as exc:
        fail(str(exc), 3)
    except PrepguideError as exc:
        fail(str(exc), 1)
    except OSError as exc:
        fail(str(StorageError.from_os(exc)), 3)
    except sqlite3.Error as exc:
        fail(
            f"database error: {exc}; if a file under .prepguide/ is damaged, move it aside "
            "and run again; if the disk is full, free some space",
            3,
        )
