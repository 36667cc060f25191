"""The verification ledger: an append-only JSONL log of link checks, read into link states.

The ledger lives at ``sources/.verification.jsonl`` next to the records it speaks about, so it
travels with them, but it is never one of the editors' YAML files: the loader of sources/
ignores it and nothing rewrites it. Each line is one observation of one URL. The state of a
URL (live, failing, dead, changed, ...) is derived from its rows in order, so the rules can be
read in one place (``derive``) and the log never has to be edited.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from generator.core import journal
from generator.core.errors import PrepguideError

LEDGER_NAME = ".verification.jsonl"
DEAD_AFTER_FAILURES = 3
DEAD_SPACING = timedelta(days=3)

Outcome = Literal["live", "not-live", "failure", "inconclusive", "manual"]
Status = Literal["live", "failing", "dead", "inconclusive", "changed", "not-live"]


class LedgerError(PrepguideError):
    """A ledger line cannot be read."""


class LedgerRow(BaseModel):
    """One observation of one URL, as appended by `prepguide verify`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    at: datetime
    url: str
    ids: list[str] = Field(min_length=1)
    outcome: Outcome
    method: Literal["HEAD", "GET", "manual"]
    http_status: int | None = None
    final_url: str | None = None
    fingerprint: str | None = None
    error: str | None = None
    by: str | None = None

    @field_validator("at")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("timestamp needs a time zone, e.g. 2026-11-30T09:00:00Z")
        return value

    @property
    def day(self) -> date:
        return self.at.date()


@dataclass
class LinkState:
    """What the rows of one URL add up to."""

    status: Status | None = None
    checked: date | None = None
    fingerprint: str | None = None
    http_status: int | None = None
    final_url: str | None = None
    failures: list[date] = field(default_factory=list)


def _dead(failures: list[date]) -> bool:
    """Return True when the failures hold a chain of 3 at least 3 days apart."""
    chain: list[date] = []
    for day in sorted(failures):
        if not chain or day - chain[-1] >= DEAD_SPACING:
            chain.append(day)
    return len(chain) >= DEAD_AFTER_FAILURES


def derive(rows: Iterable[LedgerRow]) -> LinkState:
    """Fold the rows of one URL, oldest first, into its lasting state.

    - live: Checked becomes that day, failures are forgiven; if the page text differs
      from the accepted fingerprint the link is *changed* until an editor verifies it.
    - manual: an editor vouches for the link; the latest text becomes the accepted one.
    - failure: failing, and dead after 3 failures at least 3 days apart.
    - not-live: redirected to a site root.
    - inconclusive: never counts toward dead and never overrides an earlier verdict.
    """
    state = LinkState()
    accepted: str | None = None
    latest_seen: str | None = None
    drifted = False
    for row in sorted(rows, key=lambda r: r.at):
        if row.outcome == "inconclusive":
            state.status = state.status or "inconclusive"
            continue
        state.http_status = row.http_status
        state.final_url = row.final_url
        if row.outcome == "manual":
            accepted = latest_seen or accepted
            drifted = False
            state.failures = []
            state.checked = row.day
            state.status = "live"
        elif row.outcome == "live":
            latest_seen = row.fingerprint
            state.fingerprint = row.fingerprint
            if accepted is None:
                accepted = row.fingerprint
            elif row.fingerprint != accepted:
                drifted = True
            state.failures = []
            if drifted:
                state.status = "changed"
            else:
                state.status = "live"
                state.checked = row.day
        elif row.outcome == "failure":
            state.failures.append(row.day)
            state.status = "dead" if _dead(state.failures) else "failing"
        else:
            state.status = "not-live"
    return state


class Ledger:
    """Every verification recorded for a workspace; implements citations.CheckedDates."""

    def __init__(self, path: Path, rows: list[LedgerRow] | None = None) -> None:
        self.path = path
        self.rows: list[LedgerRow] = list(rows or [])
        self.problems: list[LedgerError] = []
        self._states: dict[str, LinkState] | None = None

    @classmethod
    def load(cls, path: Path) -> Ledger:
        """Read the ledger; skip and report bad lines and a torn last line."""
        ledger = cls(path)
        try:
            contents = journal.read(path, LedgerRow.model_validate_json)
        except journal.JournalError as exc:
            raise LedgerError(exc.message, path=path, rule="ledger.invalid") from None
        ledger.rows = contents.rows
        for bad in contents.bad:
            first = bad.error.errors()[0]
            loc = ".".join(str(part) for part in first["loc"]) or "line"
            ledger.problems.append(
                LedgerError(
                    f"line {bad.number}: {first['msg']}; fix or delete the line",
                    path=path,
                    field=loc,
                    rule="ledger.invalid",
                )
            )
        if contents.torn is not None:
            ledger.problems.append(
                LedgerError(
                    f"line {contents.torn.number} is incomplete (an interrupted write); it is "
                    "ignored and the next verification sets it aside",
                    path=path,
                    rule="ledger.torn",
                )
            )
        for copy in contents.aside:
            ledger.problems.append(
                LedgerError(
                    f"{copy.name} holds a line an interrupted write tore from the ledger; "
                    "delete it once read",
                    path=path,
                    rule="ledger.torn",
                )
            )
        return ledger

    def states(self) -> dict[str, LinkState]:
        """Return the derived state of every URL in the ledger."""
        if self._states is None:
            by_url: dict[str, list[LedgerRow]] = {}
            for row in self.rows:
                by_url.setdefault(row.url, []).append(row)
            self._states = {url: derive(rows) for url, rows in by_url.items()}
        return self._states

    def state(self, url: str) -> LinkState:
        return self.states().get(url.strip(), LinkState())

    def last_checked(self, url: str) -> date | None:
        """Return the day of the latest live or manual verification of a URL."""
        return self.state(url).checked

    def link_status(self, url: str) -> str | None:
        """Return the lasting status of a URL, or None when it was never checked."""
        return self.state(url).status

    def rows_for(self, url: str) -> list[LedgerRow]:
        return [row for row in self.rows if row.url == url.strip()]

    def append(self, rows: Iterable[LedgerRow]) -> None:
        """Append rows durably: whole lines under a lock, with one fsync before returning."""
        rows = list(rows)
        if not rows:
            return
        lines = [row.model_dump_json(exclude_none=True).encode("utf-8") for row in rows]
        torn = journal.append(self.path, lines, _valid)
        if torn is not None:
            self.problems.append(LedgerError(torn.message, path=self.path, rule="ledger.torn"))
        self.rows.extend(rows)
        self._states = None


def _valid(line: bytes) -> bool:
    try:
        LedgerRow.model_validate_json(line)
    except ValidationError:
        return False
    return True


def ledger_path(sources_dir: Path) -> Path:
    """Return where the ledger of a sources folder lives."""
    return sources_dir / LEDGER_NAME
