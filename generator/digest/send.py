"""Sending an issue over SMTP: one message per recipient, each recorded before and after."""

from __future__ import annotations

import contextlib
import ipaddress
import smtplib
import socket
import ssl
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from generator.core.clock import iso, now
from generator.core.errors import ConfigError, PrepguideError
from generator.digest import journal, tokens
from generator.digest.addresses import AddressError, address_key
from generator.digest.mail import FrozenParts, personal_message
from generator.digest.subscribers import Subscriber
from generator.digest.suppressions import SuppressionError, read_suppressions

# The name we greet the server with; socket.getfqdn() can stall on a reverse DNS lookup.
LOCAL_NAME = socket.gethostname() or "localhost"


class SendError(PrepguideError):
    """The mail server cannot be reached or refuses the whole run."""


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    security: str  # "ssl" (implicit TLS) or "starttls"
    user: str | None = None
    password: str | None = None

    @property
    def loopback(self) -> bool:
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return self.host == "localhost"


def smtp_settings(url: str | None, user: str | None, password: str | None) -> SmtpSettings:
    """Read PREPGUIDE_SMTP_URL: smtps://host[:465] or smtp://host[:587] (STARTTLS)."""
    if not url:
        raise ConfigError("set PREPGUIDE_SMTP_URL, e.g. smtps://smtp.example.org:465")
    try:
        parts = urlsplit(url)
        port = parts.port
        host = parts.hostname
    except ValueError as exc:
        raise ConfigError(
            f"PREPGUIDE_SMTP_URL {url!r} is not a usable URL ({exc}); set it to "
            "smtps://host[:port] or smtp://host[:port], with an IPv6 address in [ ]"
        ) from None
    if parts.scheme not in ("smtp", "smtps") or not host:
        raise ConfigError(
            f"PREPGUIDE_SMTP_URL must be smtps://host[:port] or smtp://host[:port]; got {url!r}"
        )
    secure = parts.scheme == "smtps"
    return SmtpSettings(
        host=host,
        port=port or (465 if secure else 587),
        security="ssl" if secure else "starttls",
        user=user or (unquote(parts.username) if parts.username else None),
        password=password or (unquote(parts.password) if parts.password else None),
    )


def connect(settings: SmtpSettings, timeout: float = 30.0) -> smtplib.SMTP:
    """Open an authenticated session; STARTTLS is required except on loopback."""
    context = ssl.create_default_context()
    try:
        if settings.security == "ssl":
            client: smtplib.SMTP = smtplib.SMTP_SSL(
                settings.host,
                settings.port,
                local_hostname=LOCAL_NAME,
                timeout=timeout,
                context=context,
            )
        else:
            client = smtplib.SMTP(
                settings.host, settings.port, local_hostname=LOCAL_NAME, timeout=timeout
            )
            client.ehlo()
            if client.has_extn("starttls"):
                client.starttls(context=context)
                client.ehlo()
            elif not settings.loopback:
                client.quit()
                raise SendError(
                    f"{settings.host} does not offer STARTTLS; use smtps:// or a server with TLS"
                )
        # Without it, Nagle's algorithm and delayed ACKs stall every SMTP round trip by ~40 ms.
        client.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if settings.user:
            client.login(settings.user, settings.password or "")
    except SendError:
        raise
    except (OSError, smtplib.SMTPException) as exc:
        where = f"{settings.host}:{settings.port}"
        raise SendError(f"cannot reach the mail server {where}: {exc}") from exc
    return client


@dataclass
class SendPlan:
    """Who gets the issue now, and why the others do not."""

    week: str
    to_send: list[Subscriber] = field(default_factory=list)
    already_sent: int = 0
    uncertain: list[str] = field(default_factory=list)
    suppressed: int = 0
    unconfirmed: int = 0


def suppressed_addresses(path: Path) -> set[str]:
    """Return the key of every address on the suppression list; raise when a line is unreadable."""
    return read_suppressions(path).keys


def _key(text: str) -> str:
    try:
        return address_key(text)
    except AddressError:
        return text.lower()


def deliveries(path: Path, week: str) -> dict[str, str]:
    """Return each address's last ledger event for one issue."""
    rows, _ = journal.read(path)
    last: dict[str, str] = {}
    for row in rows:
        if row.get("week") == week and isinstance(row.get("email"), str):
            last[_key(row["email"])] = str(row.get("event"))
    return last


def plan_send(
    week: str,
    subscribers: Sequence[Subscriber],
    suppressed: set[str],
    last_events: dict[str, str],
    resend_uncertain: bool,
) -> SendPlan:
    """Decide who is sent the issue: confirmed, not suppressed, not already sent."""
    plan = SendPlan(week=week)
    for subscriber in subscribers:
        if subscriber.status != "confirmed":
            plan.unconfirmed += 1
        elif subscriber.key in suppressed:
            plan.suppressed += 1
        elif last_events.get(subscriber.key) == "sent":
            plan.already_sent += 1
        elif last_events.get(subscriber.key) == "attempt" and not resend_uncertain:
            plan.uncertain.append(subscriber.email)
        else:
            plan.to_send.append(subscriber)
    return plan


@dataclass
class SendReport:
    sent: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    uncertain: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def send_issue(
    plan: SendPlan,
    parts: FrozenParts,
    *,
    settings: SmtpSettings,
    secret: str,
    ledger_path: Path,
    per_minute: int,
    on_progress: Callable[[SendReport], None] | None = None,
) -> SendReport:
    """Send the issue to each planned recipient once, recording attempt and outcome."""
    report = SendReport()
    interval = 60.0 / per_minute if per_minute else 0.0
    client: smtplib.SMTP | None = None
    next_start = time.monotonic()
    with journal.Journal(ledger_path) as ledger:
        try:
            for subscriber in plan.to_send:
                row = {"week": plan.week, "email": subscriber.key}
                try:
                    message = personal_message(
                        parts,
                        subscriber.email,
                        subscriber.name,
                        tokens.sign(secret, subscriber.key),
                    )
                except (ValueError, UnicodeError) as exc:
                    _failed(ledger, row, report, subscriber, f"cannot write its message: {exc}")
                    continue
                delay = next_start - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                next_start = time.monotonic() + interval
                if client is None:
                    client = connect(settings)
                client = _deliver(client, ledger, row, parts.sender, subscriber, message, report)
                if on_progress is not None:
                    on_progress(report)
        finally:
            if client is not None:
                with contextlib.suppress(OSError, smtplib.SMTPException):
                    client.quit()
            report.warnings.extend(ledger.warnings)
    return report


def _failed(ledger, row: dict, report: SendReport, subscriber: Subscriber, detail: str) -> None:
    ledger.append({**row, "time": iso(now()), "event": "failed", "detail": detail})
    report.failed[subscriber.email] = detail


class _Refused(Exception):
    """The server refused a step before DATA; nothing was sent to the recipient."""

    def __init__(self, code: int, text: bytes | str, closing: bool = False) -> None:
        text = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        super().__init__(f"{code} {text}".strip() if code else text)
        self.closing = closing or code == 421


def _deliver(
    client: smtplib.SMTP,
    ledger: journal.Journal,
    row: dict,
    sender: str,
    subscriber: Subscriber,
    message: bytes,
    report: SendReport,
) -> smtplib.SMTP | None:
    """Send one message; return the session to go on with (None: open a new one)."""
    try:
        options = []
        if not subscriber.email.isascii():
            if not client.has_extn("smtputf8"):
                raise _Refused(0, "the server does not offer SMTPUTF8, which this address needs")
            options = ["SMTPUTF8"]
        code, text = client.mail(sender, options)
        if code != 250:
            raise _Refused(code, text)
        code, text = client.rcpt(subscriber.email)
        if code not in (250, 251):
            raise _Refused(code, text)
    except _Refused as exc:
        _failed(ledger, row, report, subscriber, f"{exc} (nothing was sent; the next run retries)")
        if exc.closing:
            with contextlib.suppress(OSError, smtplib.SMTPException):
                client.close()
            return None
        return _reset(client)
    except (OSError, smtplib.SMTPException) as exc:
        detail = f"the connection broke before DATA ({exc}); nothing was sent, retried next run"
        _failed(ledger, row, report, subscriber, detail)
        with contextlib.suppress(OSError, smtplib.SMTPException):
            client.close()
        return None
    ledger.append({**row, "time": iso(now()), "event": "attempt"})
    try:
        client.data(message)
    except smtplib.SMTPResponseException as exc:
        detail = f"{exc.smtp_code} {exc.smtp_error.decode('utf-8', 'replace')}"
        _failed(ledger, row, report, subscriber, detail)
        if exc.smtp_code != 421:
            return _reset(client)
        with contextlib.suppress(OSError, smtplib.SMTPException):
            client.close()
        return None
    except (OSError, smtplib.SMTPException):
        # DATA was started and no reply came: the message may have gone; leave it uncertain.
        report.uncertain.append(subscriber.email)
        with contextlib.suppress(OSError, smtplib.SMTPException):
            client.close()
        return None
    ledger.append({**row, "time": iso(now()), "event": "sent"})
    report.sent += 1
    return client


def _reset(client: smtplib.SMTP) -> smtplib.SMTP | None:
    """Reset the session after a refused message; drop it when the server hung up."""
    try:
        client.rset()
    except (OSError, smtplib.SMTPException):
        return None
    return client


def unsubscribe(
    secret: str, token: str, suppression_path: Path, via: str = "token"
) -> tuple[str, str | None]:
    """Verify a token and add its address to the suppression list; return it and any damage."""
    address = _key(tokens.verify(secret, token))
    try:
        listed, damage = address in suppressed_addresses(suppression_path), None
    except SuppressionError as exc:
        listed, damage = False, str(exc)  # record the unsubscribe anyway; keep the damaged line
    if not listed:
        with journal.Journal(suppression_path, keep_torn_tail=True) as suppressions:
            suppressions.append({"time": iso(now()), "email": address, "via": via})
    return address, damage
