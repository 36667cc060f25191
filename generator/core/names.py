"""Rules for text that becomes an id, a slug, a tag key or a page: one place for all callers."""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import AfterValidator

from generator.core.urls import describe_char

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")
WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul", *(f"{port}{n}" for port in ("com", "lpt") for n in range(10))]
)
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
UNSAFE_ON_A_TERMINAL = re.compile(
    r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def id_problem(text: object) -> str | None:
    """Say why text cannot be a record or guide id, or return None for a valid id."""
    if not isinstance(text, str) or not ID_PATTERN.fullmatch(text):
        if isinstance(text, str) and ID_PATTERN.fullmatch("a" + text.lstrip("-")):
            return (
                "must start with a letter or digit, not '-' (a command would read it as an option)"
            )
        return "must be 1-80 characters of a-z, 0-9 and '-'"
    if text.split(".")[0].casefold() in WINDOWS_RESERVED:
        return "is a reserved device name on Windows, so its files could not be copied there"
    return None


def is_valid_id(text: object) -> bool:
    """Return True if text may name a record, a guide file and a page folder."""
    return id_problem(text) is None


def control_problem(text: str) -> str | None:
    """Name the first control character other than tab and newline in text, if any."""
    found = CONTROL_CHARS.search(text)
    if found is None:
        return None
    return (
        f"contains the control character {describe_char(found.group())} at character "
        f"{found.start() + 1}; remove it"
    )


def escape_controls(text: str) -> str:
    """Show control and bidirectional characters as escapes, so a message is one honest line."""
    return UNSAFE_ON_A_TERMINAL.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def _plain_text(value: str) -> str:
    problem = control_problem(value)
    if problem:
        raise ValueError(problem)
    return value


Text = Annotated[str, AfterValidator(_plain_text)]

# A company or a tag names a page's folder (its slug): at most 4 bytes a character in UTF-8,
# this many characters stay under the 255 bytes a file name may have.
MAX_NAME = 60


def _short_name(value: str) -> str:
    if len(value) > MAX_NAME:
        raise ValueError(
            f"is {len(value)} characters long; at most {MAX_NAME} (it names a page's folder)"
        )
    return value


# A company, technique or stack tag: plain text short enough to become a folder name.
Name = Annotated[str, AfterValidator(_plain_text), AfterValidator(_short_name)]


def normalize_tag(tag: str) -> str:
    """Return the matching key of a tag: trimmed, case-folded and in composed (NFC) form."""
    return unicodedata.normalize("NFC", tag.strip().casefold())


def _slug_char(char: str) -> str:
    return char if unicodedata.category(char)[0] in "LM" or char.isdecimal() else "-"


def slugify(text: str) -> str:
    """Case-fold text, keep letters and digits of any script, turn other runs into one '-'.

    A Windows device name ("con", "lpt1") gets "-page" appended, so the folder can be copied.
    """
    folded = unicodedata.normalize("NFC", text.casefold())
    if folded.isascii():
        slug = re.sub(r"[^a-z0-9]+", "-", folded).strip("-")
    else:
        slug = re.sub(r"-+", "-", "".join(map(_slug_char, folded))).strip("-")
    return f"{slug}-page" if slug in WINDOWS_RESERVED else slug


def plural(count: int, noun: str, many: str | None = None) -> str:
    """Return a count and its noun, "1 guide" but "2 guides"; many is an irregular plural."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"
