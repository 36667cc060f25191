"""links.foreign: no URL, link, e-mail or host in the prose other than the citations."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from generator.checks.base import CheckContext, ParsedGuide, finding, quote, record_file
from generator.guides.findings import Finding

URL = re.compile(r"\b(?:https?|ftp)://[^\s<>()\[\]\"'`]+|\bwww\.[^\s<>()\[\]\"'`]+", re.I)
MD_TARGET = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@((?:[a-z0-9-]+\.)+[a-z]{2,})\b", re.IGNORECASE)
SCHEME = re.compile(r"\b(?:javascript|data|vbscript|file|mailto):[^\s)]*", re.IGNORECASE)
TLDS = (
    "com|net|org|io|ai|dev|co|app|xyz|info|biz|me|ly|gg|us|uk|de|fr|cn|ru|eu|nl|jp|ca|au|ch"
    "|tech|site|online|page|link|cc|tv|engineering|blog|news|cloud|gov|edu|top|click|lol"
)
HOST = re.compile(
    rf"(?<![\w@/.-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:{TLDS}))(?![\w-]|\.[a-z0-9])",
    re.IGNORECASE,
)
TRAILING = ".,;:!?)]}>'\"”’*_"


def _host(url: str) -> str:
    text = url if "://" in url else f"http://{url}"
    host = (urlsplit(text).hostname or "").casefold()
    return host.removeprefix("www.")


def _url_key(url: str) -> str:
    text = url if "://" in url else f"http://{url}"
    parts = urlsplit(text)
    path = parts.path.rstrip("/")
    query = f"?{parts.query}" if parts.query else ""
    return f"{_host(text)}{path}{query}"


TLD_HINT = re.compile(rf"\.(?:{TLDS})(?![\w-])", re.IGNORECASE)
LINK_HINTS = ("://", "www.", "](", "@", "javascript:", "data:", "vbscript:", "file:", "mailto:")


def _may_link(text: str) -> bool:
    """Return False when a text cannot hold a URL, link, e-mail or host (a cheap pre-scan)."""
    lowered = text.lower()
    return any(hint in lowered for hint in LINK_HINTS) or TLD_HINT.search(text) is not None


def check_links(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Refuse any URL, link or host in the prose that is not one of the citations."""
    urls: set[str] | None = None
    hosts: set[str] = set()
    findings = []
    for block in guide.blocks:
        text = block.text
        if not _may_link(text):
            continue
        if urls is None:  # only a guide whose prose may hold a link needs the citations' keys
            urls = {_url_key(view.url) for view in ctx.originals if view.url}
            hosts = {_host(view.url) for view in ctx.originals if view.url}
        found: list[tuple[str, bool]] = []
        for match in MD_TARGET.finditer(text):
            target = match.group(1)
            if not target.startswith("#") and not URL.match(target):
                found.append((target, False))
        for match in SCHEME.finditer(text):
            target = match.group()
            if target.casefold().startswith("mailto:"):
                found.append((_host(target.split("@")[-1]), False))
            else:
                found.append((target, False))
        for match in URL.finditer(text):
            url = match.group().rstrip(TRAILING)
            found.append((url, _url_key(url) in urls))
        masked = URL.sub(lambda m: " " * len(m.group()), text)
        for match in EMAIL.finditer(masked):
            found.append((match.group(), _host(match.group(1)) in hosts))
        masked = EMAIL.sub(lambda m: " " * len(m.group()), masked)
        masked = SCHEME.sub(lambda m: " " * len(m.group()), masked)
        for match in HOST.finditer(masked):
            if match.group(1).isupper():
                continue  # "ASP.NET" names a framework, not a host
            found.append((match.group(1), _host(match.group(1)) in hosts))
        reported: set[str] = set()
        for target, allowed in found:
            if allowed or target in reported:
                continue
            reported.add(target)
            findings.append(
                finding(
                    "links.foreign",
                    "error",
                    block.section,
                    f"link or host {quote(target, 100)} is not one of this guide's citations; "
                    "remove it (links come only from the record's url and citations, shown "
                    "under 'Read the originals'), or add the original to "
                    f"{record_file(ctx.source)} as a citation",
                )
            )
    return findings
