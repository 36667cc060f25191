"""Citation views: what "Read the originals" shows, from records and verification."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Protocol

from generator.sources.records import Source


class CheckedDates(Protocol):
    """Anything that knows the latest successful verification of a URL."""

    def last_checked(self, url: str) -> date | None: ...

    def link_status(self, url: str) -> str | None: ...


class NoVerifications:
    """A ledger with no verifications recorded."""

    def last_checked(self, url: str) -> date | None:
        return None

    def link_status(self, url: str) -> str | None:
        return None


@dataclass(frozen=True)
class CitationView:
    """One original as the reader sees it: facts only, all from records."""

    title: str
    url: str | None
    publisher: str
    published: date | None
    checked: date | None
    link_status: str | None = None


def resolve_originals(source: Source, ledger: CheckedDates | None = None) -> list[CitationView]:
    """Return the source and its citations with their effective Checked dates."""
    ledger = ledger or NoVerifications()
    views = []
    for original in source.originals():
        verified = ledger.last_checked(original.url) if original.url else None
        candidates = [d for d in (original.checked, verified) if d is not None]
        views.append(
            CitationView(
                title=original.title,
                url=original.url,
                publisher=original.publisher or source.publisher_name,
                published=original.published,
                checked=max(candidates) if candidates else None,
                link_status=ledger.link_status(original.url) if original.url else None,
            )
        )
    return views
