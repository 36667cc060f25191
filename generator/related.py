"""Related stories: other write-ups ranked by shared company, then shared tags, then recency."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Sequence
from datetime import date

from generator.sources import Source, normalize_tag

MAX_RELATED = 3


class RelatedIndex:
    """An index over the database that answers "what is related to this write-up"."""

    def __init__(self, sources: Sequence[Source]) -> None:
        self.sources = list(sources)
        self._tags: dict[str, frozenset[str]] = {}
        self._by_tag: dict[str, list[str]] = {}
        self._by_company: dict[str, list[str]] = {}
        for source in self.sources:
            tags = frozenset(normalize_tag(tag) for tag in source.tags)
            self._tags[source.key] = tags
            for tag in tags:
                self._by_tag.setdefault(tag, []).append(source.key)
            self._by_company.setdefault(normalize_tag(source.company), []).append(source.key)
        self._by_id = {source.key: source for source in self.sources}
        # Rank 0 is the oldest: newest first, undated last, then by id.
        newest_first = sorted(self.sources, key=_recency)
        self._rank = {s.key: len(newest_first) - i for i, s in enumerate(newest_first)}
        self._span = len(newest_first) + 1

    def related(self, source: Source, limit: int = MAX_RELATED) -> list[Source]:
        """Return up to limit other write-ups that share the company or at least one tag."""
        key = source.key
        mine = self._tags.get(key) or frozenset(normalize_tag(t) for t in source.tags)
        tags, rank = self._tags, self._rank
        same = [k for k in self._by_company.get(normalize_tag(source.company), ()) if k != key]
        # Same company first, by shared tags then recency; others need a shared tag.
        best = heapq.nlargest(limit, [(len(tags[k] & mine), rank[k], k) for k in same])
        if len(best) < limit:
            shared: Counter[str] = Counter()
            for tag in mine:
                shared.update(self._by_tag.get(tag, ()))
            for k in (key, *same):
                shared.pop(k, None)
            others = heapq.nlargest(
                limit - len(best), [(count, rank[k], k) for k, count in shared.items()]
            )
            best += others
        return [self._by_id[k] for _, _, k in best]


def _recency(source: Source) -> tuple:
    published = source.published or date.min
    return (source.published is None, -published.toordinal(), source.key)


def related_stories(
    source: Source, sources: Sequence[Source], limit: int = MAX_RELATED
) -> list[Source]:
    """Rank other write-ups: shared company first, then shared tags, ties by recency."""
    return RelatedIndex(sources).related(source, limit)
