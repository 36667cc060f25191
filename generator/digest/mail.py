"""The issue as a MIME message: frozen once per week, then made personal per recipient."""

from __future__ import annotations

import email
import email.policy
import hashlib
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid, parseaddr
from functools import lru_cache
from urllib.parse import urlsplit

from jinja2 import Environment, PackageLoader, StrictUndefined

from generator.digest.issue import DigestIssue

TOKEN_MARK = "PREPGUIDE-UNSUBSCRIBE-TOKEN"


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


def personal_message(frozen: bytes, recipient: str, name: str | None, token: str) -> EmailMessage:
    """Return the frozen issue addressed to one recipient with their own unsubscribe link."""
    message = email.message_from_bytes(frozen, policy=email.policy.default)
    personal = EmailMessage(policy=email.policy.default)
    for header in ("Subject", "From", "Date", "List-Id", "X-Prepguide-Week"):
        if message[header] is not None:
            personal[header] = str(message[header]).strip()
    personal["To"] = formataddr((name or "", recipient))
    domain = parseaddr(str(message["From"]))[1].rpartition("@")[2] or "localhost"
    personal["Message-ID"] = make_msgid(domain=domain)
    header = str(message["List-Unsubscribe"]).strip()
    personal["List-Unsubscribe"] = header.replace(TOKEN_MARK, token)
    personal["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    text = message.get_body(("plain",)).get_content().replace(TOKEN_MARK, token)
    html = message.get_body(("html",)).get_content().replace(TOKEN_MARK, token)
    personal.set_content(text, cte="quoted-printable")
    personal.add_alternative(html, subtype="html", cte="quoted-printable")
    return personal
