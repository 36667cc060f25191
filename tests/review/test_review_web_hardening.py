"""Issue 11 G29-G31 and issue 14 item 6: the review page's headers, limits, hosts and panels."""

from __future__ import annotations

import http.client
import re
import socket
import threading
import time
from pathlib import Path

import pytest
from browser import chromium_browser
from test_review import SEARCH, STREAM, hand_edit, make_review_workspace, run

from generator import review
from generator.guides.project import Project
from generator.review.web import create_app, make_server


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_review_workspace(tmp_path / "ws")


@pytest.fixture
def app(ws: Path):
    return create_app(ws, secret="test-token")


@pytest.fixture
def served(ws: Path):
    """The real threaded server on 127.0.0.1; yield its port."""
    server = make_server(ws, "127.0.0.1", 0, allow_hosts=("review.example.lan",))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        thread.join(timeout=10)


def test_g29_every_response_carries_the_security_headers(ws: Path, app) -> None:
    client = app.test_client()
    for url in ("/", f"/guides/{SEARCH}", "/guides/nope", "/static/review.css"):
        response = client.get(url)
        csp = response.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, url
        assert "unsafe-inline" not in csp
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
    for url in ("/", f"/guides/{SEARCH}"):
        page = client.get(url).get_data(as_text=True)
        assert "<style" not in page and "style=" not in page
        assert not re.search(r"<[^>]+\son[a-z]+=", page), "inline event handlers are scripts"
    css = client.get("/static/review.css")
    assert css.status_code == 200 and css.mimetype == "text/css" and "--accent" in css.text


def test_g30_a_large_post_is_refused_before_its_form_is_read(ws: Path, served: int) -> None:
    connection = socket.create_connection(("127.0.0.1", served), timeout=10)
    head = (
        f"POST /guides/{SEARCH}/approve HTTP/1.1\r\nHost: 127.0.0.1:{served}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {100 * 1024 * 1024}\r\n\r\nby=Mallory&"
    )
    started = time.monotonic()
    connection.sendall(head.encode())
    reply = connection.recv(4096).decode(errors="replace")
    connection.close()
    assert reply.startswith("HTTP/1.1 413"), reply[:200]
    assert time.monotonic() - started < 5  # answered without waiting for 100 MB
    assert review.read_state(Project(ws), SEARCH) is None


def test_g30_an_oversized_form_gets_413_not_a_csrf_refusal(ws: Path, app) -> None:
    data = {"csrf_token": "test-token", "by": "Ada", "note": "x" * (2 * 1024 * 1024)}
    response = app.test_client().post(f"/guides/{SEARCH}/approve", data=data)
    assert response.status_code == 413
    assert review.read_state(Project(ws), SEARCH) is None


def test_g31_a_public_address_needs_an_allow_list(ws: Path, served: int) -> None:
    result = run(ws, "review", "serve", "--host", "0.0.0.0", "--port", "0")
    assert result.exit_code == 2
    assert "refusing to listen on 0.0.0.0 without --allow-host" in result.output
    for host, expected in (
        ("review.example.lan", 200),
        (f"review.example.lan:{served}", 200),
        (f"127.0.0.1:{served}", 200),
        (f"localhost:{served}", 200),
        ("evil.example", 400),
        (f"evil.example:{served}", 400),
        ("review.example.lan.evil.example", 400),
    ):
        connection = http.client.HTTPConnection("127.0.0.1", served, timeout=10)
        connection.request("GET", "/", headers={"Host": host})
        status = connection.getresponse().status
        connection.close()
        assert status == expected, host


def test_i14_the_source_panel_shows_the_manual_verification_date(ws: Path, app) -> None:
    assert "checked: 2026-11-20" in (ws / "sources" / f"{SEARCH}.yaml").read_text()
    result = run(ws, "verify", "--manual", SEARCH, "--by", "Ed")
    assert result.exit_code == 0, result.output
    page = app.test_client().get(f"/guides/{SEARCH}").get_data(as_text=True)
    assert '<span id="source-checked">2026-11-30</span>' in page
    guide_checked = Project(ws).originals(Project(ws).source(SEARCH))[0].checked
    assert guide_checked.isoformat() == "2026-11-30"


@pytest.mark.browser
def test_g29_i14_the_page_is_styled_under_its_csp_and_never_breaks_words(
    ws: Path, served: int
) -> None:
    hand_edit(ws, STREAM, "## Put it into practice", "## Steps")  # findings with long messages
    violations: list[str] = []
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 900, "height": 900})
        page.on("console", lambda msg: violations.append(msg.text) if msg.type == "error" else 0)
        page.goto(f"http://127.0.0.1:{served}/guides/{STREAM}")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(247, 248, 250)", "review.css did not load under the CSP"
        assert page.locator("#findings tbody tr").count() >= 1
        broken = page.evaluate(
            """() => [...document.querySelectorAll('#findings th, #findings td')]
                .flatMap(cell => [...cell.innerText.split(/\\s+/)].filter(Boolean).map(word => {
                    const probe = document.createElement('span');
                    probe.textContent = word;
                    probe.style.whiteSpace = 'nowrap';
                    probe.style.font = getComputedStyle(cell).font;
                    probe.style.position = 'absolute';
                    document.body.appendChild(probe);
                    const fits = probe.getBoundingClientRect().width <= cell.clientWidth;
                    probe.remove();
                    return [word, fits];
                }))
                .filter(([word, fits]) => !fits && word.length < 30)
                .map(([word]) => word)"""
        )
        assert broken == [], f"words wider than their cell, so broken mid-word: {broken}"
    assert not [v for v in violations if "Content Security Policy" in v], violations
