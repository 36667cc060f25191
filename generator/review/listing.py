"""The queue as the review page lists it: search, filters, order, pages and neighbours."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from generator.review.index import STATUSES


def neighbours(ids: Sequence[str], guide_id: str) -> tuple[str | None, str | None]:
    """Return the guides before and after guide_id in the queue's order (after: the first)."""
    if guide_id not in ids:
        return None, ids[0] if ids else None
    at = list(ids).index(guide_id)
    return (ids[at - 1] if at else None), (ids[at + 1] if at + 1 < len(ids) else None)


def next_to_review(rows: Sequence[Mapping], guide_id: str) -> str | None:
    """Return the next draft after guide_id in the queue's order, from the top once past the end."""
    ids = [row["id"] for row in rows]
    at = ids.index(guide_id) + 1 if guide_id in ids else 0
    for row in [*rows[at:], *rows[:at]]:
        if row["id"] != guide_id and row["status"] == "draft":
            return row["id"]
    return None


# The queue's filters beyond a guide's flags: by its findings.
NO_FINDINGS, HAS_ERRORS, HAS_WARNINGS = "no findings", "errors", "warnings"
FLAG_FILTERS = (
    NO_FINDINGS,
    HAS_ERRORS,
    HAS_WARNINGS,
    "stale",
    "edited after approval",
    "working file missing",
    "generic offline lesson",
    "fails current checks",
    "approval not in the audit log",
)
UNASSIGNED = "(unassigned)"
SORTS = ("id", "title", "company", "status", "errors", "warnings", "assignee")
PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
MAX_QUERY = 200  # characters of a search or a filter value


@dataclass(frozen=True)
class QueueQuery:
    """What the queue shows: a search, filters, an order and a page, from query parameters."""

    text: str = ""
    status: str = ""
    flag: str = ""
    rule: str = ""
    company: str = ""
    topic: str = ""
    assignee: str = ""
    sort: str = "id"
    descending: bool = False
    page: int = 1
    per_page: int = PAGE_SIZE

    @classmethod
    def parse(cls, args: Mapping[str, str]) -> QueueQuery:
        """Read the query parameters; a value out of range falls back to its default."""

        def value(name: str) -> str:
            return " ".join(str(args.get(name) or "").split())[:MAX_QUERY]

        def number(name: str, default: int, top: int) -> int:
            text = value(name)
            return min(int(text), top) if text.isdigit() and int(text) >= 1 else default

        sort = value("sort")
        return cls(
            text=value("q"),
            status=value("status"),
            flag=value("flag") if value("flag") in FLAG_FILTERS else "",
            rule=value("rule"),
            company=value("company"),
            topic=value("topic"),
            assignee=value("assignee"),
            sort=sort if sort in SORTS else "id",
            descending=value("order") == "desc",
            page=number("page", 1, 1_000_000),
            per_page=number("per_page", PAGE_SIZE, MAX_PAGE_SIZE),
        )

    def params(self, **changes: object) -> dict[str, str]:
        """Return the query parameters that differ from the defaults, with changes applied."""
        query = replace(self, **changes)
        fields = {
            "q": query.text,
            "status": query.status,
            "flag": query.flag,
            "rule": query.rule,
            "company": query.company,
            "topic": query.topic,
            "assignee": query.assignee,
            "sort": "" if query.sort == "id" else query.sort,
            "order": "desc" if query.descending else "",
            "page": "" if query.page == 1 else str(query.page),
            "per_page": "" if query.per_page == PAGE_SIZE else str(query.per_page),
        }
        return {name: text for name, text in fields.items() if text}

    def order(self) -> dict[str, str]:
        """Return the parameters that choose the guides, their order and page size, not the page."""
        return self.params(page=1)


@dataclass(frozen=True)
class QueuePage:
    """One page of the queue, with the choices its filters offer."""

    rows: list[dict]
    total: int
    page: int
    pages: int
    first: int  # the number of the page's first row, counted from 1
    facets: dict[str, list[str]] = field(default_factory=dict)


def _has_flag(row: Mapping, flag: str) -> bool:
    if flag == NO_FINDINGS:
        return not row["errors"] and not row["warnings"]
    if flag == HAS_ERRORS:
        return bool(row["errors"])
    if flag == HAS_WARNINGS:
        return bool(row["warnings"])
    return flag in row["labels"]


def _fold(text: str | None) -> str:
    return (text or "").casefold()


def _matches(row: Mapping, query: QueueQuery, words: list[str], texts) -> bool:
    if query.status and row["status"] != query.status:
        return False
    if query.flag and not _has_flag(row, query.flag):
        return False
    if query.rule and query.rule not in row["rules"]:
        return False
    if query.company and _fold(row["company"]) != _fold(query.company):
        return False
    if query.topic and _fold(query.topic) not in {_fold(t) for t in row["topics"]}:
        return False
    if query.assignee:
        wanted = None if query.assignee == UNASSIGNED else _fold(query.assignee)
        if (_fold(row.get("assignee")) or None) != wanted:
            return False
    if words:
        fields = _fold(f"{row['id']}\n{row['title'] or ''}\n{row['company'] or ''}")
        missing = [word for word in words if word not in fields]
        if missing:
            body = texts(row["id"]) if texts else ""
            return all(word in body for word in missing)
    return True


def _sort_key(name: str):
    if name == "status":
        order = {status: n for n, status in enumerate(STATUSES)}
        return lambda row: (order.get(row["status"], len(order)), row["id"])
    if name in ("errors", "warnings"):
        return lambda row: (row[name], row["id"])
    return lambda row: (not row.get(name), _fold(row.get(name)), row["id"])  # blanks last


def select(
    rows: Sequence[Mapping], query: QueueQuery, texts: Callable[[str], str] | None = None
) -> list[Mapping]:
    """Return the rows the query's search and filters keep, in its order (every page).

    The search keeps a row holding every word of it in its id, title or company, or else in
    its text: texts(id) returns a guide's text, case-folded.
    """
    words = _fold(query.text).split()
    kept = [row for row in rows if _matches(row, query, words, texts)]
    return sorted(kept, key=_sort_key(query.sort), reverse=query.descending)


def page_of(selected: Sequence[Mapping], query: QueueQuery, rows: Sequence[Mapping]) -> QueuePage:
    """Return the query's page of the selected rows, with the filters' choices over all rows."""
    pages = max(1, -(-len(selected) // query.per_page))
    page = min(query.page, pages)
    start = (page - 1) * query.per_page
    return QueuePage(
        rows=list(selected[start : start + query.per_page]),
        total=len(selected),
        page=page,
        pages=pages,
        first=start + 1,
        facets=facets(rows),
    )


def facets(rows: Sequence[Mapping]) -> dict[str, list[str]]:
    """Return the values each filter can take among these rows, sorted."""
    companies: dict[str, str] = {}
    topics: dict[str, str] = {}
    rules: set[str] = set()
    assignees: dict[str, str] = {}
    statuses: set[str] = set()
    for row in rows:
        statuses.add(row["status"])
        if row["company"]:
            companies.setdefault(_fold(row["company"]), row["company"])
        for topic in row["topics"]:
            topics.setdefault(_fold(topic), topic)
        rules.update(row["rules"])
        if row.get("assignee"):
            assignees.setdefault(_fold(row["assignee"]), row["assignee"])
    return {
        "status": sorted(statuses),
        "company": [companies[key] for key in sorted(companies)],
        "topic": [topics[key] for key in sorted(topics)],
        "rule": sorted(rules),
        "assignee": [UNASSIGNED, *(assignees[key] for key in sorted(assignees))],
        "flag": list(FLAG_FILTERS),
    }


def page_holding(ids: Sequence[str], guide_id: str, per_page: int) -> int:
    """Return the page of the queue that lists guide_id (the first when it is not listed)."""
    return list(ids).index(guide_id) // per_page + 1 if guide_id in ids else 1


def clean_drafts(rows: Sequence[Mapping]) -> dict[str, str]:
    """Return the drafts with no findings among rows, each with its content hash."""
    return {
        row["id"]: row["content_hash"]
        for row in rows
        if row["status"] == "draft" and not row["errors"] and not row["warnings"]
        if row["content_hash"]
    }


def seen_key(hashes: Mapping[str, str]) -> str:
    """Return one key for a set of guides and their texts, as a form carries what it showed."""
    lines = "\n".join(f"{guide_id}:{hashes[guide_id]}" for guide_id in sorted(hashes))
    return hashlib.sha256(lines.encode()).hexdigest()
