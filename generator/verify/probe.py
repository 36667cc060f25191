"""The link probe: one polite HEAD/GET check of a URL, pinned to public addresses."""

from __future__ import annotations

import asyncio
import codecs
import errno
import hashlib
import ipaddress
import re
import socket
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urlsplit

import httpcore2
import httpx2

from generator import __version__
from generator.core.proxies import proxy_for
from generator.verify.ledger import Outcome

USER_AGENT = f"prepguide/{__version__} (+link checker)"


MAX_REDIRECTS = 5


MAX_BODY_BYTES = 2 * 1024 * 1024


HOST_INTERVAL = 1.0


GONE = frozenset({404, 410})


INCONCLUSIVE = frozenset({401, 403, 429, 503})


_TEXT_TYPES = ("text/", "application/xhtml", "application/xml", "application/json")


# Cloud metadata services; most are link-local already, listed so the rule reads plainly.
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "100.100.100.200", "fd00:ec2::254")
)


OFFLINE_ERRORS = frozenset({errno.ECONNREFUSED, errno.ENETUNREACH, errno.EHOSTUNREACH})


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


Resolver = Callable[[str, int], Awaitable[list[str]]]


@dataclass(frozen=True)
class Probe:
    """What one check of a URL observed."""

    outcome: Outcome
    method: str
    http_status: int | None = None
    final_url: str | None = None
    fingerprint: str | None = None
    error: str | None = None
    offline_sign: bool = False  # no DNS answer, refused or unreachable: maybe no network


class _TextExtractor(HTMLParser):
    """Collect the visible text of an HTML page."""

    _SKIP = frozenset({"script", "style", "noscript", "template", "svg"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in self._SKIP:
            self._skipping += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def page_text(body: bytes, content_type: str, encoding: str | None) -> str | None:
    """Return the readable text of a body, or None when it is not text."""
    kind = content_type.split(";")[0].strip().lower()
    if kind and not kind.startswith(_TEXT_TYPES):
        return None
    text = body.decode(encoding or "utf-8", errors="replace")
    if kind in ("text/html", "application/xhtml+xml") or (not kind and "<html" in text[:1000]):
        parser = _TextExtractor()
        parser.feed(text)
        parser.close()
        text = " ".join(parser.parts)
    return re.sub(r"\s+", " ", text).strip()


def fingerprint(body: bytes, content_type: str, encoding: str | None) -> str:
    """Hash a page's text (markup and whitespace ignored), or its bytes when not text."""
    text = page_text(body, content_type, encoding)
    data = body if text is None else text.encode("utf-8")
    return "sha256:" + hashlib.sha256(data).hexdigest()


def is_root_redirect(original: str, final: str) -> bool:
    """Return True when a URL that named a page ended on a site's front page."""
    if original == final:
        return False
    start, end = urlsplit(original), urlsplit(final)
    return (
        (start.path.strip("/") != "" or bool(start.query))
        and end.path.strip("/") == ""
        and not end.query
    )


class HostGate:
    """One request at a time per host, starts at least `interval` seconds apart."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._lock = asyncio.Lock()
        self._next_start = 0.0

    async def __aenter__(self) -> None:
        await self._lock.acquire()
        try:
            delay = self._next_start - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
        except BaseException:
            self._lock.release()
            raise
        self._next_start = time.monotonic() + self.interval

    async def __aexit__(self, *exc_info) -> None:
        # Counted from the end too: a slow connect must not bring the next request closer.
        self._next_start = max(self._next_start, time.monotonic() + self.interval)
        self._lock.release()


def host_key(url: str | httpx2.URL) -> str:
    """Return the host (and explicit port) a request goes to."""
    parts = urlsplit(str(url))
    host = (parts.hostname or "").lower()
    return f"{host}:{parts.port}" if parts.port else host


def is_internal(address: IPAddress) -> bool:
    """Return True for loopback, private, link-local, shared, reserved and metadata addresses."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address in METADATA_ADDRESSES or not address.is_global


async def system_resolve(host: str, port: int) -> list[str]:
    """Look a host name up with the system resolver; raise socket.gaierror when it fails."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in infos))


class LookupFailed(httpx2.ConnectError):
    """A host name did not resolve."""


class InternalRedirect(Exception):
    """A public page redirected to an internal address."""


class _PinnedBackend(httpcore2.AsyncNetworkBackend):
    """Connect to the addresses the checker resolved and vetted, never resolving again."""

    def __init__(self, checker: LinkChecker) -> None:
        self.checker = checker
        self.inner = httpcore2.AnyIOBackend()

    async def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        addresses = await self.checker.addresses(host, port)
        error: Exception | None = None
        for address in addresses:
            try:
                stream = await self.inner.connect_tcp(
                    str(address), port, timeout, local_address, socket_options
                )
            except (httpcore2.ConnectError, httpcore2.ConnectTimeout) as exc:
                error = exc
                continue
            self.checker.reached = True
            return stream
        raise error or httpcore2.ConnectError(f"{host} has no address")

    async def connect_unix_socket(self, path, timeout=None, socket_options=None):
        raise httpcore2.ConnectError("unix sockets are not link targets")

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@dataclass
class _Fetched:
    status: int
    final_url: str
    body: bytes | None = None
    content_type: str = ""
    encoding: str | None = None


class LinkChecker:
    """Probe URLs with HEAD (GET when refused), politely, and classify the result.

    Host names are resolved once per run and connections go to those addresses. A redirect
    from a public host to an internal address (loopback, private, link-local, metadata) is
    not followed unless `allow_internal` is set; `public_hosts` names hosts to treat as
    public whatever their address (tests run their "internet" on 127.0.0.1).
    """

    def __init__(
        self,
        client: httpx2.AsyncClient,
        *,
        timeout: float,
        host_interval: float = HOST_INTERVAL,
        resolver: Resolver = system_resolve,
        allow_internal: bool = False,
        public_hosts: Iterable[str] = (),
        proxied: dict[str, httpx2.AsyncClient] | None = None,
    ) -> None:
        self.client = client
        self.proxied = proxied or {}
        self.timeout = timeout
        self.host_interval = host_interval
        self.resolver = resolver
        self.allow_internal = allow_internal
        self.public_hosts = frozenset(host.lower() for host in public_hosts)
        self.reached = False  # a name resolved or a server answered: the network is up
        self._gates: dict[str, HostGate] = {}
        self._addresses: dict[str, list[IPAddress] | socket.gaierror] = {}

    def gate(self, url: str | httpx2.URL) -> HostGate:
        key = host_key(url)
        if key not in self._gates:
            self._gates[key] = HostGate(self.host_interval)
        return self._gates[key]

    async def addresses(self, host: str, port: int = 443) -> list[IPAddress]:
        """Return a host's addresses, looked up once per run; raise LookupFailed."""
        host = host.strip("[]").lower()
        try:
            return [ipaddress.ip_address(host)]
        except ValueError:
            pass
        if host not in self._addresses:
            try:
                found = [
                    ipaddress.ip_address(a.split("%")[0]) for a in await self.resolver(host, port)
                ]
                self.reached = True
                self._addresses[host] = found
            except socket.gaierror as exc:
                self._addresses[host] = exc
        found = self._addresses[host]
        if isinstance(found, socket.gaierror):
            raise LookupFailed(f"DNS lookup of {host} failed: {found.strerror or found}")
        return found

    def client_for(self, url: httpx2.URL) -> httpx2.AsyncClient:
        """Return the proxy's client for a URL that goes through one, else the direct one."""
        return proxy_for(self.proxied, url.scheme, url.host) or self.client

    async def _is_public(self, url: httpx2.URL) -> bool:
        if url.host.lower() in self.public_hosts:
            return True
        try:
            addresses = await self.addresses(url.host, url.port or 443)
        except LookupFailed:
            # Behind a proxy only the proxy may resolve public names: a name we cannot look
            # up is public, unless it names this machine.
            local = url.host.lower() == "localhost" or url.host.lower().endswith(".localhost")
            if local or self.client_for(url) is self.client:
                raise
            return True
        return not any(is_internal(address) for address in addresses)

    async def _fetch(self, method: str, url: str, *, read_body: bool) -> _Fetched:
        request = self.client.build_request(method, url)
        deadline = asyncio.get_running_loop().time() + self.timeout
        from_public = False
        for hop in range(MAX_REDIRECTS + 1):
            waited = time.monotonic()
            async with self.gate(request.url):
                # Waiting for the host's turn is politeness, not the server's slowness.
                deadline += time.monotonic() - waited
                async with asyncio.timeout_at(deadline):
                    public = await self._is_public(request.url)
                    if hop == 0:
                        from_public = public
                    elif from_public and not public and not self.allow_internal:
                        raise InternalRedirect(str(request.url))
                    response = await self.client_for(request.url).send(request, stream=True)
                    self.reached = True
                    try:
                        if response.has_redirect_location and response.next_request is not None:
                            request = response.next_request
                            continue
                        encoding = _known_charset(response.charset_encoding)
                        body = await _read_limited(response) if read_body else None
                        return _Fetched(
                            status=response.status_code,
                            final_url=str(response.url),
                            body=body,
                            content_type=response.headers.get("content-type", ""),
                            encoding=encoding,
                        )
                    finally:
                        await response.aclose()
        raise httpx2.TooManyRedirects(f"more than {MAX_REDIRECTS} redirects", request=request)

    async def probe(self, url: str) -> Probe:
        """Check one URL and return what was observed; hostile answers fail only that URL."""
        method = "HEAD"
        try:
            head = await self._fetch("HEAD", url, read_body=False)
            if is_root_redirect(url, head.final_url):
                return self._classify(url, head, "HEAD")
            if head.status in GONE:
                return self._classify(url, head, "HEAD")
            # A live HEAD still needs a GET for the text; any other HEAD answer may be
            # a server that refuses HEAD (405, 501, ...), so GET decides.
            method = "GET"
            start = head.final_url if 200 <= head.status < 300 else url
            got = await self._fetch("GET", start, read_body=True)
            return self._classify(url, got, "GET")
        except (TimeoutError, httpx2.TimeoutException):
            return Probe("failure", method, error=f"timed out after {self.timeout:g}s")
        except httpx2.TooManyRedirects:
            return Probe("failure", method, error=f"more than {MAX_REDIRECTS} redirects")
        except InternalRedirect as exc:
            return Probe(
                "not-live",
                method,
                final_url=str(exc),
                error="redirected from a public site to an internal address; not followed",
            )
        except LookupFailed as exc:
            return Probe("failure", method, error=str(exc), offline_sign=True)
        except httpx2.ConnectError as exc:
            return Probe("failure", method, error=describe(exc), offline_sign=_offline(exc))
        except (httpx2.HTTPError, httpx2.InvalidURL) as exc:
            return Probe("failure", method, error=describe(exc))
        except (LookupError, ValueError) as exc:  # e.g. an unknown charset, a malformed header
            return Probe("failure", method, error=describe(exc))

    def _classify(self, url: str, fetched: _Fetched, method: str) -> Probe:
        status = fetched.status
        common = {"method": method, "http_status": status, "final_url": fetched.final_url}
        if 200 <= status < 300:
            if is_root_redirect(url, fetched.final_url):
                return Probe("not-live", error="redirected to the site's front page", **common)
            if fetched.body is None:
                return Probe("live", **common)
            digest = fingerprint(fetched.body, fetched.content_type, fetched.encoding)
            return Probe("live", fingerprint=digest, **common)
        if status in INCONCLUSIVE:
            return Probe("inconclusive", error=f"HTTP {status}", **common)
        return Probe("failure", error=f"HTTP {status}", **common)


def _offline(exc: BaseException | None) -> bool:
    """Return True when a connect error comes from a refused or unreachable network."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, OSError) and exc.errno in OFFLINE_ERRORS:
            return True
        if "All connection attempts failed" in str(exc) or "Connection refused" in str(exc):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}".rstrip(": ")


def _known_charset(charset: str | None) -> str | None:
    """Return a declared charset Python knows; raise LookupError naming an unknown one."""
    if charset is None:
        return None
    try:
        codecs.lookup(charset)
    except LookupError:
        raise LookupError(f"the page declares an unknown charset {charset[:40]!r}") from None
    return charset


async def _read_limited(response: httpx2.Response) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size >= MAX_BODY_BYTES:
            break
    return b"".join(chunks)[:MAX_BODY_BYTES]


def make_client(timeout: float, proxy: str | None = None) -> httpx2.AsyncClient:
    """Return an HTTP client for link checks, direct or through one proxy; redirects by hand.

    Environment settings other than the proxy (netrc credentials, certificate paths) are not
    read: a link check sends no credentials.
    """
    return httpx2.AsyncClient(
        timeout=httpx2.Timeout(timeout),
        headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"},
        follow_redirects=False,
        trust_env=False,
        proxy=proxy,
    )


def pin_resolver(client: httpx2.AsyncClient, checker: LinkChecker) -> None:
    """Route the client's connections through the checker's vetted addresses."""
    client._transport._pool._network_backend = _PinnedBackend(checker)
