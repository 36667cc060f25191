"""The subscribers file: a CSV with email and consent status, read and checked."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import PrepguideError


class SubscribersError(PrepguideError):
    """The subscribers file cannot be used at all."""


@dataclass(frozen=True)
class Subscriber:
    email: str
    status: str
    name: str | None = None

    @property
    def key(self) -> str:
        return self.email.lower()


def _valid_address(text: str) -> bool:
    local, at, domain = text.rpartition("@")
    return bool(at and local and "." in domain and not any(c.isspace() for c in text))


def read_subscribers(path: Path) -> tuple[list[Subscriber], list[str]]:
    """Return the subscribers (first row per address wins) and one problem per bad row."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.reader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise SubscribersError(f"cannot read the subscribers CSV: {exc}", path=path) from exc
    if not rows:
        raise SubscribersError("the file is empty; it needs a header row email,status", path=path)
    header = [cell.strip().lower() for cell in rows[0]]
    if "email" not in header or "status" not in header:
        raise SubscribersError(
            f"the header row needs the columns email and status (any case); it has {rows[0]}",
            path=path,
            field="header",
        )
    column = {name: header.index(name) for name in ("email", "status", "name") if name in header}
    subscribers: dict[str, Subscriber] = {}
    problems = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = {name: (row[i].strip() if i < len(row) else "") for name, i in column.items()}
        address = cells["email"]
        if not _valid_address(address):
            problems.append(f"{path}: line {line}: email {address!r} is not an address; skipped")
            continue
        subscriber = Subscriber(address, cells["status"].lower(), cells.get("name") or None)
        subscribers.setdefault(subscriber.key, subscriber)
    return list(subscribers.values()), problems
