"""The queue's search, filters, order and pages, through query parameters."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_review import FEATURES, SEARCH, STREAM, hand_edit, make_review_workspace, run

from generator import review
from generator.review.listing import QueueQuery, page_of, select
from generator.review.web import create_app


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = make_review_workspace(tmp_path_factory.mktemp("queue") / "ws")
    hand_edit(root, STREAM, "## Put it into practice", "## Steps")  # one error finding
    assert run(root, "review", "approve", FEATURES, "--by", "Ada").exit_code == 0
    return root


@pytest.fixture(scope="module")
def client(ws: Path):
    return create_app(ws, secret="t").test_client()


def listed(client, url: str) -> list[str]:
    page = client.get(url).get_data(as_text=True)
    return re.findall(r'<tr data-guide="([^"]+)">', page)


def test_search_finds_a_guide_by_a_word_of_its_title_company_or_text(client) -> None:
    assert listed(client, "/?q=rebuilt") == [SEARCH]  # title
    assert listed(client, "/?q=GLOBEX") == [STREAM]  # company, any case
    assert listed(client, "/?q=judged+query") == [SEARCH]  # only in the guide's text
    assert listed(client, "/?q=judged") == [SEARCH, STREAM]
    assert listed(client, "/?q=judged+globex") == [STREAM]  # every word must be found
    assert listed(client, "/?q=judged+initech") == []
    assert listed(client, "/?q=") == [SEARCH, STREAM, FEATURES]


def test_each_filter_keeps_only_its_guides(client) -> None:
    assert listed(client, "/?status=approved") == [FEATURES]
    assert listed(client, "/?status=draft") == [SEARCH, STREAM]
    assert listed(client, "/?flag=errors") == [STREAM]
    assert listed(client, "/?rule=structure.heading") == [STREAM]
    assert listed(client, "/?company=Initech") == [FEATURES]
    assert listed(client, "/?topic=kafka") == [STREAM]
    assert listed(client, "/?status=draft&company=Acme") == [SEARCH]
    assert listed(client, "/?assignee=(unassigned)") == [SEARCH, STREAM, FEATURES]


def test_the_filters_offer_the_values_the_queue_holds(client) -> None:
    page = client.get("/").get_data(as_text=True)
    companies = re.search(r'<select name="company">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r"<option>([^<]+)</option>", companies) == ["Acme", "Globex", "Initech"]
    rules = re.search(r'<select name="rule">(.*?)</select>', page, re.S).group(1)
    assert "<option>structure.heading</option>" in rules
    chosen = client.get("/?company=Globex").get_data(as_text=True)
    assert "<option selected>Globex</option>" in chosen


def test_sorting_by_a_column_and_its_link_turning_the_order(client) -> None:
    assert listed(client, "/?sort=errors&order=desc")[0] == STREAM
    assert listed(client, "/?sort=status") == [SEARCH, STREAM, FEATURES]  # drafts first
    assert listed(client, "/?sort=id&order=desc") == [FEATURES, STREAM, SEARCH]
    page = client.get("/?sort=errors").get_data(as_text=True)
    assert 'href="/?sort=errors&amp;order=desc" aria-sort="ascending"' in page


def test_paging_with_previous_and_next_links(client) -> None:
    assert listed(client, "/?per_page=1") == [SEARCH]
    page = client.get("/?per_page=1&page=2").get_data(as_text=True)
    assert re.findall(r'<tr data-guide="([^"]+)">', page) == [STREAM]
    assert "Guides 2–2 of 3 · page 2 of 3" in page
    assert 'href="/?page=1&amp;per_page=1" rel="prev"' not in page  # page 1 has no page=1
    assert 'href="/?per_page=1" rel="prev"' in page
    assert 'href="/?page=3&amp;per_page=1" rel="next"' in page
    assert listed(client, "/?per_page=1&page=99") == [FEATURES]  # past the end: the last page


def test_nonsense_parameters_fall_back_to_the_defaults(client) -> None:
    for url in ("/?sort=__class__", "/?page=-3", "/?page=x", "/?per_page=0", "/?flag=nope"):
        assert listed(client, url) == [SEARCH, STREAM, FEATURES], url
    assert QueueQuery.parse({"per_page": "100000"}).per_page == 500


def test_a_guide_opened_from_a_view_steps_through_that_view(client) -> None:
    page = client.get(f"/guides/{SEARCH}?status=draft").get_data(as_text=True)
    assert f'href="/guides/{STREAM}?status=draft" id="next"' in page
    assert 'id="previous"' not in page
    assert 'href="/?status=draft" id="to-queue"' in page
    assert f'action="/guides/{SEARCH}/approve?status=draft"' in page


def rows(count: int) -> list[dict]:
    return [
        {
            "id": f"guide-{n:04d}",
            "title": f"Title {n}",
            "company": "Even" if n % 2 == 0 else "Odd",
            "status": "draft",
            "errors": n % 3,
            "warnings": 0,
            "labels": [],
            "rules": [],
            "topics": [],
        }
        for n in range(count)
    ]


def test_select_and_page_of_many_rows() -> None:
    many = rows(1000)
    query = QueueQuery.parse({"company": "odd", "sort": "errors", "order": "desc", "page": "3"})
    chosen = select(many, query)
    assert len(chosen) == 500 and all(row["company"] == "Odd" for row in chosen)
    assert [row["errors"] for row in chosen[:2]] == [2, 2]
    page = page_of(chosen, query, many)
    assert (page.total, page.page, page.pages, page.first, len(page.rows)) == (500, 3, 10, 101, 50)
    texts = {"guide-0007": "a rare word"}
    found = select(many, QueueQuery(text="RARE"), lambda guide_id: texts.get(guide_id, ""))
    assert [row["id"] for row in found] == ["guide-0007"]
    assert review.next_to_review(chosen, chosen[-1]["id"]) == chosen[0]["id"]
