"""The Markdown renderer's safety: raw HTML escaped, only http(s) links, one escaping."""

from __future__ import annotations

import random
import re

import pytest

from generator.guides.markdown import to_html

TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>")
ALLOWED_TAGS = {
    "p", "em", "strong", "a", "img", "code", "pre", "ul", "ol", "li", "blockquote", "hr", "br",
    "h1", "h2", "h3", "h4", "h5", "h6",
}  # fmt: skip
ALLOWED_ATTRS = {"href", "src", "alt", "title", "class", "start"}


def assert_safe(html: str) -> None:
    """Fail unless every tag is one Markdown makes and every link is http(s) or in-page."""
    for match in TAG.finditer(html):
        name, attrs = match.group(2), match.group(3)
        assert name in ALLOWED_TAGS, match.group(0)
        names = re.findall(r'\s([a-zA-Z-]+)="[^"]*"', attrs)
        assert set(names) <= ALLOWED_ATTRS, match.group(0)
        assert re.fullmatch(r'(\s[a-zA-Z-]+="[^"<>]*")*\s?/?', attrs), match.group(0)
        for url in re.findall(r'\s(?:href|src)="([^"]*)"', attrs):
            assert url.startswith(("http://", "https://", "#")), match.group(0)


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("Hi <b>bold</b> there", "<p>Hi &lt;b&gt;bold&lt;/b&gt; there</p>\n"),
        ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"),
        (
            '<img src=x onerror="alert(1)">',
            "<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>\n",
        ),
        ("<!-- hidden -->", "<p>&lt;!-- hidden --&gt;</p>\n"),
        (
            "<div>\n*still Markdown*\n</div>",
            "<p>&lt;div&gt;\n<em>still Markdown</em>\n&lt;/div&gt;</p>\n",
        ),
        (
            "> <div onclick=x>quoted</div>",
            "<blockquote>\n<p>&lt;div onclick=x&gt;quoted&lt;/div&gt;</p>\n</blockquote>\n",
        ),
        (
            "<script>\nalert(1)\n\nalert(2)\n</script>",
            "<p>&lt;script&gt;\nalert(1)</p>\n<p>alert(2)\n&lt;/script&gt;</p>\n",
        ),
    ],
)
def test_raw_html_is_shown_as_escaped_text(markdown: str, expected: str):
    assert to_html(markdown) == expected


def test_a_line_that_opens_with_a_tag_still_renders_its_markdown_links():
    html = to_html("<span>see</span> [the post](https://example.org/post) and *this*")
    assert html == (
        '<p>&lt;span&gt;see&lt;/span&gt; <a href="https://example.org/post">the post</a> '
        "and <em>this</em></p>\n"
    )


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>\n"),
        ("[x](JavaScript:alert(1))", "<p>[x](JavaScript:alert(1))</p>\n"),
        ("[x]( javascript:alert(1) )", "<p>[x]( javascript:alert(1) )</p>\n"),
        ("[x](data:text/html,hi)", "<p>[x](data:text/html,hi)</p>\n"),
        ("[x](vbscript:msgbox)", "<p>[x](vbscript:msgbox)</p>\n"),
        ("[mail](mailto:a@example.org)", "<p>[mail](mailto:a@example.org)</p>\n"),
        ("[rel](/about) [up](../x)", "<p>[rel](/about) [up](../x)</p>\n"),
        ("[proto](//evil.example)", "<p>[proto](//evil.example)</p>\n"),
        ("[ftp](ftp://files.example)", "<p>[ftp](ftp://files.example)</p>\n"),
        ("[*em* text](mailto:a@b.org)", "<p>[<em>em</em> text](mailto:a@b.org)</p>\n"),
        ("<mailto:a@example.org>", "<p>&lt;mailto:a@example.org&gt;</p>\n"),
        ("<a@example.org>", "<p>&lt;a@example.org&gt;</p>\n"),
        ("![pic](javascript:x) ![rel](/a.png)", "<p>![pic](javascript:x) ![rel](/a.png)</p>\n"),
        ("[ref][bad]\n\n[bad]: mailto:a@b.org", "<p>[ref][bad]</p>\n"),
        ("é [x](/rel) ü", "<p>é [x](/rel) ü</p>\n"),
    ],
)
def test_only_http_links_become_links_and_others_stay_as_text(markdown: str, expected: str):
    assert to_html(markdown) == expected


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        (
            "[ok](https://example.org/a?b=1&c=2)",
            '<p><a href="https://example.org/a?b=1&amp;c=2">ok</a></p>\n',
        ),
        ("<http://example.org>", '<p><a href="http://example.org">http://example.org</a></p>\n'),
        ("[in page](#steps)", '<p><a href="#steps">in page</a></p>\n'),
        (
            '[t](http://a.org/"onmouseover=x)',
            '<p><a href="http://a.org/%22onmouseover=x">t</a></p>\n',
        ),
        ("[t](http://a.org/a b)", "<p>[t](http://a.org/a b)</p>\n"),
        ("[t](<http://a.org/a b>)", '<p><a href="http://a.org/a%20b">t</a></p>\n'),
        (
            "[t](http://bücher.example/ä)",
            '<p><a href="http://xn--bcher-kva.example/%C3%A4">t</a></p>\n',
        ),
        (
            '[t](https://a.org "say \\"hi\\" <b>")',
            '<p><a href="https://a.org" title="say &quot;hi&quot; &lt;b&gt;">t</a></p>\n',
        ),
        (
            '![a "b" <c>](https://a.org/i.png)',
            '<p><img src="https://a.org/i.png" alt="a &quot;b&quot; &lt;c&gt;" /></p>\n',
        ),
        ("[r]\n\n[r]: https://a.org/r 'T'", '<p><a href="https://a.org/r" title="T">r</a></p>\n'),
    ],
)
def test_http_links_are_kept_with_their_url_and_title_escaped(markdown: str, expected: str):
    assert to_html(markdown) == expected


def test_text_code_and_code_blocks_escape_the_same_four_characters():
    markdown = 'Tom & "Jerry" <x> \'ok\'\n\n`a<b && "c"`\n\n```py\nif a < b & c > "d":\n```'
    html = to_html(markdown)
    assert html == (
        "<p>Tom &amp; &quot;Jerry&quot; &lt;x&gt; 'ok'</p>\n"
        "<p><code>a&lt;b &amp;&amp; &quot;c&quot;</code></p>\n"
        '<pre><code class="language-py">if a &lt; b &amp; c &gt; &quot;d&quot;:\n</code></pre>\n'
    )


def test_entities_are_decoded_then_escaped_again():
    assert to_html("&copy; &amp; &lt;b&gt; &#65;") == "<p>© &amp; &lt;b&gt; A</p>\n"


def test_guide_structure_renders_as_commonmark():
    markdown = (
        "> Disclaimer line\n\n## What X reports\n\n- one\n- two\n  - nested\n\n"
        "1. first\n\n   more\n2. second\n\n3) third\n\nText  \nbreak\n\n---\n\n    code\n"
    )
    assert to_html(markdown) == (
        "<blockquote>\n<p>Disclaimer line</p>\n</blockquote>\n<h2>What X reports</h2>\n"
        "<ul>\n<li>one</li>\n<li>two\n<ul>\n<li>nested</li>\n</ul>\n</li>\n</ul>\n"
        "<ol>\n<li>\n<p>first</p>\n<p>more</p>\n</li>\n<li>\n<p>second</p>\n</li>\n</ol>\n"
        '<ol start="3">\n<li>third</li>\n</ol>\n<p>Text<br />\nbreak</p>\n<hr />\n'
        "<pre><code>code\n</code></pre>\n"
    )


def test_deeply_nested_raw_html_renders_without_recursion_errors():
    markdown = "".join("> " * depth + "<div>x</div>\n" for depth in range(1, 40))
    assert_safe(to_html(markdown))
    assert_safe(to_html("<div>\n" * 5000))


PIECES = [
    "a", "b c", "*", "_", "**", "`", "[", "]", "(", ")", "<", ">", "<b>", "</b>", "<div>",
    "<img src=x onerror=y>", "<a href='javascript:x'>", "&amp;", "&", '"', "'", "\n", "\n\n",
    "- ", "1. ", "> ", "# ", "    ", "```", "~~~", "http://x.org", "mailto:a@b", "javascript:x",
    "/rel", "#h", "![", "\\", "  \n", "---", "[r]: javascript:y\n", "[r]: http://y.org\n",
    "<http://z.org>", "<a@b.org>", "<javascript:x>", " ", "é", "%20", '"onclick=x', "<!--",
]  # fmt: skip


def test_random_markdown_never_yields_a_tag_or_link_markdown_did_not_make():
    rng = random.Random(12)
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 30)))
        assert_safe(to_html(text))
