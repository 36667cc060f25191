"""Link checks that earn the Checked date: polite HEAD/GET probes recorded in the ledger."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import errno
import hashlib
import ipaddress
import re
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from html.parser import HTMLParser
from urllib.parse import urlsplit

import httpcore2
import httpx2

from generator import __version__
from generator.core.clock import now as clock_now
from generator.core.errors import PrepguideError
from generator.core.proxies import environment_proxies, proxy_for
from generator.sources.citations import resolve_originals
from generator.sources.records import Source
from generator.verify.ledger import Ledger, LedgerRow, Outcome

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


class VerifyError(PrepguideError):
    """A verification cannot be recorded as asked."""


@dataclass(frozen=True)
class Target:
    """One URL to check and the records that cite it."""

    url: str
    ids: tuple[str, ...]


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


@dataclass(frozen=True)
class VerifyRow:
    """One line of the report: a URL of a record and its status now."""

    id: str
    url: str
    status: str | None
    http_status: int | None
    checked: date | None
    final_url: str | None
    error: str | None = None

    @property
    def live(self) -> bool:
        return self.status == "live"

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "url": self.url,
            "status": self.status,
            "http_status": self.http_status,
            "checked": self.checked.isoformat() if self.checked else None,
            "final_url": self.final_url,
        }


def collect_targets(sources: Iterable[Source]) -> list[Target]:
    """Return every distinct source and citation URL, with the ids citing it, in order."""
    cited: dict[str, list[str]] = {}
    for source in sources:
        for original in source.originals():
            if original.url:
                ids = cited.setdefault(original.url, [])
                if source.key not in ids:
                    ids.append(source.key)
    return [Target(url=url, ids=tuple(ids)) for url, ids in cited.items()]


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
            return Probe("failure", method, error=_describe(exc), offline_sign=_offline(exc))
        except (httpx2.HTTPError, httpx2.InvalidURL) as exc:
            return Probe("failure", method, error=_describe(exc))
        except (LookupError, ValueError) as exc:  # e.g. an unknown charset, a malformed header
            return Probe("failure", method, error=_describe(exc))

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


def _describe(exc: Exception) -> str:
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


def _pin(client: httpx2.AsyncClient, checker: LinkChecker) -> None:
    """Route the client's connections through the checker's vetted addresses."""
    client._transport._pool._network_backend = _PinnedBackend(checker)


def probe_row(target: Target, probe: Probe, at: datetime) -> LedgerRow:
    """Return the ledger row of one probe."""
    return LedgerRow(
        at=at,
        url=target.url,
        ids=list(target.ids),
        outcome=probe.outcome,
        method=probe.method,
        http_status=probe.http_status,
        final_url=probe.final_url,
        fingerprint=probe.fingerprint,
        error=probe.error,
    )


class CheckedRows(list):
    """The rows of one run; `offline` is True when the run looked offline."""

    offline: bool = False


async def check_links(
    targets: Sequence[Target],
    ledger: Ledger,
    *,
    timeout: float,
    concurrency: int,
    host_interval: float = HOST_INTERVAL,
    now: Callable[[], datetime] = clock_now,
    on_result: Callable[[LedgerRow], None] | None = None,
    resolver: Resolver = system_resolve,
    allow_internal: bool = False,
    public_hosts: Iterable[str] = (),
    proxies: dict[str, str] | None = None,
) -> CheckedRows:
    """Check targets, hosts concurrently and each host politely; append each result at once.

    A failure that may only mean "no network" (no DNS answer, refused, unreachable) waits
    until some host resolves or answers; if none ever does, the run looks offline and those
    links are recorded as inconclusive, which never counts toward dead. proxies maps a
    scheme to a proxy URL (None: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY).
    """
    by_host: dict[str, list[Target]] = {}
    for target in targets:
        by_host.setdefault(host_key(target.url), []).append(target)
    limit = asyncio.Semaphore(concurrency)
    rows = CheckedRows()
    held: list[tuple[Target, Probe, datetime]] = []

    def record(target: Target, probe: Probe, at: datetime) -> None:
        row = probe_row(target, probe, at)
        ledger.append([row])
        rows.append(row)
        if on_result:
            on_result(row)

    proxies = environment_proxies() if proxies is None else proxies
    async with contextlib.AsyncExitStack() as clients:
        client = await clients.enter_async_context(make_client(timeout))
        via = {
            url: await clients.enter_async_context(make_client(timeout, url))
            for url in set(proxies.values())
        }
        checker = LinkChecker(
            client,
            timeout=timeout,
            host_interval=host_interval,
            resolver=resolver,
            allow_internal=allow_internal,
            public_hosts=public_hosts,
            proxied={scheme: via[url] for scheme, url in proxies.items()},
        )
        _pin(client, checker)

        async def run_host(host_targets: list[Target]) -> None:
            async with limit:
                for target in host_targets:
                    try:
                        probe = await checker.probe(target.url)
                    except Exception as exc:  # a hostile answer fails its link, not the run
                        probe = Probe("failure", "GET", error=_describe(exc))
                    if probe.offline_sign and not checker.reached:
                        held.append((target, probe, now()))
                        continue
                    record(target, probe, now())
                    if checker.reached and held:
                        for waiting in list(held):
                            held.remove(waiting)
                            record(*waiting)

        await asyncio.gather(*(run_host(group) for group in by_host.values()))
    rows.offline = bool(held) and not checker.reached
    for target, probe, at in held:
        if rows.offline:
            error = f"{probe.error} (no host resolved or answered in this run)"
            probe = Probe("inconclusive", probe.method, error=error)
        record(target, probe, at)
    return rows


def due_targets(targets: Sequence[Target], ledger: Ledger, today: date) -> list[Target]:
    """Return targets not yet settled today, so an interrupted run resumes where it stopped."""
    due = []
    for target in targets:
        done = any(
            row.day == today and row.outcome != "inconclusive"
            for row in ledger.rows_for(target.url)
        )
        if not done:
            due.append(target)
    return due


def record_manual(
    ledger: Ledger,
    source: Source,
    by: str,
    *,
    url: str | None = None,
    now: Callable[[], datetime] = clock_now,
) -> list[LedgerRow]:
    """Record that an editor verified a record's originals (or one of its URLs) by hand."""
    if not by.strip():
        raise VerifyError("--by needs the editor's name", record_id=source.key, rule="verify")
    urls = [original.url for original in source.originals() if original.url]
    if url is not None:
        if url not in urls:
            raise VerifyError(
                f"{url} is not a URL of this record; choose one of: {', '.join(urls) or 'none'}",
                path=source.path,
                record_id=source.key,
                field="url",
                rule="verify.manual",
            )
        urls = [url]
    if not urls:
        raise VerifyError(
            "the record has no URL to verify; add `url:` first",
            path=source.path,
            record_id=source.key,
            field="url",
            rule="verify.manual",
        )
    at = now()
    rows = [
        LedgerRow(at=at, url=u, ids=[source.key], outcome="manual", method="manual", by=by.strip())
        for u in urls
    ]
    ledger.append(rows)
    return rows


def report(
    sources: Iterable[Source], ledger: Ledger, latest: dict[str, LedgerRow] | None = None
) -> list[VerifyRow]:
    """Return one row per URL of each record: its status now and its effective Checked date.

    A URL checked in this run reports this run's outcome (an inconclusive answer says so even
    when an earlier verdict stands); other URLs report their lasting state from the ledger.
    """
    latest = latest or {}
    rows = []
    for source in sources:
        for view in resolve_originals(source, ledger):
            if not view.url:
                continue
            state = ledger.state(view.url)
            fresh = latest.get(view.url)
            status = state.status
            http_status, final_url, error = state.http_status, state.final_url, None
            if fresh is not None:
                http_status, final_url, error = fresh.http_status, fresh.final_url, fresh.error
                if fresh.outcome == "inconclusive":
                    status = "inconclusive"
            rows.append(
                VerifyRow(
                    id=source.key,
                    url=view.url,
                    status=status,
                    http_status=http_status,
                    checked=view.checked,
                    final_url=final_url,
                    error=error,
                )
            )
    return rows
