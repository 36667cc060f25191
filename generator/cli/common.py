"""What every command group shares: the context, error exits and common options."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from generator.guides import Project


STYLES = {
    "error": {"fg": "red", "bold": True},
    "warning": {"fg": "yellow"},
    "success": {"fg": "green"},
    "id": {"bold": True},
}
# Set by the root group's --no-color for this run; main() clears it before each run.
colour_switch = {"off": False}


def use_colour(err: bool = False) -> bool:
    """Say whether to colour output: a terminal, no --no-color, no non-empty NO_COLOR."""
    if colour_switch["off"] or os.environ.get("NO_COLOR"):
        return False
    stream = sys.stderr if err else sys.stdout
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text: str, kind: str, *, err: bool = False) -> str:
    """Return text styled as an error, warning, success or id when colour is on, else as is."""
    style = STYLES.get(kind)
    return click.style(text, **style) if style and use_colour(err) else text


def counted(count: int, text: str, kind: str = "error") -> str:
    """Return "COUNT TEXT" ("3 failed"), coloured as kind when the count is not zero."""
    return paint(f"{count} {text}", kind) if count else f"{count} {text}"


def tally(count: int, noun: str, kind: str = "error", many: str | None = None) -> str:
    """Return "1 error" or "2 errors", coloured as kind when the count is not zero."""
    from generator.core.names import plural

    text = plural(count, noun, many)
    return paint(text, kind) if count else text


def warn(message: str) -> None:
    """Print a warning line to stderr."""
    click.echo(f"{paint('warning:', 'warning', err=True)} {message}", err=True)


def error(message: str, prefix: str = "error:") -> None:
    """Print an error line (or a line with another red prefix) to stderr."""
    click.echo(f"{paint(prefix, 'error', err=True)} {message}", err=True)


def failed(what: str, reason: str) -> None:
    """Print an indented "failed WHAT: REASON" line to stderr, the verb in red."""
    click.echo(f"  {paint('failed', 'error', err=True)} {what}: {reason}", err=True)


def fail(message: str, code: int = 1) -> None:
    """Print an error to stderr and exit with a code."""
    error(message)
    sys.exit(code)


def guide_ids(_ctx: click.Context, _param: click.Parameter, value):
    """Click callback: refuse an id that is not a valid guide id (a path, a reserved name)."""
    from generator.sources import is_valid_id

    for item in value if isinstance(value, tuple) else (value,):
        # An article's id is article:SLUG, its slug following the same rule.
        plain = item[len("article:") :] if item and item.startswith("article:") else item
        if item is not None and not is_valid_id(plain):
            raise click.BadParameter(
                f"{item!r} is not a guide id: use 1-80 characters of a-z, 0-9 and '-' "
                "(not a path, not a reserved name such as con or nul), or article:SLUG"
            )
    return value


class Context:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._project: Project | None = None

    @property
    def project(self) -> Project:
        if self._project is None:
            from generator.guides import Project

            self._project = Project(self.root)
        return self._project


pass_ctx = click.make_pass_decorator(Context)


def report_source_problems(project: Project) -> int:
    """Print one line per invalid record; return how many there were."""
    from generator.core import escape_controls

    for problem in project.sources.problems:
        error(escape_controls(str(problem)), "invalid source:")
    return len(project.sources.problems)


def incomplete_notes(project: Project) -> list[str]:
    """Say plainly which valid records cannot be published until an editor completes them."""
    notes = []
    for source in project.sources.sources:
        missing = source.missing_for_publication()
        if missing:
            notes.append(
                f"{source.path}: can be drafted but not published until an editor adds "
                f"{', '.join(missing)}"
            )
    return notes


def with_options(options):
    """Apply a list of click options to a command, in order."""

    def decorate(func):
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


generate_options = [
    click.option(
        "--backend",
        type=click.Choice(["auto", "offline", "openai"]),
        default="auto",
        show_default=True,
        help="Who drafts: auto is openai when OPENAI_API_KEY is set, else offline.",
    ),
    click.option(
        "--model",
        envvar="PREPGUIDE_MODEL",
        default=None,
        help="LLM model name (default: PREPGUIDE_MODEL, then [llm] model).",
    ),
    click.option(
        "--concurrency",
        type=click.IntRange(min=1),
        default=None,
        help="Requests to the model at once (default: [llm] concurrency).",
    ),
    click.option("--force", is_flag=True, help="Regenerate even unchanged guides."),
    click.option("--dry-run", is_flag=True, help="Plan and estimate tokens; send nothing."),
    click.option("--no-cache", is_flag=True, help="Ask the model even if an answer is cached."),
]

jobs_option = click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes for checks and pages (default: one per CPU for large runs).",
)
