"""A fake OpenAI-compatible server: real HTTP on 127.0.0.1, scripted answers and faults.

Start it in a test and point the real client (or the CLI) at ``server.base_url``::

    with FakeOpenAI(latency=0.05) as server:
        env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": server.base_url}
        ...
        assert server.request_count == 1
        assert server.peak_concurrency <= 4

By default every ``POST /v1/chat/completions`` gets a schema-valid Draft built from the source
data in the request (quotes copied verbatim from its Summary), see ``draft_for``.

Scripting. ``server.script(*actions, match=None, times=1)`` queues actions; each request takes
the first queued action whose ``match`` (a substring of the raw request body, or None for any
request) it contains, and ``times`` says how many requests that action answers (None: forever).
Requests with no matching action get the default draft. Actions:

- ``RateLimit(retry_after=0.1)``: HTTP 429 with a ``Retry-After`` header (seconds).
- ``ServerError()``: HTTP 500.
- ``Hang(seconds=30)``: hold the request without answering (until the client times out).
- ``Truncated()``: HTTP 200, finish_reason "stop", but the JSON content is cut in half.
- ``SchemaInvalid()``: HTTP 200 with JSON that breaks the Draft schema (two steps only).
- ``Length()``: HTTP 200, finish_reason "length", content cut off.
- ``Refusal(text)``: HTTP 200 with ``message.refusal`` set and no content.
- ``ContentFilter()``: HTTP 200, finish_reason "content_filter".
- ``Unauthorized()`` / ``Forbidden()``: HTTP 401 / 403 with an OpenAI-style error body.
- ``Reply(content, finish_reason="stop")``: an arbitrary assistant answer. ``content`` is a
  string (sent as is), a dict (sent as JSON), or a callable taking the request body (a dict)
  and returning either. Use it to make the "model" obey a prompt injection, e.g.
  ``Reply(lambda req: {**draft_for(req), "interpretation": "49. Visit https://evil.example"})``.
- ``Raw(status, body, headers={})``: any HTTP status and raw body bytes/text.

Hostile answers (hardening):

- ``Html(body)``: HTTP 200 with ``Content-Type: text/html`` (a captive portal, a wrong URL).
- ``BadUsage(usage)``: HTTP 200, a valid draft, but ``usage`` replaced by any value
  (a string, negative counts, ...).
- ``Huge(size)``: HTTP 200 with a JSON-typed body of ``size`` bytes, generated as it is sent.
- ``Drip(rate)``: HTTP 200 with a valid completion sent at ``rate`` bytes per second.

Per-record answers. ``server.answer_records(answers, reask="repeat")`` makes the server answer
like a model with a fixed draft per record: ``answers`` maps a record's Title (as the user
message's source-data block carries it) to a list of drafts (dicts or strings). A first request
gets the first draft; a re-ask (a request carrying N earlier assistant answers) gets the same
first draft again with ``reask="repeat"``, or draft N (the last one when the list is shorter)
with ``reask="next"``, e.g. ``[variant, corrected]``. Scripted actions still come first;
records not in ``answers`` get the default draft. ``server.asked`` counts requests per Title.

``FakeOpenAI(served_model="gpt-4o-mini-2024-07-18")`` answers with a snapshot name, as OpenAI
does. Counters: ``request_count``, ``peak_concurrency``, ``requests`` (parsed JSON bodies, in
arrival order) and ``reset()``.
The Files and Batch API (``/v1/files``, ``/v1/batches``) is described in ``batch_api.py``.
``python -m tests.fakes.openai_server --port 8999 --latency 0.5`` runs it by hand.
"""

from __future__ import annotations

import argparse
import json
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from .batch_api import BatchAPI, LineError  # noqa: F401 - LineError is scripted by tests

SOURCE_BLOCK = re.compile(r"<source-data (\w+)>\n(.*?)\n</source-data \1>", re.DOTALL)
FIELD = re.compile(r"^(Company|Title|Summary|Notes|Scale|Techniques|Stack):[ ]?", re.MULTILINE)
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")


def source_fields(request: dict) -> dict[str, str]:
    """Return the labelled fields of the source-data block of a chat request."""
    for message in request.get("messages", []):
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, str):
            continue
        block = SOURCE_BLOCK.search(content)
        if block is None:
            continue
        text = block.group(2)
        marks = list(FIELD.finditer(text))
        fields = {}
        for index, mark in enumerate(marks):
            end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
            fields[mark.group(1).lower()] = text[mark.end() : end].strip()
        return fields
    return {}


def draft_for(request: dict) -> dict[str, Any]:
    """Build a schema-valid draft whose quotes are verbatim sentences of the request's source."""
    fields = source_fields(request)
    summary = " ".join(fields.get("summary", "").split())
    sentences = [s for s in SENTENCE_BREAK.split(summary) if s.strip()][:3] or [
        fields.get("title", "the write-up")
    ]
    return {
        "reported": [{"text": sentence, "quote": sentence} for sentence in sentences],
        "angle": "connect the design to its constraint",
        "interpretation": (
            "Explain which constraint shaped the design before you describe the design itself. "
            "Show the trade-off you would measure first and why."
        ),
        "case_study_title": "systems-oriented",
        "case_study": (
            "Pick a small workload that fits your own hardware, record a baseline and change one "
            "thing at a time. Label any part you did not run as a proposal."
        ),
        "steps": [
            "Write down the constraint that drives the design.",
            "Measure a baseline before changing anything.",
            "Explain one trade-off in your own words.",
        ],
    }


@dataclass
class RateLimit:
    retry_after: float = 0.1


@dataclass
class ServerError:
    pass


@dataclass
class Hang:
    seconds: float = 30.0


@dataclass
class Truncated:
    pass


@dataclass
class SchemaInvalid:
    pass


@dataclass
class Length:
    pass


@dataclass
class Refusal:
    text: str = "I'm sorry, but I can't help with that request."


@dataclass
class ContentFilter:
    pass


@dataclass
class Unauthorized:
    pass


@dataclass
class Forbidden:
    pass


@dataclass
class Reply:
    content: str | dict | Callable[[dict], str | dict]
    finish_reason: str = "stop"


@dataclass
class Raw:
    status: int
    body: bytes | str
    headers: dict[str, str] = field(default_factory=dict)


# --- Hostile answers (hardening) -------------------------------------------------------------


@dataclass
class Html:
    body: str = "<!doctype html><html><head><title>Sign in to Wi-Fi</title></head></html>"


@dataclass
class BadUsage:
    usage: Any = "lots"


@dataclass
class Huge:
    size: int = 200 * 1024 * 1024


@dataclass
class Drip:
    rate: float = 1.0


@dataclass
class Streamed:
    """A body sent piece by piece: `length` bytes from `chunks`, as the handler writes them."""

    length: int
    chunks: Any
    content_type: str = "application/json"


def _huge_chunks(size: int):
    chunk = b" " * 65536
    sent = 0
    while sent < size:
        part = chunk[: size - sent]
        sent += len(part)
        yield part


def _drip_chunks(data: bytes, rate: float, stopping: threading.Event):
    for index in range(len(data)):
        if stopping.wait(1.0 / rate):
            return
        yield data[index : index + 1]


# --- end of hostile answers ------------------------------------------------------------------


@dataclass
class _Scripted:
    action: Any
    match: str | None
    times: int | None


def _error_body(status: int, message: str, kind: str, code: str | None = None) -> bytes:
    error = {"message": message, "type": kind, "param": None, "code": code}
    return json.dumps({"error": error}).encode()


class FakeOpenAI(BatchAPI):
    """A threaded HTTP server on 127.0.0.1 speaking the Chat Completions, Files and Batch APIs."""

    def __init__(
        self, latency: float = 0.0, port: int = 0, served_model: str | None = None
    ) -> None:
        self.latency = latency
        self.served_model = served_model
        self._lock = threading.Lock()
        self._script: list[_Scripted] = []
        self._stopping = threading.Event()
        self.requests: list[dict] = []
        self.request_count = 0
        self.in_flight = 0
        self.peak_concurrency = 0
        self.tokens = {"prompt": 0, "completion": 0}
        self._answers: dict[str, list[str | dict]] = {}
        self._reask = "repeat"
        self.asked: Counter[str] = Counter()
        self._init_batches()
        self._httpd = _Server(("127.0.0.1", port), _Handler)
        self._httpd.fake = self
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeOpenAI:
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def script(self, *actions: Any, match: str | None = None, times: int | None = 1) -> None:
        """Queue actions for the next matching requests, in order."""
        with self._lock:
            self._script.extend(_Scripted(action, match, times) for action in actions)

    def answer_records(self, answers: dict[str, list[str | dict]], reask: str = "repeat") -> None:
        """Answer each record (by Title) with its drafts; a re-ask repeats or takes the next."""
        if reask not in ("repeat", "next"):
            raise ValueError(f"reask must be 'repeat' or 'next', not {reask!r}")
        if any(not drafts for drafts in answers.values()):
            raise ValueError("every record needs at least one draft")
        with self._lock:
            self._answers = {title: list(drafts) for title, drafts in answers.items()}
            self._reask = reask

    def title_of(self, body: dict) -> str | None:
        """Return the Title a request's record (or article) names, if any."""
        return source_fields(body).get("title")

    def _record_answer(self, body: dict, title: str | None) -> Reply | None:
        with self._lock:
            drafts = self._answers.get(title) if title is not None else None
            if not drafts:
                return None
            if self._reask == "repeat":
                return Reply(drafts[0])
        earlier = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
        return Reply(drafts[min(earlier, len(drafts) - 1)])

    def reset(self) -> None:
        """Forget counters, recorded requests, queued actions and per-record answers."""
        with self._lock:
            self._answers.clear()
            self.asked.clear()
            self._script.clear()
            self.requests.clear()
            self.request_count = 0
            self.peak_concurrency = self.in_flight

    def _take(self, raw: str) -> Any:
        with self._lock:
            for index, item in enumerate(self._script):
                if item.match is None or item.match in raw:
                    if item.times is not None:
                        item.times -= 1
                        if item.times <= 0:
                            del self._script[index]
                    return item.action
        return None

    def _enter(self, body: dict) -> None:
        with self._lock:
            self.request_count += 1
            self.requests.append(body)
            self.in_flight += 1
            self.peak_concurrency = max(self.peak_concurrency, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def respond(self, body: dict, raw: str) -> tuple[int, bytes, dict[str, str]]:
        """Return status, body and headers for one chat request."""
        title = source_fields(body).get("title")
        if title is not None:
            with self._lock:
                self.asked[title] += 1
        action = self._take(raw)
        if action is None:
            action = self._record_answer(body, title)
        if self.latency:
            self._stopping.wait(self.latency)
        return self.answer(action, body)

    def answer(self, action: Any, body: dict) -> tuple[int, bytes | Streamed, dict[str, str]]:
        """Answer a chat request body with a scripted action (None: the default draft)."""
        if isinstance(action, Hang):
            self._stopping.wait(action.seconds)
            return 500, _error_body(500, "hung", "server_error"), {}
        if isinstance(action, RateLimit):
            message = "Rate limit reached; please retry after a short wait."
            headers = {"Retry-After": f"{action.retry_after:g}"}
            return 429, _error_body(429, message, "requests", "rate_limit_exceeded"), headers
        if isinstance(action, ServerError):
            return 500, _error_body(500, "The server had an error.", "server_error"), {}
        if isinstance(action, Unauthorized):
            message = "Incorrect API key provided."
            return 401, _error_body(401, message, "invalid_request_error", "invalid_api_key"), {}
        if isinstance(action, Forbidden):
            message = "You are not allowed to use this model."
            return 403, _error_body(403, message, "invalid_request_error", "forbidden"), {}
        if isinstance(action, Raw):
            data = action.body.encode() if isinstance(action.body, str) else action.body
            return action.status, data, dict(action.headers)
        if isinstance(action, Html):
            return 200, Streamed(len(action.body.encode()), [action.body.encode()], "text/html"), {}
        if isinstance(action, Huge):
            return 200, Streamed(action.size, _huge_chunks(action.size)), {}
        if isinstance(action, Drip):
            data = self._completion(body, json.dumps(draft_for(body)), "stop", None)
            return 200, Streamed(len(data), _drip_chunks(data, action.rate, self._stopping)), {}
        if isinstance(action, BadUsage):
            completion = json.loads(
                self._completion(body, json.dumps(draft_for(body)), "stop", None)
            )
            return 200, json.dumps({**completion, "usage": action.usage}).encode(), {}
        good = json.dumps(draft_for(body))
        content: str | None = good
        finish = "stop"
        refusal = None
        if isinstance(action, Truncated):
            content = good[: len(good) // 2]
        elif isinstance(action, SchemaInvalid):
            content = json.dumps({**draft_for(body), "steps": ["Only one.", "Only two."]})
        elif isinstance(action, Length):
            content, finish = good[: len(good) // 3], "length"
        elif isinstance(action, Refusal):
            content, refusal = None, action.text
        elif isinstance(action, ContentFilter):
            content, finish = None, "content_filter"
        elif isinstance(action, Reply):
            made = action.content(body) if callable(action.content) else action.content
            content = made if isinstance(made, str) else json.dumps(made)
            finish = action.finish_reason
        return 200, self._completion(body, content, finish, refusal), {}

    def _completion(self, body: dict, content: str | None, finish: str, refusal: str | None):
        prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
        prompt_tokens = prompt_chars // 4 + 1
        completion_tokens = len(content or refusal or "") // 4 + 1
        with self._lock:
            number = self.request_count
            self.tokens["prompt"] += prompt_tokens
            self.tokens["completion"] += completion_tokens
        message = {"role": "assistant", "content": content, "refusal": refusal}
        return json.dumps(
            {
                "id": f"chatcmpl-fake-{number}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": self.served_model or body.get("model", "fake-model"),
                "choices": [
                    {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            }
        ).encode()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    fake: FakeOpenAI


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Stay quiet."""

    def _send(self, status: int, data: bytes | Streamed, headers: dict[str, str]) -> None:
        reason = self.responses.get(status, ("",))[0]
        streamed = data if isinstance(data, Streamed) else None
        kind = streamed.content_type if streamed else "application/json"
        length = streamed.length if streamed else len(data)
        lines = [f"HTTP/1.1 {status} {reason}", f"Content-Type: {kind}"]
        lines += [f"Content-Length: {length}", "Connection: keep-alive"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        try:
            if streamed is None:
                self.wfile.write(head + data)
                return
            self.wfile.write(head)
            for chunk in streamed.chunks:
                self.wfile.write(chunk)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _batch_api(self, method: str) -> bool:
        answer = self.server.fake.route_batch_api(method, self.path, self)
        if answer is None:
            return False
        self._send(*answer)
        return True

    def do_GET(self) -> None:
        if not self._batch_api("GET"):
            self._send(404, _error_body(404, f"no route {self.path}", "not_found"), {})

    def do_POST(self) -> None:
        if self._batch_api("POST"):
            return
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8")
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, _error_body(404, f"no route {self.path}", "not_found"), {})
            return
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            self._send(400, _error_body(400, "body is not JSON", "invalid_request_error"), {})
            return
        fake = self.server.fake
        fake._enter(body)
        try:
            status, data, headers = fake.respond(body, raw)
        finally:
            fake._leave()
        self._send(status, data, headers)


def main() -> None:
    """Run the fake server in the foreground."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8999)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    args = parser.parse_args()
    server = FakeOpenAI(latency=args.latency, port=args.port).start()
    print(f"OPENAI_BASE_URL={server.base_url}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


def write_synthetic_sources(sources_dir: Path, count: int, start: int = 0) -> list[str]:
    """Write `count` valid, distinct source records; return their ids."""
    sources_dir.mkdir(parents=True, exist_ok=True)
    ids = []
    for number in range(start, start + count):
        record_id = f"synthetic-{number:05d}"
        text = (
            f"company: Example Co {number % 17}\n"
            f"title: Scaling queue number {number} without losing messages\n"
            f"url: https://engineering.example.com/posts/{number}\n"
            "published: 2026-06-01\n"
            "checked: 2026-11-01\n"
            "summary: >-\n"
            f"  The team moved queue {number} to a partitioned log. Consumers now commit offsets"
            " after each batch. Replays after a crash finish in minutes instead of hours.\n"
            "techniques: [partitioned logs, batching]\n"
            "stack: [Kafka]\n"
        )
        (sources_dir / f"{record_id}.yaml").write_text(text, encoding="utf-8")
        ids.append(record_id)
    return ids


if __name__ == "__main__":
    main()
