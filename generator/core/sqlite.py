"""SQLite cache files: open one; set a damaged one aside as `<name>.corrupt-N`, start afresh."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.core.fsio import open_sqlite

CORRUPT = "corrupt"
COMPANIONS = ("-wal", "-shm")


@dataclass(frozen=True)
class SetAside:
    """Where a damaged file went, and why it could not be used."""

    path: Path
    why: str

    @property
    def name(self) -> str:
        return self.path.name


def set_aside(path: Path) -> Path:
    """Rename a damaged file (and SQLite's -wal and -shm) to a free `<name>.corrupt-N`."""
    number = 1
    while any(Path(f"{path}.{CORRUPT}-{number}{end}").exists() for end in ("", *COMPANIONS)):
        number += 1
    aside = Path(f"{path}.{CORRUPT}-{number}")
    for suffix in COMPANIONS:
        extra = Path(f"{path}{suffix}")
        if extra.exists():
            os.replace(extra, f"{aside}{suffix}")
    os.replace(path, aside)
    return aside


def open_or_replace(
    path: Path, opener: Callable[[Path], sqlite3.Connection]
) -> tuple[sqlite3.Connection, SetAside | None]:
    """Open path with opener; a file it rejects with DatabaseError is set aside and made anew.

    The opener opens the file, creates its tables and checks its shape, raising
    sqlite3.DatabaseError (and closing what it opened) when the file is not the one it expects.
    """
    try:
        return opener(path), None
    except sqlite3.DatabaseError as exc:
        why = str(exc) or type(exc).__name__
    aside = SetAside(set_aside(path), why)
    return opener(path), aside


def checked_opener(
    schema: str, table: str, columns: tuple[str, ...], added: tuple[str, ...] = ()
) -> Callable[[Path], sqlite3.Connection]:
    """Return an opener for a WAL file of one table with these columns.

    `added` holds column definitions that later versions appended to `columns`: a file that
    lacks only those gets them; a file with any other columns is rejected.
    """

    def opener(path: Path) -> sqlite3.Connection:
        db = open_sqlite(path, schema)
        try:
            found = tuple(row[1] for row in db.execute(f"pragma table_info({table})"))
            db.execute(f"select count(*) from {table}").fetchone()
            if found != columns and found and columns[: len(found)] == found:
                for definition in added:
                    if definition.split()[0] not in found:
                        db.execute(f"alter table {table} add column {definition}")
                found = tuple(row[1] for row in db.execute(f"pragma table_info({table})"))
            if found != columns:
                raise sqlite3.DatabaseError(f"table {table} has columns {list(found)}")
        except BaseException:
            db.close()
            raise
        return db

    return opener


def open_checked(
    path: Path, schema: str, table: str, columns: tuple[str, ...], added: tuple[str, ...] = ()
) -> tuple[sqlite3.Connection, SetAside | None]:
    """Open a one-table SQLite file, setting aside one that is damaged or of another shape."""
    return open_or_replace(path, checked_opener(schema, table, columns, added))
