"""The HTTP client under the openai SDK: one deadline for a whole request, and a size cap."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import anyio
import httpx2
from openai import DEFAULT_CONNECTION_LIMITS, APIError, APITimeoutError, DefaultAsyncHttpxClient

# A draft is a few kilobytes; an error page, a few more. Anything past this is not an answer.
MAX_RESPONSE_BYTES = 4 * 1024 * 1024


class ResponseTooLarge(APIError):
    """The server sent more than the response cap; the SDK passes this on without retrying."""

    def __init__(self, request: httpx2.Request, limit: int) -> None:
        super().__init__(f"the response is larger than {limit} bytes", request, body=None)


def _is_file_transfer(request: httpx2.Request) -> bool:
    """Uploads and downloads of batch files stream to disk and may take long; they are exempt."""
    return "/files" in request.url.path


class _BoundedStream(httpx2.AsyncByteStream):
    def __init__(self, inner, request: httpx2.Request, deadline: float, limit: int) -> None:
        self._inner = inner
        self._request = request
        self._deadline = deadline
        self._limit = limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        received = 0
        parts = self._inner.__aiter__()
        while True:
            try:
                with anyio.fail_after(max(0.0, self._deadline - time.monotonic())):
                    part = await parts.__anext__()
            except StopAsyncIteration:
                return
            except TimeoutError:
                # The server answers, only too slowly: asking again would drip again. An
                # OpenAIError is passed on by the SDK as it is, without a retry.
                raise APITimeoutError(self._request) from None
            received += len(part)
            if received > self._limit:
                raise ResponseTooLarge(self._request, self._limit)
            yield part

    async def aclose(self) -> None:
        await self._inner.aclose()


class BoundedTransport(httpx2.AsyncBaseTransport):
    """Bound each request as a whole (connect, send, headers and body) by one timeout."""

    def __init__(
        self, inner: httpx2.AsyncBaseTransport, timeout: float, limit: int = MAX_RESPONSE_BYTES
    ) -> None:
        self._inner = inner
        self._timeout = timeout
        self._limit = limit

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if _is_file_transfer(request):
            return await self._inner.handle_async_request(request)
        deadline = time.monotonic() + self._timeout
        try:
            with anyio.fail_after(self._timeout):
                response = await self._inner.handle_async_request(request)
        except TimeoutError:
            raise httpx2.ReadTimeout("no response within the timeout", request=request) from None
        length = response.headers.get("content-length", "")
        if length.isdigit() and int(length) > self._limit:
            await response.aclose()
            raise ResponseTooLarge(request, self._limit)
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_BoundedStream(response.stream, request, deadline, self._limit),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


def bounded_http_client(timeout: float, limit: int = MAX_RESPONSE_BYTES) -> httpx2.AsyncClient:
    """Return the SDK's default async HTTP client with a whole-request deadline and a size cap."""
    transport = BoundedTransport(
        httpx2.AsyncHTTPTransport(limits=DEFAULT_CONNECTION_LIMITS), timeout, limit
    )
    return DefaultAsyncHttpxClient(transport=transport, timeout=timeout)
