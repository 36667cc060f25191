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
        self._order: dict[str, tuple] = {}
        for source in self.sources:
            tags = frozenset(normalize_tag(tag) for tag in source.tags)
            self._tags[source.key] = tags
            for tag in tags:
                self._by_tag.setdefault(tag, []).append(source.key)
            self._by_company.setdefault(normalize_tag(source.company), []).append(source.key)
            published = source.published or date.min
            self._order[source.key] = (source.published is None, -published.toordinal())
        self._by_id = {source.key: source for source in self.sources}

    def related(self, source: Source, limit: int = MAX_RELATED) -> list[Source]:
        """Return up to limit other write-ups that share the company or at least one tag."""
        shared: Counter[str] = Counter()
        for tag in self._tags.get(source.key, frozenset(normalize_tag(t) for t in source.tags)):
            shared.update(self._by_tag.get(tag, ()))
        same_company = set(self._by_company.get(normalize_tag(source.company), ()))
        candidates = (set(shared) | same_company) - {source.key}
        ranked = heapq.nsmallest(
            limit,
            candidates,
            key=lambda key: (
                key not in same_company,
                -shared[key],
                *self._order[key],
                key,
            ),
        )
        return [self._by_id[key] for key in ranked]


def related_stories(
    source: Source, sources: Sequence[Source], limit: int = MAX_RELATED
) -> list[Source]:
    """Rank other write-ups: shared company first, then shared tags, ties by recency."""
    return RelatedIndex(sources).related(source, limit)
