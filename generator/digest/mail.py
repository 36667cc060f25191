"""The issue as a MIME message: frozen once per week, then made personal per recipient."""

from __future__ import annotations

import email
import email.policy
import hashlib
import quopri
from dataclasses import dataclass
from datetime import datetime
from email.header import Header
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime, formataddr, make_msgid, parseaddr
from functools import lru_cache
from urllib.parse import urlsplit

from jinja2 import Environment, PackageLoader, StrictUndefined

from generator.digest.issue import DigestIssue

TOKEN_MARK = "PREPGUIDE-UNSUBSCRIBE-TOKEN"
SMTP_LINES = email.policy.compat32.clone(linesep="\r\n")  # smtplib sends bytes as they are


@lru_cache(maxsize=1)
def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("generator", "templates/digest"),
        autoescape=lambda name: bool(name and name.endswith(".html")),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def unsubscribe_link(base: str, token: str) -> str:
    """Return the unsubscribe URL with the token as its `token=` parameter."""
    joiner = "&" if urlsplit(base).query else "?"
    return f"{base}{joiner}token={token}"


def render_parts(issue: DigestIssue, footer: str, unsubscribe: str) -> tuple[str, str]:
    """Return the text and HTML bodies of an issue."""
    env = _environment()
    context = {"issue": issue, "footer": footer, "unsubscribe": unsubscribe}
    text = env.get_template("email.txt").render(context)
    html = env.get_template("email.html").render(context)
    return text, html


def frozen_message(
    issue: DigestIssue,
    *,
    sender: str,
    footer: str,
    unsubscribe_url: str,
    list_id: str,
    moment: datetime,
) -> EmailMessage:
    """Build the issue's message with a token placeholder, as `digest send` will read it."""
    link = unsubscribe_link(unsubscribe_url, TOKEN_MARK)
    text, html = render_parts(issue, footer, link)
    message = EmailMessage(policy=email.policy.default)
    message["Subject"] = issue.subject
    message["From"] = sender
    message["Date"] = format_datetime(moment)
    message["List-Id"] = list_id
    message["List-Unsubscribe"] = f"<{link}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["X-Prepguide-Week"] = issue.week.label
    message.set_content(text, cte="quoted-printable")
    message.add_alternative(html, subtype="html", cte="quoted-printable")
    # A boundary from the content, not a random one, so the same issue is the same bytes.
    message.set_boundary("=_prepguide_" + hashlib.sha256((text + html).encode()).hexdigest()[:32])
    return message


@dataclass(frozen=True)
class FrozenParts:
    """The frozen issue read once: its headers and bodies, with the token placeholder."""

    headers: tuple[tuple[str, str], ...]
    sender: str
    unsubscribe: str
    text: str
    html: str


def read_frozen(frozen: bytes) -> FrozenParts:
    """Parse the frozen issue once, so each recipient's copy is cheap to make."""
    message = email.message_from_bytes(frozen, policy=email.policy.default)
    headers = tuple(
        (name, str(message[name]).strip())
        for name in ("Subject", "From", "Date", "List-Id", "X-Prepguide-Week")
        if message[name] is not None
    )
    return FrozenParts(
        headers=headers,
        sender=parseaddr(str(message["From"]))[1],
        unsubscribe=str(message["List-Unsubscribe"]).strip(),
        text=message.get_body(("plain",)).get_content(),
        html=message.get_body(("html",)).get_content(),
    )


def _part(body: str, subtype: str) -> MIMEText:
    part = MIMEText("", subtype, "utf-8")
    part.replace_header("Content-Transfer-Encoding", "quoted-printable")
    part.set_payload(quopri.encodestring(body.encode("utf-8")).decode("ascii"))
    return part


def personal_message(parts: FrozenParts, recipient: str, name: str | None, token: str) -> bytes:
    """Return the issue addressed to one recipient, with their own unsubscribe link."""
    message = MIMEMultipart("alternative")
    for header, value in parts.headers:
        message[header] = Header(value, "utf-8").encode() if not value.isascii() else value
    message["To"] = formataddr((name or "", recipient), charset="utf-8")
    domain = parts.sender.rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid(domain=domain)
    message["List-Unsubscribe"] = parts.unsubscribe.replace(TOKEN_MARK, token)
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.attach(_part(parts.text.replace(TOKEN_MARK, token), "plain"))
    message.attach(_part(parts.html.replace(TOKEN_MARK, token), "html"))
    return message.as_bytes(policy=SMTP_LINES)
