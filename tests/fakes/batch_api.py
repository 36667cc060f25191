"""The Files and Batch endpoints of the fake OpenAI server.

Routes: ``POST /v1/files`` (multipart, purpose "batch"), ``GET /v1/files/{id}/content``,
``POST /v1/batches``, ``GET /v1/batches/{id}``, ``GET /v1/batches`` (newest first, ``after``
and ``limit``), ``POST /v1/batches/{id}/cancel``.

A batch moves one step along ``fake.batch_schedule`` at each retrieve (default: validating,
in_progress, finalizing, then ``fake.batch_end``: completed, expired or failed). When it ends,
each input line is answered exactly as ``POST /v1/chat/completions`` would answer it, so
``script(..., match=...)`` actions apply to batch lines too (latency aside). Output order is
reversed, as the real API promises no order. Faults:

- ``fake.batch_end = "expired"`` with ``fake.batch_answer_limit = k``: only k lines answered.
- ``fake.batch_end = "failed"``: no output; ``fake.batch_error_code`` names the error
  (e.g. ``token_limit_exceeded``).
- ``script(LineError(code, message), match=...)``: that line goes to the error file.
- Cancelling a batch answers ``fake.batch_answer_limit`` lines (default none) in the output.
- ``fake.fail_batch_create = n``: the next n ``POST /v1/batches`` get HTTP 500 after the batch
  was created (a lost reply); ``fake.batch_create_delay`` holds the reply that many seconds.

Hostile answers (hardening):

- ``fake.batch_twice = (match, action)``: each line whose raw request contains ``match`` is
  answered a second time, with ``action``, on a later line of the output file.
- ``fake.batch_huge_line = size``: the first request is answered by one line of about ``size``
  bytes, a 200 answer whose content is that long.
- ``fake.files_error = (status, message)``: every ``/v1/files`` request gets that HTTP error.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import Any

TERMINAL = ("completed", "expired", "failed", "cancelled")


@dataclass
class LineError:
    code: str = "server_error"
    message: str = "The request could not be processed."


def _multipart(body: bytes, content_type: str) -> dict[str, bytes]:
    boundary = content_type.split("boundary=")[1].strip().strip('"').encode()
    fields = {}
    for part in body.split(b"--" + boundary):
        head, sep, content = part.partition(b"\r\n\r\n")
        if not sep or b'name="' not in head:
            continue
        name = head.split(b'name="')[1].split(b'"')[0].decode()
        fields[name] = content[:-2] if content.endswith(b"\r\n") else content
    return fields


class BatchAPI:
    """State and handlers of /v1/files and /v1/batches; mixed into FakeOpenAI."""

    def _init_batches(self) -> None:
        self.files: dict[str, dict[str, Any]] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.batch_schedule = ["validating", "in_progress", "finalizing"]
        self.batch_end = "completed"
        self.batch_answer_limit: int | None = None
        self.batch_error_code = "token_limit_exceeded"
        self.fail_batch_create = 0
        self.batch_create_delay = 0.0
        self.batch_creates = 0
        self.uploads = 0
        self.batch_twice: tuple[str, Any] | None = None
        self.batch_huge_line = 0
        self.files_error: tuple[int, str] | None = None
        self._ids = 0
        self._batch_lock = threading.Lock()

    def _new_id(self, prefix: str) -> str:
        with self._batch_lock:
            self._ids += 1
            return f"{prefix}-fake-{self._ids:05d}"

    def _json(self, status: int, data: dict) -> tuple[int, bytes, dict[str, str]]:
        return status, json.dumps(data).encode(), {}

    def upload_file(self, body: bytes, content_type: str) -> tuple[int, bytes, dict[str, str]]:
        fields = _multipart(body, content_type)
        if fields.get("purpose") != b"batch" or "file" not in fields:
            return self._json(400, {"error": {"message": "purpose batch and a file needed"}})
        file_id = self._new_id("file")
        self.files[file_id] = {"data": fields["file"], "purpose": "batch"}
        self.uploads += 1
        info = {"id": file_id, "object": "file", "bytes": len(fields["file"]), "created_at": 0}
        return self._json(200, {**info, "filename": "input.jsonl", "purpose": "batch"})

    def file_content(self, file_id: str) -> tuple[int, bytes, dict[str, str]]:
        if file_id not in self.files:
            return self._json(404, {"error": {"message": f"no file {file_id}"}})
        return 200, self.files[file_id]["data"], {}

    def create_batch(self, body: dict) -> tuple[int, bytes, dict[str, str]]:
        if body.get("input_file_id") not in self.files:
            return self._json(400, {"error": {"message": "unknown input_file_id"}})
        batch_id = self._new_id("batch")
        lines = self.files[body["input_file_id"]]["data"].decode().splitlines()
        models = {json.loads(line)["body"]["model"] for line in lines if line.strip()}
        if len(models) > 1:
            return self._json(400, {"error": {"message": "one model per batch file"}})
        self.batches[batch_id] = {
            "id": batch_id,
            "object": "batch",
            "endpoint": body["endpoint"],
            "input_file_id": body["input_file_id"],
            "completion_window": body["completion_window"],
            "status": "validating",
            "created_at": int(time.time()),
            "metadata": body.get("metadata"),
            "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
            "output_file_id": None,
            "error_file_id": None,
            "_step": 0,
        }
        self.batch_creates += 1
        if self.batch_create_delay:
            self._stopping.wait(self.batch_create_delay)
        if self.fail_batch_create > 0:
            self.fail_batch_create -= 1
            return self._json(500, {"error": {"message": "lost reply", "type": "server_error"}})
        return self._json(200, self._public(batch_id))

    def _public(self, batch_id: str) -> dict:
        return {k: v for k, v in self.batches[batch_id].items() if not k.startswith("_")}

    def retrieve_batch(self, batch_id: str) -> tuple[int, bytes, dict[str, str]]:
        batch = self.batches.get(batch_id)
        if batch is None:
            return self._json(404, {"error": {"message": f"no batch {batch_id}"}})
        if batch["status"] == "cancelling":
            self._finish(batch, "cancelled")
        elif batch["status"] not in TERMINAL:
            batch["_step"] += 1
            if batch["_step"] < len(self.batch_schedule):
                batch["status"] = self.batch_schedule[batch["_step"]]
                if batch["status"] == "in_progress":
                    total = batch["request_counts"]["total"]
                    batch["request_counts"]["completed"] = total // 2
            else:
                self._finish(batch, self.batch_end)
        return self._json(200, self._public(batch_id))

    def list_batches(self, query: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        ids = sorted(self.batches, reverse=True)
        if "after" in query:
            ids = [i for i in ids if i < query["after"]]
        limit = int(query.get("limit", 20))
        page = [self._public(i) for i in ids[:limit]]
        data = {"object": "list", "data": page, "has_more": len(ids) > limit}
        data |= {"first_id": page[0]["id"] if page else None}
        data |= {"last_id": page[-1]["id"] if page else None}
        return self._json(200, data)

    def cancel_batch(self, batch_id: str) -> tuple[int, bytes, dict[str, str]]:
        batch = self.batches.get(batch_id)
        if batch is None:
            return self._json(404, {"error": {"message": f"no batch {batch_id}"}})
        if batch["status"] not in TERMINAL:
            batch["status"] = "cancelling"
        return self._json(200, self._public(batch_id))

    def _finish(self, batch: dict, status: str) -> None:
        batch["status"] = status
        if status == "failed":
            code = self.batch_error_code
            batch["errors"] = {"data": [{"code": code, "message": code.replace("_", " ")}]}
            return
        lines = self.files[batch["input_file_id"]]["data"].decode().splitlines()
        limit = len(lines) if status == "completed" else (self.batch_answer_limit or 0)
        output, errors, later = [], [], []
        for number, line in enumerate(lines[:limit]):
            request = json.loads(line)
            if self.batch_huge_line and number == 0:
                continue  # answered by the huge line alone
            answer = self.answer_line(request, line, number)
            target = (
                errors if answer["error"] or answer["response"]["status_code"] != 200 else output
            )
            target.append(json.dumps(answer))
            if self.batch_twice is not None and self.batch_twice[0] in line:
                self.script(self.batch_twice[1], match=self.batch_twice[0])
                later.append(json.dumps(self.answer_line(request, line, number)))
        if self.batch_huge_line and lines:
            later.append(self._huge_line(json.loads(lines[0])))
        batch["request_counts"] = {
            "total": len(lines),
            "completed": len(output),
            "failed": len(errors),
        }
        for kind, rows in (("output_file_id", output), ("error_file_id", errors)):
            if kind == "output_file_id":
                rows = [*later, *rows]  # reversed below: the extra lines come last
            if rows:
                file_id = self._new_id("file")
                data = "\n".join(reversed(rows)) + "\n"
                self.files[file_id] = {"data": data.encode(), "purpose": "batch_output"}
                batch[kind] = file_id

    def _huge_line(self, request: dict) -> str:
        body = json.loads(self._completion(request["body"], "", "stop", None))
        text = json.dumps({"custom_id": request["custom_id"], "id": "batch_req_huge"})
        head = text[:-1] + ', "response": {"status_code": 200, "body": '
        content = "x" * self.batch_huge_line
        body["choices"][0]["message"]["content"] = content
        return head + json.dumps(body) + "}}"

    def answer_line(self, request: dict, raw: str, number: int) -> dict:
        """Answer one batch input line as the chat endpoint would."""
        action = self._take(raw)
        answer = {"id": f"batch_req_{number}", "custom_id": request["custom_id"], "error": None}
        if isinstance(action, LineError):
            error = {"code": action.code, "message": action.message}
            return {**answer, "response": None, "error": error}
        if action is None:  # as the chat endpoint: a record's own drafts, when it has some
            action = self._record_answer(request["body"], self.title_of(request["body"]))
        self._enter(request["body"])
        try:
            status, data, _ = self.answer(action, request["body"])
        finally:
            self._leave()
        body = json.loads(data) if isinstance(data, bytes) else {}
        return {**answer, "response": {"status_code": status, "request_id": "r", "body": body}}

    def route_batch_api(self, method: str, path: str, handler) -> tuple[int, bytes, dict] | None:
        """Answer a files or batches request, or None when the path is not one of those."""
        route, _, query_text = path.partition("?")
        query = dict(item.split("=", 1) for item in query_text.split("&") if "=" in item)
        parts = route.strip("/").split("/")
        if parts[:2] == ["v1", "files"] and self.files_error is not None:
            handler.rfile.read(int(handler.headers.get("Content-Length") or 0))
            status, message = self.files_error
            error = {"message": message, "type": "invalid_request_error", "code": None}
            return self._json(status, {"error": error})
        if parts[:2] == ["v1", "files"]:
            if method == "POST" and len(parts) == 2:
                length = int(handler.headers.get("Content-Length") or 0)
                body = handler.rfile.read(length)
                return self.upload_file(body, handler.headers.get("Content-Type", ""))
            if method == "GET" and len(parts) == 4 and parts[3] == "content":
                return self.file_content(parts[2])
        if parts[:2] == ["v1", "batches"]:
            if method == "POST" and len(parts) == 2:
                length = int(handler.headers.get("Content-Length") or 0)
                return self.create_batch(json.loads(handler.rfile.read(length)))
            if method == "GET" and len(parts) == 2:
                return self.list_batches(query)
            if method == "GET" and len(parts) == 3:
                return self.retrieve_batch(parts[2])
            if method == "POST" and len(parts) == 4 and parts[3] == "cancel":
                handler.rfile.read(int(handler.headers.get("Content-Length") or 0))
                return self.cancel_batch(parts[2])
        return None
