"""A loopback static host: serves a built site as a plain web host would, 404.html included."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".webmanifest": "application/manifest+json",
    }

    def send_error(self, code: int, message: str | None = None, explain: str | None = None):
        """Answer a missing file with the site's 404.html, as static hosts do."""
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:
        self.server.log.append((self.command, self.path, args[1] if len(args) > 1 else ""))


class StaticHost:
    """Serve folder on 127.0.0.1 under the path prefix; log (method, path, status)."""

    def __init__(self, folder: Path) -> None:
        handler = functools.partial(_Handler, directory=str(folder))
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.log = []
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def log(self) -> list[tuple[str, str, str]]:
        return self.server.log

    def __enter__(self) -> StaticHost:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
