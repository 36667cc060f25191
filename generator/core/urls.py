"""Web addresses: what a record may cite, what looks suspicious, and how slugs go into paths."""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from urllib.parse import quote, unquote, urlsplit

import idna

URL_FORBIDDEN = re.compile(r"[\s<>\"`\\]")
BIDI_CONTROLS = frozenset(
    map(chr, [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
)
ASCII_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
# Script sets that may share one host name (Unicode TS 39, "highly restrictive").
ALLOWED_MIXES = (
    frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "CJK", "BOPOMOFO"}),
    frozenset({"LATIN", "CJK", "HANGUL"}),
)
_SCRIPT_ALIASES = {"IDEOGRAPHIC": "CJK", "HALFWIDTH": "KATAKANA"}


def is_web_url(text: str) -> bool:
    """Return True for an absolute http or https URL with a host."""
    try:
        parts = urlsplit(text.strip())
    except ValueError:  # an unclosed IPv6 bracket
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def describe_char(char: str) -> str:
    """Name one character for an error message: U+202E (RIGHT-TO-LEFT OVERRIDE)."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def url_problem(text: str) -> str | None:
    """Say why a URL may not be cited or published, or return None."""
    for char in text:
        if char in BIDI_CONTROLS:
            return f"contains {describe_char(char)}, a bidirectional control that can disguise it"
        if unicodedata.category(char) in ("Cc", "Cf"):
            return f"contains the invisible or control character {describe_char(char)}"
    try:
        urlsplit(text)
    except ValueError as exc:
        return f"is not a valid URL ({exc})"
    if not is_web_url(text):
        return "is not an http(s) URL; only http:// and https:// are allowed"
    if URL_FORBIDDEN.search(text):
        return "contains spaces, quotes or angle brackets; percent-encode them"
    hidden = next((char for char in unquote(text) if char in BIDI_CONTROLS), None)
    if hidden:
        return f"hides {describe_char(hidden)}, a bidirectional control, in percent-encoding"
    parts = urlsplit(text)
    if "@" in parts.netloc:
        return "carries a user name or password (user:pass@); cite the address without them"
    try:
        port = parts.port
    except ValueError:
        return "has a port that is not a number from 1 to 65535"
    if port == 0:
        return "has a port that is not a number from 1 to 65535"
    return host_problem(parts.netloc.rpartition(":")[0] if port is not None else parts.netloc)


def host_problem(host: str) -> str | None:
    """Say why a URL's host is not a valid DNS name, IDNA name or IP address."""
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host.strip("[]"))
        except ValueError:
            return f"has a host {host!r} that is not a valid IPv6 address"
        return None
    name = host.lower().removesuffix(".")
    if not name:
        return "has no host"
    if re.fullmatch(r"[0-9.]+", name):
        try:
            ipaddress.IPv4Address(name)
        except ValueError:
            return f"has a host {host!r} that is not a valid IPv4 address"
        return None
    if len(name) > 253:
        return "has a host name over 253 characters"
    for label in name.split("."):
        if len(label) > 63:
            return f"has a host label {label[:20]!r}... over 63 characters"
        if label.isascii() and not label.startswith("xn--"):
            if not ASCII_LABEL.fullmatch(label):
                return f"has a host {host!r} that is not a valid domain name (label {label!r})"
            continue
        try:
            encoded = idna.decode(label) if label.isascii() else idna.encode(label, uts46=True)
        except (idna.IDNAError, UnicodeError, ValueError) as exc:
            return f"has a host {host!r} that is not a valid international domain name ({exc})"
        if isinstance(encoded, bytes) and len(encoded) > 63:
            return f"has a host label {label!r} over 63 bytes once encoded"
    return None


def check_url(value: str) -> str:
    """Accept only absolute http(s) URLs that cannot disguise where they lead."""
    text = value.strip()
    problem = url_problem(text)
    if problem:
        raise ValueError(f"{text!r} {problem}")
    return text


def display_host(url: str) -> str:
    """Return a URL's host as a reader sees it, with punycode labels decoded."""
    host = (urlsplit(url).hostname or "").removesuffix(".")
    labels = []
    for label in host.split("."):
        try:
            labels.append(idna.decode(label) if label.startswith("xn--") else label)
        except (idna.IDNAError, UnicodeError, ValueError):
            labels.append(label)
    return ".".join(labels)


def _script(char: str) -> str | None:
    if not unicodedata.category(char).startswith("L"):
        return None
    word = unicodedata.name(char, "UNKNOWN").split(" ")[0]
    return _SCRIPT_ALIASES.get(word, word)


def url_warnings(url: str) -> list[str]:
    """Name what makes an accepted URL's host suspicious: punycode or mixed scripts."""
    host = (urlsplit(url).hostname or "").removesuffix(".")
    warnings = []
    if any(label.startswith("xn--") for label in host.split(".")):
        warnings.append(
            f"host {host!r} is written in punycode and reads as {display_host(url)!r}; "
            "check it is the site you mean"
        )
    shown = display_host(url)
    scripts = {script for script in map(_script, shown) if script}
    if len(scripts) > 1 and not any(scripts <= allowed for allowed in ALLOWED_MIXES):
        names = " and ".join(sorted(s.title() for s in scripts))
        warnings.append(
            f"host {shown!r} mixes {names} letters, as look-alike addresses do; "
            "check it is the site you mean"
        )
    return warnings


def url_key(url: str) -> str:
    """Return the comparison key of a URL: scheme and host lowercased, no fragment or end slash."""
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/")
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}{query}"


def url_path(path: str) -> str:
    """Percent-encode a site path as UTF-8, segment by segment (topics/日本語/ → topics/%E6…/)."""
    return quote(path, safe="/")
