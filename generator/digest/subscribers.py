"""The subscribers file: a CSV with email and consent status, read and checked."""

from __future__ import annotations

import csv
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import PrepguideError
from generator.digest.addresses import AddressError, parse_mailbox


class SubscribersError(PrepguideError):
    """The subscribers file cannot be used at all."""


@dataclass(frozen=True)
class Subscriber:
    email: str  # normalised: unquoted local part, IDNA domain
    status: str
    name: str | None = None

    @property
    def key(self) -> str:
        return self.email.lower()


def _name_problem(name: str) -> str | None:
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cf"):
            return f"contains the control character U+{ord(char):04X}"
    return None


def read_subscribers(path: Path) -> tuple[list[Subscriber], list[str]]:
    """Return the subscribers (first row per address wins) and one problem per bad row."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle)
            rows, starts, end = [], [], 0
            for row in reader:  # a quoted cell may span lines: name each row's first line
                rows.append(row)
                starts.append(end + 1)
                end = reader.line_num
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
    for line, row in zip(starts[1:], rows[1:], strict=True):
        if not any(cell.strip() for cell in row):
            continue
        cells = {name: (row[i].strip() if i < len(row) else "") for name, i in column.items()}
        try:
            mailbox = parse_mailbox(cells["email"])
        except AddressError as exc:
            problems.append(f"{path}: line {line}: email {exc}; skipped")
            continue
        name = cells.get("name") or mailbox.display_name or None
        problem = _name_problem(name or "")
        if problem:
            problems.append(f"{path}: line {line}: name {name!r} {problem}; skipped")
            continue
        subscriber = Subscriber(mailbox.address, cells["status"].lower(), name)
        subscribers.setdefault(subscriber.key, subscriber)
    return list(subscribers.values()), problems
