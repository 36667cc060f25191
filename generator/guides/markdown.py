"""Markdown to HTML: raw HTML escaped, only http(s) links survive.

pulldown-cmark (through pyromark) parses; the HTML is written here from its events, so that
every text, code and raw HTML event is escaped and every link destination is checked. Its own
HTML writer passes raw HTML through and has no link filter. The output matches markdown-it's
CommonMark renderer (which this replaced) on guide bodies.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit, urlunsplit

import pyromark

from generator.sources.records import is_web_url

_URL_SAFE = ";/?:@&=+$,-_.!~*'()#%"
_INLINE_TAGS = {"Emphasis": "em", "Strong": "strong"}
_SAFE = -1  # a link written as <a>
_AUTOLINK_TEXT = -2  # an autolink written as its escaped source text
_LINE_TAG = re.compile(r"(?m)^( {0,3})<")
_MAX_DEPTH = 16


def safe_link(url: str) -> bool:
    """Allow only absolute http(s) links and in-page anchors."""
    return url.strip().startswith("#") or is_web_url(url)


def escape(text: str) -> str:
    """Escape text for HTML content and attributes (& < > ")."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def normalize_link(url: str) -> str:
    """Percent-encode a link destination, with an IDNA host, as CommonMark renderers do."""
    if not url.isascii():
        try:
            parts = urlsplit(url)
            host = parts.hostname or ""
            if host and not host.isascii():
                ascii_host = host.encode("idna").decode("ascii")
                url = urlunsplit(parts._replace(netloc=parts.netloc.replace(host, ascii_host)))
        except (ValueError, UnicodeError):
            pass  # not a URL with a host: only percent-encoded
    return quote(url, safe=_URL_SAFE)


def _split(event: object) -> tuple[str, object]:
    if type(event) is str:
        return event, None
    return next(iter(event.items()))  # type: ignore[union-attr]


class _Writer:
    """Write HTML from pulldown-cmark events, escaping every text and raw HTML event."""

    def __init__(self, text: str, depth: int = 0) -> None:
        self.text = text
        self.depth = depth
        self.html: list[str] | None = None  # the lines of the open raw HTML block
        self.out: list[str] = []
        self.blocks: list[str] = []  # open block elements, innermost last
        self.lf = False  # a tight item's text precedes: a block other than code adds "\n"
        self.opened = False  # <li> or <blockquote> was the last output: a block adds "\n"
        self.source = b""  # the text as UTF-8, since event offsets count bytes
        self.last_end = 0  # source offset where the last event ended
        self.links: list[int] = []  # per open link: _SAFE, _AUTOLINK_TEXT or its source end
        self.alt: list[list[str]] = []  # alt text of the open images
        self.image = ("", "")
        self.indented = False  # the open code block is indented (not fenced)

    def render(self) -> str:
        for event, span in pyromark.events_with_range(self.text):
            if type(event) is str:
                key, value = event, None
            else:
                ((key, value),) = event.items()
            if self.html is not None and key in ("Html", "Text"):
                self.html.append(value)  # type: ignore[arg-type]
            elif self.alt:
                self.collect_alt(key, value)
            elif key == "Start":
                name, arg = _split(value)
                self.start(name, arg, span)
                if name == "Link" or name == "Image":
                    continue
            elif key == "End":
                self.end(*_split(value))
            elif not self.links or self.links[-1] != _AUTOLINK_TEXT:
                self.leaf(key, value)
            self.last_end = span["end"]
        return "".join(self.out)

    def block(self, html: str, name: str | None, *, code: bool = False) -> None:
        if self.opened or (self.lf and not code):
            self.out.append("\n")  # markdown-it writes code blocks with no line feed before
        self.lf = self.opened = False
        self.out.append(html)
        if name:
            self.blocks.append(name)

    def inline(self, html: str) -> None:
        self.out.append(html)
        self.opened = False
        self.lf = self.blocks[-1] == "Item" if self.blocks else False

    def start(self, name: str, arg: object, span: dict) -> None:
        if name in _INLINE_TAGS:
            self.inline(f"<{_INLINE_TAGS[name]}>")
        elif name == "Paragraph":
            self.block("<p>", name)
        elif name == "HtmlBlock":
            self.html = []
        elif name == "Link" or name == "Image":
            self.link(name, arg, span)  # type: ignore[arg-type]
        elif name == "Item":
            self.block("<li>", name)
            self.opened = True
        elif name == "List":
            if arg is None:
                self.block("<ul>\n", name)
            else:
                self.block("<ol>\n" if arg == 1 else f'<ol start="{arg}">\n', name)
        elif name == "Heading":
            self.block(f"<h{arg['level'][1]}>", name)  # type: ignore[index]
        elif name == "BlockQuote":
            self.block("<blockquote>", name)
            self.opened = True
        elif name == "CodeBlock":
            info = arg.get("Fenced", "") if isinstance(arg, dict) else ""
            lang = info.split()[0] if info.strip() else ""
            attr = f' class="language-{escape(lang)}"' if lang else ""
            self.indented = not isinstance(arg, dict)
            self.block(f"<pre><code{attr}>", name, code=True)
        else:
            raise ValueError(f"unsupported Markdown element {name}")

    def link(self, name: str, arg: dict, span: dict) -> None:
        href = normalize_link(arg["dest_url"])
        start, end = span["start"], span["end"]
        if not safe_link(href):
            if arg["link_type"] in ("Autolink", "Email"):
                self.inline(escape(self.slice(start, end)))
                self.links.append(_AUTOLINK_TEXT)
                return
            # Left as text: its brackets and destination as written, its content rendered.
            opener = "[" if name == "Link" else "!["
            self.inline(opener)
            self.last_end = start + len(opener)
            self.links.append(end)
            return
        title = f' title="{escape(arg["title"])}"' if arg["title"] else ""
        self.links.append(_SAFE)
        if name == "Image":
            self.alt.append([])
            self.image = (escape(href), title)
        else:
            self.inline(f'<a href="{escape(href)}"{title}>')

    def raw_html_block(self, lines: str) -> None:
        """Render a raw HTML block as Markdown text, as a parser with HTML off reads it.

        Its lines' opening "<" become "&lt;", so that they read as text: a paragraph whose
        Markdown is rendered and whose tags are escaped.
        """
        if self.depth >= _MAX_DEPTH:
            self.block(f"<p>{escape(lines.strip())}</p>\n", None)
            return
        self.block(_Writer(_LINE_TAG.sub(r"\1&lt;", lines), self.depth + 1).render(), None)

    def slice(self, start: int, end: int) -> str:
        """Return the source text between two event offsets."""
        if not self.source:
            self.source = self.text.encode("utf-8")
        return self.source[start:end].decode("utf-8")

    def collect_alt(self, key: str, value: object) -> None:
        """Collect an image's alt text: the plain text of its content."""
        if key == "Start" and _split(value)[0] == "Image":
            self.alt.append([])
        elif key == "End" and _split(value)[0] == "Image":
            text = "".join(self.alt.pop())
            if self.alt:
                self.alt[-1].append(text)
                return
            self.links.pop()
            src, title = self.image
            self.inline(f'<img src="{src}" alt="{escape(text)}"{title} />')
        elif key in ("Text", "Code", "Html", "InlineHtml"):
            self.alt[-1].append(value)  # type: ignore[arg-type]
        elif key in ("SoftBreak", "HardBreak"):
            self.alt[-1].append("\n")

    def end(self, name: str, arg: object) -> None:
        if name in _INLINE_TAGS:
            self.inline(f"</{_INLINE_TAGS[name]}>")
            return
        if name == "Link" or name == "Image":
            end = self.links.pop()
            if end == _SAFE:
                self.inline("</a>")
            elif end >= 0:
                self.inline(escape(self.slice(self.last_end, end)))
            return
        if name == "HtmlBlock":
            self.raw_html_block("".join(self.html or ()))
            self.html = None
            return
        self.blocks.pop()
        self.lf = self.opened = False
        if name == "Paragraph":
            self.out.append("</p>\n")
        elif name == "Item":
            self.out.append("</li>\n")
        elif name == "List":
            self.out.append("</ol>\n" if arg else "</ul>\n")
        elif name == "Heading":
            self.out.append(f"</h{arg[1]}>\n")  # type: ignore[index]
        elif name == "BlockQuote":
            self.out.append("</blockquote>\n")
        elif name == "CodeBlock":
            if self.indented and not self.out[-1].endswith((">", "\n")):
                self.out.append("\n")  # an indented block's last line ends the text
            self.out.append("</code></pre>\n")

    def leaf(self, key: str, value: object) -> None:
        if key == "Text" or key == "InlineHtml" or key == "Html":
            if self.blocks and self.blocks[-1] == "CodeBlock":
                self.out.append(escape(value))  # type: ignore[arg-type]
            else:
                self.inline(escape(value))  # type: ignore[arg-type]
        elif key == "SoftBreak":
            self.inline("\n")
        elif key == "Code":
            self.inline(f"<code>{escape(value)}</code>")  # type: ignore[arg-type]
        elif key == "HardBreak":
            self.inline("<br />\n")
        elif key == "Rule":
            self.block("<hr />\n", None)
        else:
            raise ValueError(f"unsupported Markdown event {key}")


def to_html(text: str) -> str:
    """Render Markdown to HTML with raw HTML escaped and unsafe links left as text."""
    return _Writer(text).render()
