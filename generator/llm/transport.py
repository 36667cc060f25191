"""The HTTP transport under the openai SDK: HTTP/1.1 on asyncio, one deadline, a size cap.

The SDK sends through httpx2's client (its retries, headers and timeouts) to this transport,
which speaks HTTP/1.1 with h11 over asyncio connections kept alive per host. It costs about
half the CPU per request of httpx2's default stack (httpcore2 on anyio), which counts when
one event loop keeps dozens of requests in flight. Each request is bounded as a whole by one
deadline (connect, send, headers and body) and its answer by a size cap. Uploads and
downloads of batch files stream and may take long: they go through httpx2's own transport.
A request that a proxy from the environment applies to (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY,
save NO_PROXY hosts) goes through httpx2's proxy transport, under the same deadline and cap.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator

import h11
import httpx2
from openai import DEFAULT_CONNECTION_LIMITS, APIError, APITimeoutError, DefaultAsyncHttpxClient

from generator.core.proxies import environment_proxies, proxy_for

# A draft is a few kilobytes; an error page, a few more. Anything past this is not an answer.
MAX_RESPONSE_BYTES = 4 * 1024 * 1024
# Reading from a connection pauses while this many received bytes wait to be parsed.
READ_AHEAD = 256 * 1024


class ResponseTooLarge(APIError):
    """The server sent more than the response cap; the SDK passes this on without retrying."""

    def __init__(self, request: httpx2.Request, limit: int) -> None:
        super().__init__(f"the response is larger than {limit} bytes", request, body=None)


def _is_file_transfer(request: httpx2.Request) -> bool:
    """Uploads and downloads of batch files stream to disk and may take long; they are exempt."""
    return "/files" in request.url.path


class _Expired(Exception):
    """A wait for the server reached its time limit."""


class _Connection(asyncio.Protocol):
    """One HTTP/1.1 connection: h11's state machine fed by an asyncio transport."""

    def __init__(self) -> None:
        self.h11 = h11.Connection(h11.CLIENT)
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.idle_since = 0.0
        self._unparsed = 0
        self._paused = False
        self._waiter: asyncio.Future | None = None
        self._writable: asyncio.Future | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.h11.receive_data(data)
        self._unparsed += len(data)
        if self._unparsed > READ_AHEAD and not self._paused:
            self._paused = True
            self.transport.pause_reading()  # type: ignore[union-attr]
        self._wake()

    def eof_received(self) -> bool:
        self.closed = True
        self.h11.receive_data(b"")
        self._wake()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._wake()
        if self._writable is not None and not self._writable.done():
            self._writable.set_result(True)

    def pause_writing(self) -> None:
        self._writable = asyncio.get_running_loop().create_future()

    def resume_writing(self) -> None:
        if self._writable is not None and not self._writable.done():
            self._writable.set_result(True)
        self._writable = None

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(True)

    @property
    def reusable(self) -> bool:
        """Return True for a kept-alive connection with nothing received since its last answer."""
        states = (self.h11.our_state, self.h11.their_state)
        unread, _ = self.h11.trailing_data
        return not self.closed and not unread and states == (h11.IDLE, h11.IDLE)

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    async def _wait(self, future: asyncio.Future, until: float) -> None:
        """Wait for a future that resolves True; the timer resolves it False at `until`."""
        loop = asyncio.get_running_loop()
        timer = loop.call_at(until, _expire, future)
        try:
            if not await future:
                raise _Expired
        finally:
            timer.cancel()

    async def send(self, data: bytes, until: float) -> None:
        """Write bytes, waiting while the connection's send buffer is full."""
        if self.closed:
            raise httpx2.WriteError("the server closed the connection")
        self.transport.write(data)  # type: ignore[union-attr]
        while self._writable is not None and not self.closed:
            await self._wait(self._writable, until)
        if self.closed:
            raise httpx2.WriteError("the server closed the connection")

    async def next_event(self, until: float) -> h11.Event:
        """Return the next HTTP event from the server, waiting for data until `until`."""
        while True:
            event = self.h11.next_event()
            if event is not h11.NEED_DATA:
                return event
            self._unparsed = 0
            if self._paused:
                self._paused = False
                self.transport.resume_reading()  # type: ignore[union-attr]
            if self.closed:
                raise httpx2.ReadError("the server closed the connection")
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._wait(self._waiter, until)
            finally:
                self._waiter = None


def _expire(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(False)


class _Body(httpx2.AsyncByteStream):
    """A response body read from its connection, which goes back to the pool once read."""

    def __init__(
        self,
        pool: Http11Transport,
        key: tuple,
        conn: _Connection,
        request: httpx2.Request,
        deadline: float,
        read_timeout: float | None,
    ) -> None:
        self._pool = pool
        self._key = key
        self._conn = conn
        self._request = request
        self._deadline = deadline
        self._read_timeout = read_timeout
        self._done = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        received = 0
        conn, loop = self._conn, asyncio.get_running_loop()
        while True:
            until = self._deadline
            if self._read_timeout is not None:
                until = min(until, loop.time() + self._read_timeout)
            try:
                event = await conn.next_event(until)
            except _Expired:
                conn.close()
                if until < self._deadline:
                    raise httpx2.ReadTimeout("no data within the read timeout") from None
                # The server answers, only too slowly: asking again would drip again. An
                # OpenAIError is passed on by the SDK as it is, without a retry.
                raise APITimeoutError(self._request) from None
            except BaseException as exc:
                conn.close()
                _reraise(exc)
            if isinstance(event, h11.Data):
                received += len(event.data)
                if received > self._pool.limit:
                    conn.close()
                    raise ResponseTooLarge(self._request, self._pool.limit)
                yield bytes(event.data)
            elif isinstance(event, h11.EndOfMessage):
                self._done = True
                self._pool.release(self._key, conn)
                return
            else:
                conn.close()
                raise httpx2.RemoteProtocolError(f"unexpected {type(event).__name__} in a body")

    async def aclose(self) -> None:
        if not self._done:
            self._done = True
            self._conn.close()


def _reraise(exc: BaseException) -> None:
    """Raise h11's protocol errors as httpx2's, which the SDK retries; others as they are."""
    if isinstance(exc, h11.RemoteProtocolError):
        raise httpx2.RemoteProtocolError(str(exc)) from exc
    if isinstance(exc, h11.LocalProtocolError):
        raise httpx2.LocalProtocolError(str(exc)) from exc
    raise exc


class _ProxiedBody(httpx2.AsyncByteStream):
    """A response body from httpx2's proxy transport, read under the deadline and the cap."""

    def __init__(
        self, inner: httpx2.AsyncByteStream, request: httpx2.Request, deadline: float, limit: int
    ) -> None:
        self._inner = inner
        self._request = request
        self._deadline = deadline
        self._limit = limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        received = 0
        parts = self._inner.__aiter__()
        while True:
            try:
                async with asyncio.timeout_at(self._deadline):
                    part = await parts.__anext__()
            except StopAsyncIteration:
                return
            except TimeoutError:
                # As in _Body: a dripping answer is not asked for again.
                raise APITimeoutError(self._request) from None
            received += len(part)
            if received > self._limit:
                raise ResponseTooLarge(self._request, self._limit)
            yield part

    async def aclose(self) -> None:
        await self._inner.aclose()


class Http11Transport(httpx2.AsyncBaseTransport):
    """Send each request over a kept-alive HTTP/1.1 connection, bounded by one timeout.

    proxies maps a scheme to a proxy URL (None: read from the environment, as httpx2 does).
    """

    def __init__(
        self, timeout: float, limit: int = MAX_RESPONSE_BYTES, proxies: dict[str, str] | None = None
    ) -> None:
        self.timeout = timeout
        self.limit = limit
        self.proxies = environment_proxies() if proxies is None else proxies
        self._idle: dict[tuple, list[_Connection]] = {}
        self._ssl: ssl.SSLContext | None = None
        self._via: dict[tuple, str | None] = {}
        self._httpx: dict[str | None, httpx2.AsyncBaseTransport] = {}

    def _proxy(self, key: tuple, url: httpx2.URL) -> str | None:
        """Return the proxy a request to the key's host goes through, or None."""
        if not self.proxies:
            return None
        if key not in self._via:
            self._via[key] = proxy_for(self.proxies, url.scheme, url.host)
        return self._via[key]

    def _httpx_transport(self, proxy: str | None) -> httpx2.AsyncBaseTransport:
        """Return httpx2's own transport, direct or through one proxy, made on first use."""
        if proxy not in self._httpx:
            self._httpx[proxy] = httpx2.AsyncHTTPTransport(
                limits=DEFAULT_CONNECTION_LIMITS, proxy=proxy
            )
        return self._httpx[proxy]

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        try:
            body = None if _is_file_transfer(request) else request.content
        except httpx2.RequestNotRead:  # a streamed upload
            body = None
        url = request.url
        key = (url.raw_scheme, url.raw_host, url.port)
        proxy = self._proxy(key, url)
        if body is None:
            return await self._httpx_transport(proxy).handle_async_request(request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        if proxy is not None:
            return await self._through_proxy(proxy, request, deadline)
        timeouts = request.extensions.get("timeout") or {}
        conn = await self._connect(key, request, deadline, timeouts.get("connect"))
        try:
            head = await self._exchange(conn, request, body, deadline, timeouts.get("read"))
        except _Expired:
            conn.close()
            raise httpx2.ReadTimeout("no response within the timeout", request=request) from None
        except BaseException as exc:
            conn.close()
            _reraise(exc)
        length = next((value for name, value in head.headers if name == b"content-length"), b"")
        if length.isdigit() and int(length) > self.limit:
            conn.close()
            raise ResponseTooLarge(request, self.limit)
        return httpx2.Response(
            status_code=head.status_code,
            headers=head.headers.raw_items(),
            stream=_Body(self, key, conn, request, deadline, timeouts.get("read")),
            extensions={"http_version": b"HTTP/1.1", "reason_phrase": bytes(head.reason)},
        )

    async def _through_proxy(
        self, proxy: str, request: httpx2.Request, deadline: float
    ) -> httpx2.Response:
        """Send through httpx2's proxy transport, which does CONNECT and TLS, bounded alike."""
        try:
            async with asyncio.timeout_at(deadline):
                response = await self._httpx_transport(proxy).handle_async_request(request)
        except TimeoutError:
            raise httpx2.ReadTimeout("no response within the timeout", request=request) from None
        length = response.headers.get("content-length", "")
        if length.isdigit() and int(length) > self.limit:
            await response.aclose()
            raise ResponseTooLarge(request, self.limit)
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_ProxiedBody(response.stream, request, deadline, self.limit),
            extensions=response.extensions,
        )

    async def _exchange(
        self,
        conn: _Connection,
        request: httpx2.Request,
        body: bytes,
        deadline: float,
        read_timeout: float | None,
    ) -> h11.Response:
        head = h11.Request(
            method=request.method, target=request.url.raw_path, headers=request.headers.raw
        )
        data = conn.h11.send(head) or b""
        if body:
            data += conn.h11.send(h11.Data(data=body)) or b""
        data += conn.h11.send(h11.EndOfMessage()) or b""
        await conn.send(data, deadline)
        loop = asyncio.get_running_loop()
        while True:
            until = deadline
            if read_timeout is not None:
                until = min(until, loop.time() + read_timeout)
            event = await conn.next_event(until)
            if isinstance(event, h11.Response):
                return event
            if isinstance(event, h11.ConnectionClosed):
                raise httpx2.RemoteProtocolError("the server closed the connection unanswered")

    async def _connect(
        self, key: tuple, request: httpx2.Request, deadline: float, timeout: float | None
    ) -> _Connection:
        """Return a kept-alive connection to the request's host, or open one."""
        loop = asyncio.get_running_loop()
        idle = self._idle.get(key)
        while idle:
            conn = idle.pop()
            if conn.reusable and loop.time() - conn.idle_since < _KEEPALIVE:
                return conn
            conn.close()
        url = request.url
        if url.scheme not in ("http", "https"):
            raise httpx2.UnsupportedProtocol(f"unsupported URL scheme {url.scheme!r}")
        secure = url.scheme == "https"
        port = url.port or (443 if secure else 80)
        until = deadline if timeout is None else min(deadline, loop.time() + timeout)
        try:
            async with asyncio.timeout_at(until):
                _, conn = await loop.create_connection(
                    _Connection,
                    url.host,
                    port,
                    ssl=self._ssl_context() if secure else None,
                    server_hostname=url.host if secure else None,
                )
        except TimeoutError:
            raise httpx2.ConnectTimeout(f"cannot connect to {url.host}:{port} in time") from None
        except OSError as exc:
            raise httpx2.ConnectError(str(exc)) from exc
        return conn

    def _ssl_context(self) -> ssl.SSLContext:
        if self._ssl is None:
            self._ssl = httpx2.create_ssl_context()
        return self._ssl

    def release(self, key: tuple, conn: _Connection) -> None:
        """Keep a connection whose answer was read whole for the next request, if it may stay."""
        states = (conn.h11.our_state, conn.h11.their_state)
        idle = self._idle.setdefault(key, [])
        if states != (h11.DONE, h11.DONE) or conn.closed or len(idle) >= _MAX_IDLE:
            conn.close()
            return
        conn.h11.start_next_cycle()
        conn.idle_since = asyncio.get_running_loop().time()
        idle.append(conn)

    async def aclose(self) -> None:
        for idle in self._idle.values():
            for conn in idle:
                conn.close()
        self._idle.clear()
        for transport in self._httpx.values():
            await transport.aclose()
        self._httpx.clear()


_KEEPALIVE = DEFAULT_CONNECTION_LIMITS.keepalive_expiry or 5.0
_MAX_IDLE = DEFAULT_CONNECTION_LIMITS.max_keepalive_connections or 100


def bounded_http_client(timeout: float, limit: int = MAX_RESPONSE_BYTES) -> httpx2.AsyncClient:
    """Return the SDK's default async HTTP client on this transport, with its deadline and cap.

    The transport reads the proxy settings once, here, as httpx2 would for its own client.
    """
    return DefaultAsyncHttpxClient(transport=Http11Transport(timeout, limit), timeout=timeout)
