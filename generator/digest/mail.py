"""The issue as a MIME message: frozen once per week, then made personal per recipient."""

from __future__ import annotations

import email
import email.policy
import hashlib
import quopri
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from email.header import Header
from email.headerregistry import Address
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime, formataddr, make_msgid, parseaddr
from functools import lru_cache
from html import escape as html_escape
from importlib import resources
from urllib.parse import urlsplit

from jinja2 import (
    DictLoader,
    Environment,
    StrictUndefined,
    TemplateError,
    TemplateSyntaxError,
    UndefinedError,
)
from jinja2.sandbox import SandboxedEnvironment

from generator.core.errors import ConfigError, PrepguideError
from generator.digest.issue import DigestIssue

TOKEN_MARK = "PREPGUIDE-UNSUBSCRIBE-TOKEN"
SMTP_LINES = email.policy.compat32.clone(linesep="\r\n")  # smtplib sends bytes as they are


class MailError(PrepguideError):
    """The frozen issue cannot be sent as it is."""


MAIL_TEMPLATES = ("email.txt", "email.html")


def packaged_mail_templates() -> dict[str, str]:
    """Return the shipped mail templates by name."""
    folder = resources.files("generator").joinpath("templates/digest")
    return {name: folder.joinpath(name).read_text("utf-8") for name in MAIL_TEMPLATES}


@dataclass(frozen=True)
class MailTemplates:
    """The mail's templates by name, and the root's file each one was read from, if any."""

    texts: tuple[tuple[str, str], ...]
    origins: tuple[tuple[str, str], ...] = ()


def shipped_templates() -> MailTemplates:
    return MailTemplates(tuple(sorted(packaged_mail_templates().items())))


@lru_cache(maxsize=4)
def _environment(texts: tuple[tuple[str, str], ...]) -> Environment:
    return SandboxedEnvironment(
        loader=DictLoader(dict(texts)),
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


def render_parts(
    issue: DigestIssue, footer: str, unsubscribe: str, templates: MailTemplates | None = None
) -> tuple[str, str]:
    """Return the text and HTML bodies of an issue."""
    templates = templates or shipped_templates()
    env = _environment(templates.texts)
    context = {"issue": issue, "footer": footer, "unsubscribe": unsubscribe}
    bodies = []
    for name in MAIL_TEMPLATES:
        try:
            bodies.append(env.get_template(name).render(context))
        except TemplateSyntaxError as exc:
            raise _template_error(
                templates, name, f"syntax error at line {exc.lineno}: {exc.message}"
            ) from exc
        except UndefinedError as exc:
            raise _template_error(templates, name, f"uses an unknown value: {exc.message}") from exc
        except (TemplateError, TypeError, ValueError, ArithmeticError, LookupError) as exc:
            raise _template_error(
                templates, name, f"fails to render: {type(exc).__name__}: {exc}"
            ) from exc
    for name, body in zip(MAIL_TEMPLATES, bodies, strict=True):
        if unsubscribe not in body.replace("&amp;", "&") or not _shows(body, footer):
            raise _template_error(
                templates,
                name,
                "must show the footer and the unsubscribe link (footer, unsubscribe)",
            )
    return bodies[0], bodies[1]


def _shows(body: str, footer: str) -> bool:
    return footer in body or html_escape(footer) in body


def _template_error(templates: MailTemplates, name: str, problem: str) -> ConfigError:
    path = dict(templates.origins).get(name, f"templates/digest/{name}")
    return ConfigError(f"mail template {problem}", path=path, rule="templates")


def frozen_message(
    issue: DigestIssue,
    *,
    sender: str,
    footer: str,
    unsubscribe_url: str,
    list_id: str,
    moment: datetime,
    templates: MailTemplates | None = None,
) -> EmailMessage:
    """Build the issue's message with a token placeholder, as `digest send` will read it."""
    link = unsubscribe_link(unsubscribe_url, TOKEN_MARK)
    text, html = render_parts(issue, footer, link, templates)
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


def control_char(text: str) -> str | None:
    """Return the first control or format character of a text, if any."""
    return next((char for char in text if unicodedata.category(char) in ("Cc", "Cf")), None)


def header_problem(value: str) -> str | None:
    """Say why a text may not be a header value, even once its encoded words are decoded."""
    try:
        decoded = str(email.policy.default.header_factory("subject", value))
    except (ValueError, IndexError, TypeError) as exc:
        return f"cannot be read as a header ({exc})"
    char = control_char(value) or control_char(decoded)
    if char is not None:
        return f"holds the control character U+{ord(char):04X} (a line break or an encoded word)"
    return None


def read_frozen(frozen: bytes) -> FrozenParts:
    """Parse the frozen issue once; raise MailError when a header or a body is unusable."""
    message = email.message_from_bytes(frozen, policy=email.policy.default)
    headers = []
    for name in ("Subject", "From", "Date", "List-Id", "X-Prepguide-Week", "List-Unsubscribe"):
        try:
            value = None if message[name] is None else str(message[name]).strip()
        except (ValueError, IndexError, TypeError) as exc:
            raise MailError(f"its {name} header cannot be read ({exc})") from exc
        if value is None:
            if name in ("Subject", "From", "List-Unsubscribe"):
                raise MailError(f"it has no {name} header")
            continue
        if control_char(value):
            raise MailError(f"its {name} header holds a control character (an injected line?)")
        headers.append((name, value))
    text, html = message.get_body(("plain",)), message.get_body(("html",))
    if text is None or html is None or message.get_content_type() != "multipart/alternative":
        raise MailError("it has not both a text and an HTML part; the file is damaged")
    values = dict(headers)
    return FrozenParts(
        headers=tuple(pair for pair in headers if pair[0] != "List-Unsubscribe"),
        sender=parseaddr(values["From"])[1],
        unsubscribe=values["List-Unsubscribe"],
        text=text.get_content(),
        html=html.get_content(),
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
        if value.isascii():
            message[header] = value
        elif header == "From":
            message[header] = formataddr(parseaddr(value), charset="utf-8")
        else:
            message[header] = Header(value, "utf-8").encode()
    if recipient.isascii():
        message["To"] = formataddr((name or "", recipient), charset="utf-8")
    domain = parts.sender.rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid(domain=domain)
    message["List-Unsubscribe"] = parts.unsubscribe.replace(TOKEN_MARK, token)
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.attach(_part(parts.text.replace(TOKEN_MARK, token), "plain"))
    message.attach(_part(parts.html.replace(TOKEN_MARK, token), "html"))
    if recipient.isascii():
        return message.as_bytes(policy=SMTP_LINES)
    # An internationalised address goes out as UTF-8 (SMTPUTF8, RFC 6532 headers).
    local, _, domain = recipient.rpartition("@")
    to = str(Address(display_name=name or "", username=local, domain=domain))
    return f"To: {to}\r\n".encode() + message.as_bytes(policy=SMTP_LINES)
