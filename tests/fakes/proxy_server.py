"""A loopback forward HTTP proxy that sends every request to one upstream server, streaming."""

from __future__ import annotations

import http.client
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


class _Handler(BaseHTTPRequestHandler):
    server: _ProxyHTTPServer

    def log_message(self, *args) -> None:
        pass

    def _forward(self) -> None:
        self.server.seen.append((self.command, self.path, self.headers.get("Host")))
        target = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        upstream = http.client.HTTPConnection(*self.server.upstream, timeout=5)
        try:
            path = target.path + (f"?{target.query}" if target.query else "")
            headers = {k: v for k, v in self.headers.items() if k.lower() != "proxy-connection"}
            upstream.request(self.command, path or "/", body=body, headers=headers)
            answer = upstream.getresponse()
            size = answer.getheader("Content-Length")
            data = answer.read() if size is None else b""
            self.send_response(answer.status)
            for name, value in answer.getheaders():
                if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                    self.send_header(name, value)
            self.send_header("Content-Length", size or str(len(data)))
            self.end_headers()
            if self.command == "HEAD":
                return
            self.wfile.write(data)
            # A body with a length is passed on as it arrives, so a slow answer stays slow.
            while part := answer.read1(65536) if size is not None else b"":
                self.wfile.write(part)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client hung up
        finally:
            upstream.close()

    do_GET = _forward
    do_HEAD = _forward
    do_POST = _forward


class _ProxyHTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, upstream: tuple[str, int]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.upstream = upstream
        self.seen: list[tuple[str, str, str | None]] = []


class ForwardProxy:
    """Run a proxy on 127.0.0.1 that answers for any host from upstream (host, port)."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.server = _ProxyHTTPServer(upstream)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def seen(self) -> list[tuple[str, str, str | None]]:
        """Return (method, absolute URL, Host header) of every request the proxy forwarded."""
        return self.server.seen

    def __enter__(self) -> ForwardProxy:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
