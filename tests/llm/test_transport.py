"""The SDK's HTTP/1.1 transport against a raw server that scripts each connection's bytes."""

from __future__ import annotations

import asyncio
import json
import ssl
from pathlib import Path

import httpx2
import openai
import pytest
from openai import AsyncOpenAI

from generator.llm.transport import ResponseTooLarge, bounded_http_client

ANSWER = json.dumps({"ok": True}).encode()
# A self-signed certificate for 127.0.0.1, valid until 2125; the test trusts it or does not.
TLS = Path(__file__).parents[1] / "fakes" / "tls"


def reply(body: bytes = ANSWER, *, extra: bytes = b"", length: bool = True) -> bytes:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + extra
    if length:
        head += b"Content-Length: %d\r\n" % len(body)
    return head + b"\r\n" + body


class RawServer:
    """Answer each request with the next scripted reply; `(reply, "close")` then hangs up."""

    def __init__(self, *replies: bytes | tuple[bytes, str]) -> None:
        self.replies = list(replies)
        self.connections = 0
        self.requests = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                await reader.readexactly(length)
                self.requests += 1
                action = self.replies.pop(0) if self.replies else reply()
                data, then = action if isinstance(action, tuple) else (action, "")
                writer.write(data)
                await writer.drain()
                if then == "close" or b"Connection: close" in data:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


def post_all(
    server: RawServer,
    count: int,
    *,
    pause: float = 0.0,
    timeout: float = 5.0,
    limit: int = 1000,
    tls: bool = False,
    body: dict | None = None,
):
    """Post `count` requests one after another through the SDK; return their answers."""

    async def go():
        context = None
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(TLS / "cert.pem", TLS / "key.pem")
        listener = await asyncio.start_server(server.handle, "127.0.0.1", 0, ssl=context)
        port = listener.sockets[0].getsockname()[1]
        client = AsyncOpenAI(
            api_key="sk-test",
            base_url=f"{'https' if tls else 'http'}://127.0.0.1:{port}/v1",
            max_retries=0,
            http_client=bounded_http_client(timeout, limit=limit),
        )
        answers = []
        try:
            for _ in range(count):
                answer = await client.post(
                    "/chat/completions", cast_to=httpx2.Response, body=body or {"model": "m"}
                )
                answers.append(answer.content)
                await asyncio.sleep(pause)
        finally:
            await client.close()
            listener.close()
        return answers

    return asyncio.run(go())


def test_requests_one_after_another_share_one_kept_alive_connection() -> None:
    server = RawServer()
    assert post_all(server, 3) == [ANSWER] * 3
    assert server.connections == 1


def test_a_connection_the_server_closed_while_idle_is_not_used_again() -> None:
    # Each connection answers once, then the server closes it (keep-alive timed out, say):
    # with no retries, sending the second request on the first connection would fail.
    server = RawServer((reply(), "close"), reply())
    assert post_all(server, 2, pause=0.1) == [ANSWER] * 2
    assert server.connections == 2


def test_an_answer_that_closes_its_connection_is_read_and_the_next_request_reconnects() -> None:
    server = RawServer(reply(extra=b"Connection: close\r\n"), reply())
    assert post_all(server, 2) == [ANSWER] * 2
    assert server.connections == 2


def test_a_chunked_answer_is_read_whole() -> None:
    chunks = (
        b"4\r\n" + ANSWER[:4] + b"\r\n%x\r\n" % (len(ANSWER) - 4) + ANSWER[4:] + b"\r\n0\r\n\r\n"
    )
    server = RawServer(reply(chunks, extra=b"Transfer-Encoding: chunked\r\n", length=False))
    assert post_all(server, 2) == [ANSWER] * 2
    assert server.connections == 1


def test_an_answer_announced_larger_than_the_cap_is_refused_unread() -> None:
    server = RawServer(reply(b"x" * 2000))
    with pytest.raises(ResponseTooLarge, match="larger than 1000 bytes"):
        post_all(server, 1)


def test_an_answer_larger_than_the_cap_without_a_length_is_cut_off() -> None:
    body = b"x" * 2000
    chunked = b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
    server = RawServer(reply(chunked, extra=b"Transfer-Encoding: chunked\r\n", length=False))
    with pytest.raises(ResponseTooLarge):
        post_all(server, 1)


def test_bytes_that_are_not_http_are_a_connection_error_the_sdk_may_retry() -> None:
    server = RawServer(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")
    with pytest.raises(openai.APIConnectionError) as caught:
        post_all(server, 1)
    assert isinstance(caught.value.__cause__, httpx2.RemoteProtocolError)


def test_a_server_that_accepts_but_never_answers_times_out() -> None:
    async def silent(reader, writer):
        await asyncio.sleep(5)
        writer.close()

    server = RawServer()
    server.handle = silent
    with pytest.raises(openai.APITimeoutError):
        post_all(server, 1, timeout=0.3)


def test_https_to_a_trusted_certificate_is_answered_over_one_kept_alive_connection(
    monkeypatch,
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(TLS / "cert.pem"))
    server = RawServer()
    assert post_all(server, 3, tls=True) == [ANSWER] * 3
    assert server.connections == 1


def test_https_to_an_untrusted_certificate_is_refused(monkeypatch) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    server = RawServer()
    with pytest.raises(openai.APIConnectionError) as caught:
        post_all(server, 1, tls=True)
    assert "CERTIFICATE_VERIFY_FAILED" in str(caught.value.__cause__)
    assert server.requests == 0


def test_a_request_and_an_answer_larger_than_the_socket_buffers_go_through_whole() -> None:
    # Megabytes each way: sending waits on a full send buffer and reading pauses and resumes.
    big = json.dumps({"ok": "y" * 3_000_000}).encode()
    server = RawServer(reply(big), reply(big))
    body = {"model": "m", "messages": [{"role": "user", "content": "x" * 5_000_000}]}
    assert post_all(server, 2, limit=4_000_000, body=body) == [big] * 2
    assert server.connections == 1
