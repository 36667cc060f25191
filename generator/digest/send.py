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

from generator.clock import iso, now
from generator.digest import journal, tokens
from generator.digest.mail import personal_message, read_frozen
from generator.digest.subscribers import Subscriber
from generator.errors import ConfigError, PrepguideError

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
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError as exc:
        raise ConfigError(f"PREPGUIDE_SMTP_URL has a bad port: {url!r}") from exc
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ConfigError(
            f"PREPGUIDE_SMTP_URL must be smtps://host[:port] or smtp://host[:port]; got {url!r}"
        )
    secure = parts.scheme == "smtps"
    return SmtpSettings(
        host=parts.hostname,
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
    """Return every address on the suppression list, lowercased."""
    rows, _ = journal.read(path)
    return {str(row.get("email", "")).lower() for row in rows}


def deliveries(path: Path, week: str) -> dict[str, str]:
    """Return each address's last ledger event for one issue."""
    rows, _ = journal.read(path)
    last: dict[str, str] = {}
    for row in rows:
        if row.get("week") == week and isinstance(row.get("email"), str):
            last[row["email"].lower()] = str(row.get("event"))
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
    frozen: bytes,
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
    parts = read_frozen(frozen)
    with journal.Journal(ledger_path) as ledger:
        try:
            for subscriber in plan.to_send:
                message = personal_message(
                    parts, subscriber.email, subscriber.name, tokens.sign(secret, subscriber.email)
                )
                delay = next_start - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                next_start = time.monotonic() + interval
                if client is None:
                    client = connect(settings)
                row = {"week": plan.week, "email": subscriber.key}
                ledger.append({**row, "time": iso(now()), "event": "attempt"})
                try:
                    client.sendmail(parts.sender, [subscriber.email], message)
                except smtplib.SMTPRecipientsRefused as exc:
                    code, text = next(iter(exc.recipients.values()))
                    detail = f"{code} {text.decode('utf-8', 'replace')}"
                    ledger.append({**row, "time": iso(now()), "event": "failed", "detail": detail})
                    report.failed[subscriber.email] = detail
                except smtplib.SMTPResponseException as exc:
                    detail = f"{exc.smtp_code} {exc.smtp_error.decode('utf-8', 'replace')}"
                    ledger.append({**row, "time": iso(now()), "event": "failed", "detail": detail})
                    report.failed[subscriber.email] = detail
                    client = _reset(client)
                except (TimeoutError, smtplib.SMTPServerDisconnected, OSError):
                    # No reply to DATA: the message may have gone; leave it as uncertain.
                    report.uncertain.append(subscriber.email)
                    client = None
                else:
                    ledger.append({**row, "time": iso(now()), "event": "sent"})
                    report.sent += 1
                if on_progress is not None:
                    on_progress(report)
        finally:
            if client is not None:
                with contextlib.suppress(OSError, smtplib.SMTPException):
                    client.quit()
            report.warnings.extend(ledger.warnings)
    return report


def _reset(client: smtplib.SMTP) -> smtplib.SMTP | None:
    """Reset the session after a refused message; drop it when the server hung up."""
    try:
        client.rset()
    except (OSError, smtplib.SMTPException):
        return None
    return client


def unsubscribe(secret: str, token: str, suppression_path: Path, via: str = "token") -> str:
    """Verify a token and add its address to the suppression list; return the address."""
    address = tokens.verify(secret, token).lower()
    if address not in suppressed_addresses(suppression_path):
        with journal.Journal(suppression_path) as suppressions:
            suppressions.append({"time": iso(now()), "email": address, "via": via})
    return address
