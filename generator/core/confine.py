"""Confine: the one rule for files a root is read from, a symbolic link must not lead out of it."""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import ConfigError


def link_problem(path: Path, root: Path, *inside: Path) -> str | None:
    """Return why path leads out of root (or nowhere) through a symbolic link; None if it stays.

    A link anywhere along the path counts (the file, or a folder holding it); a link whose
    target lies in root, or in one of the inside folders, is fine. A path that does not exist
    and is no link is no problem of this rule.
    """
    linked = path.is_symlink()
    if not linked and not path.exists():
        return None
    target = path.resolve()
    if linked and not target.exists():
        return f"is a symbolic link to {target}, which does not exist"
    if any(target.is_relative_to(folder.resolve()) for folder in (root, *inside)):
        return None
    how = "is a symbolic link to" if linked else "leads through a symbolic link to"
    return f"{how} {target}, outside the root {root.resolve()}"


MAX_TEXT = 256 * 1024


def read_root_text(path: Path, root: Path, rule: str) -> str:
    """Read a text file a root supplies (a template, a catalogue), refusing what it must not be."""
    problem = link_problem(path, root)
    if problem:
        raise ConfigError(problem, path=path, rule="templates.symlink")
    if not path.is_file():
        raise ConfigError("is not a regular file", path=path, rule=rule)
    if path.stat().st_size > MAX_TEXT:
        raise ConfigError("is larger than 256 KB", path=path, rule=rule)
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError("not UTF-8", path=path, rule=rule) from exc
