"""Wrong edits of the classes the checks caught before issue 13: links, structure, citations,
template leftovers."""

from __future__ import annotations

import re

from .edits import add_paragraph, append_sentence
from .kinds import CITATION, LEFTOVER, LINK, STRUCTURE
from .model import Registry
from .text import join_steps, steps_of

R = Registry()


@R.add(LINK, "url_in_step", "steps")
def _url_in_step(text, guide, rng):
    before, items, after = steps_of(text)
    if not items:
        return None
    items[-1] = f"{items[-1].rstrip('.')} (see https://scaling-tips.example.net/guide)."
    return join_steps(before, items, after)


@R.add(LINK, "markdown_link", "interpretation")
def _markdown_link(text, guide, rng):
    return append_sentence(
        text, "Start from [this checklist](https://evil.example.com/checklist) before you plan."
    )


@R.add(LINK, "bare_host", "case_study")
def _bare_host(text, guide, rng):
    return append_sentence(text, "Download a starter dataset from datasets-hub.io first.")


@R.add(LINK, "email", "case_study", held_out=True)
def _email(text, guide, rng):
    return add_paragraph(text, "Questions? Write to tips@careers.example.org.")


@R.add(STRUCTURE, "reports_heading_dropped", "reports", whole=True)
def _reports_heading_dropped(guide, rng):
    body = guide.parsed()
    at = body.index("reports")
    if at is None:
        return None
    merged = f"{body.preamble}\n\n{body.texts[at]}"
    del body.headings[at], body.texts[at]
    body.preamble = merged
    return body.render()


@R.add(STRUCTURE, "sections_swapped", "interpretation", whole=True)
def _sections_swapped(guide, rng):
    body = guide.parsed()
    a, b = body.index("interpretation"), body.index("case_study")
    if a is None or b is None:
        return None
    body.headings[a], body.headings[b] = body.headings[b], body.headings[a]
    body.texts[a], body.texts[b] = body.texts[b], body.texts[a]
    return body.render()


@R.add(STRUCTURE, "disclaimer_dropped", "preamble", whole=True)
def _disclaimer_dropped(guide, rng):
    body = guide.parsed()
    body.preamble = ""
    return body.render()


@R.add(STRUCTURE, "reports_renamed", "reports", whole=True, held_out=True)
def _reports_renamed(guide, rng):
    body = guide.parsed()
    at = body.index("reports")
    if at is None:
        return None
    body.headings[at] = f"What {guide.company} says"
    return body.render()


@R.add(STRUCTURE, "section_emptied", "case_study", whole=True)
def _section_emptied(guide, rng):
    body = guide.parsed()
    at = body.index("case_study")
    if at is None:
        return None
    body.texts[at] = ""
    return body.render()


def _originals_sub(text, pattern, repl):
    new = re.sub(pattern, repl, text, count=1)
    return new if new != text else None


@R.add(CITATION, "published_changed", "originals")
def _published_changed(text, guide, rng):
    return _originals_sub(
        text,
        r"Published (\d{4})-(\d\d)-(\d\d)",
        lambda m: f"Published {m.group(1)}-{m.group(2)}-{(int(m.group(3)) % 27) + 1:02d}",
    )


@R.add(CITATION, "checked_changed", "originals")
def _checked_changed(text, guide, rng):
    return _originals_sub(text, r"Checked \d{4}-\d\d-\d\d", "Checked 2026-11-29")


@R.add(CITATION, "url_changed", "originals")
def _url_changed(text, guide, rng):
    return _originals_sub(text, r"\(<https?://([^/>]+)/", r"(<https://\1/archive/")


@R.add(CITATION, "title_changed", "originals", held_out=True)
def _title_changed(text, guide, rng):
    return _originals_sub(text, r"- \[([^\]]+?) ↗\]", r"- [\1, revised ↗]")


@R.add(LEFTOVER, "jinja_variable", "interpretation")
def _jinja_variable(text, guide, rng):
    return append_sentence(text, "Compare your design with {{ company }}'s approach.")


@R.add(LEFTOVER, "todo_note", "case_study")
def _todo_note(text, guide, rng):
    return append_sentence(text, "TODO: add the latency figure.")


@R.add(LEFTOVER, "insert_placeholder", "reports")
def _insert_placeholder(text, guide, rng):
    return append_sentence(text, "The team also reports [insert metric here].")


@R.add(LEFTOVER, "lorem_ipsum", "steps", held_out=True)
def _lorem_ipsum(text, guide, rng):
    return add_paragraph(text, "Lorem ipsum dolor sit amet.")
