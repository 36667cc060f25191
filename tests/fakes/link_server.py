"""A loopback web site with one page per link outcome, recording every request it gets."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def html(title: str, text: str) -> str:
    """Return a small HTML page."""
    return (
        f"<!doctype html><html><head><title>{title}</title><style>p{{color:red}}</style>"
        f"<script>var t = {time.time()};</script></head><body><h1>{title}</h1>"
        f"<p>{text}</p></body></html>"
    )


HUGE_BYTES = 64 * 1024 * 1024
# path -> (status, location) for the pages that do not serve text.
STATUS_PAGES: dict[str, tuple[int, str | None]] = {
    "/gone": (404, None),
    "/removed": (410, None),
    "/moved": (301, "/new-home"),
    "/usurped": (301, "/"),
    "/login": (401, None),
    "/forbidden": (403, None),
    "/throttled": (429, None),
    "/busy": (503, None),
    "/broken": (500, None),
    "/loop/6": (301, "/loop/5"),
    "/loop/5": (301, "/loop/4"),
    "/loop/4": (301, "/loop/3"),
    "/loop/3": (301, "/loop/2"),
    "/loop/2": (301, "/loop/1"),
    "/loop/1": (301, "/loop/0"),
    "/loop/0": (301, "/live"),
}


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        """Ignore clients that hung up (the link checker gives up on /hang)."""


@dataclass(frozen=True)
class Hit:
    """One request as the server saw it."""

    method: str
    path: str
    at: float  # time.monotonic() on arrival
    user_agent: str


class LinkServer:
    """Serve the outcome pages on 127.0.0.1 from a background thread.

    - /live, /new-home, / : live pages; /changing serves `self.changing_text`
    - /no-head : answers HEAD with 405 and GET with a live page
    - /hang : waits `hang_seconds` before answering (longer than the client's timeout)
    - /drip : sends its headers at once, then its body one byte every `drip_seconds`
    - /drip-headers : sends its status line, then its headers one byte every `drip_seconds`
    - /bogus-charset : a live page whose Content-Type names a charset that does not exist
    - /huge : a HUGE_BYTES body; `huge_sent` counts the bytes the client accepted
    - /admin : an internal service's page (the target of hostile redirects)
    - the paths of STATUS_PAGES answer with their status (and Location for redirects), and
      so do those a test adds to `redirects` (path -> absolute Location)
    """

    def __init__(self, hang_seconds: float = 5.0) -> None:
        self.hang_seconds = hang_seconds
        self.changing_text = "Version one of the write-up: 40% fewer GPUs."
        self.drip_seconds = 0.2
        self.redirects: dict[str, str] = {}
        self.huge_sent = 0
        self.hits: list[Hit] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server = _QuietServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )

    @property
    def base(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def url(self, path: str) -> str:
        return self.base + path

    def times(self, path: str | None = None) -> list[float]:
        """Return the arrival times of requests (to one path, or all), in order."""
        with self._lock:
            return [hit.at for hit in self.hits if path is None or hit.path == path]

    def requests(self, path: str) -> list[str]:
        """Return the methods of the requests to one path, in order."""
        with self._lock:
            return [hit.method for hit in self.hits if hit.path == path]

    def __enter__(self) -> LinkServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _page(self, path: str) -> tuple[int, dict[str, str], str]:
        if path in self.redirects:
            return 302, {"Location": self.redirects[path]}, html("Found", "Moved.")
        if path == "/bogus-charset":
            headers = {"Content-Type": "text/html; charset=bogus-xyz"}
            return 200, headers, html("charset", "A page in an encoding nobody knows.")
        if path in STATUS_PAGES:
            status, location = STATUS_PAGES[path]
            headers = {"Location": location} if location else {}
            return status, headers, html(f"HTTP {status}", "Nothing to see.")
        texts = {
            "/": "Welcome to the front page of the engineering blog.",
            "/live": "Meta trained GEM on thousands of GPUs with 5D parallelism.",
            "/new-home": "This write-up moved here and still says what it said.",
            "/no-head": "This server refuses HEAD but serves GET.",
            "/hang": "Too late.",
            "/changing": self.changing_text,
            "/admin": "Internal admin console: not for the link checker.",
            "/drip": "Slow " * 200,
        }
        if path in texts:
            return 200, {}, html(path.strip("/") or "home", texts[path])
        return 404, {}, html("Not found", path)

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format, *args) -> None:  # noqa: A002
                return

            def _answer(self, with_body: bool) -> None:
                path = self.path.split("?")[0]
                with server._lock:
                    server.hits.append(
                        Hit(
                            self.command, path, time.monotonic(), self.headers.get("User-Agent", "")
                        )
                    )
                if path == "/hang" and server._stop.wait(server.hang_seconds):
                    return
                if path == "/huge":
                    self._huge()
                    return
                if path == "/drip-headers":
                    self._drip(b"HTTP/1.1 200 OK\r\nX-Slow: " + b"z" * 200 + b"\r\n\r\n")
                    return
                if path == "/no-head" and self.command == "HEAD":
                    status, headers, body = 405, {"Allow": "GET"}, ""
                else:
                    status, headers, body = server._page(path)
                data = body.encode("utf-8")
                self.send_response(status)
                headers.setdefault("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                if with_body and path == "/drip":
                    self.wfile.flush()
                    self._drip(data)
                elif with_body:
                    self.wfile.write(data)

            def _huge(self) -> None:
                """Answer with a HUGE_BYTES body, counting what the client took before leaving."""
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(HUGE_BYTES))
                self.end_headers()
                chunk = b"x" * 65536
                for _ in range(HUGE_BYTES // len(chunk)):
                    try:
                        self.wfile.write(chunk)
                    except OSError:
                        return
                    with server._lock:
                        server.huge_sent += len(chunk)

            def _drip(self, data: bytes) -> None:
                """Send data one byte at a time, drip_seconds apart, until the client leaves."""
                for byte in data:
                    if server._stop.wait(server.drip_seconds):
                        return
                    try:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    except OSError:
                        return

            def do_HEAD(self) -> None:  # noqa: N802
                self._answer(with_body=False)

            def do_GET(self) -> None:  # noqa: N802
                self._answer(with_body=True)

        return Handler
