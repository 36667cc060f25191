"""The suppression list read strictly: a line that cannot be read stops the send, never a mail."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.errors import PrepguideError
from generator.digest.addresses import AddressError, parse_mailbox

ADDRESS_LIKE = re.compile(rb"[^\s\"'<>@,;:{}]+@[^\s\"'<>@,;:{}]+")
FIX = "fix the line by hand (keep its address), then run again; nothing was sent"


class SuppressionError(PrepguideError):
    """The suppression list has a line that may hold an unsubscribe and cannot be read."""


@dataclass
class Suppressions:
    """The matching keys of every unsubscribed address, and notices about what was skipped."""

    keys: set[str] = field(default_factory=set)
    notices: list[str] = field(default_factory=list)


def _address(line: bytes) -> str:
    """Return the key of one line's address; raise ValueError saying what is wrong."""
    try:
        row = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"is not UTF-8 (byte {exc.start + 1})") from exc
    except ValueError as exc:
        raise ValueError(f"is not one JSON object ({exc})") from exc
    if not isinstance(row, dict):
        raise ValueError(f"is a JSON {type(row).__name__}, not an object with an email field")
    address = row.get("email")
    if not isinstance(address, str):
        raise ValueError("has no email field")
    try:
        return parse_mailbox(address).key
    except AddressError as exc:
        raise ValueError(f"has an email that is not an address: {exc}") from exc


def read_suppressions(path: Path) -> Suppressions:
    """Read digest/suppressions.jsonl; raise SuppressionError naming the line that is unreadable."""
    found = Suppressions()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return found
    except OSError as exc:
        raise SuppressionError(f"cannot read: {exc.strerror}; {FIX}", path=path) from exc
    *complete, tail = raw.split(b"\n")
    for number, line in enumerate(complete, start=1):
        if not line.strip():
            continue
        try:
            found.keys.add(_address(line))
        except ValueError as exc:
            raise SuppressionError(
                f"line {number} {exc}; {FIX}", path=path, rule="digest.suppressions"
            ) from None
    if tail.strip():
        number = len(complete) + 1
        try:
            found.keys.add(_address(tail))
        except ValueError:
            hint = ADDRESS_LIKE.search(tail)
            if hint is not None:
                shown = hint.group().decode("utf-8", "replace")
                raise SuppressionError(
                    f"line {number} is torn (no newline, unreadable) and may be the unsubscribe "
                    f"of {shown!r}; {FIX}",
                    path=path,
                    rule="digest.suppressions",
                ) from None
            found.notices.append(
                f"{path}: line {number} is a torn tail with no address in it; ignored"
            )
    return found
