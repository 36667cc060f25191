"""originals.*: "Read the originals" is exactly what the records and verifications render."""

from __future__ import annotations

import re
from itertools import zip_longest

from generator.checks.base import CheckContext, ParsedGuide, finding, quote, record_file
from generator.guides.compose import originals_block
from generator.guides.document import ORIGINALS
from generator.guides.findings import Finding

CHECKED_PART = re.compile(r"·\s*(?:Checked\s+(\d{4}-\d{2}-\d{2})|Not yet checked)\s*$")


def _block_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def check_originals(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require "Read the originals" to be exactly what the records and verifications render."""
    section = guide.section(ORIGINALS)
    if section is None or not section.text:
        return []
    expected = _block_lines(originals_block(ctx.originals))
    actual = _block_lines(section.text)
    if expected == actual:
        return []
    rendered = originals_block(ctx.originals)
    if len(expected) == len(actual) and all(
        _only_older_checked(want, got) for want, got in zip(expected, actual, strict=True)
    ):
        return [
            finding(
                "originals.outdated",
                "warning",
                ORIGINALS,
                "newer Checked dates have been recorded since this guide was written; "
                "regenerate it (`prepguide generate "
                f"{ctx.source.key} --force`) or replace the block with: {quote(rendered, 600)}",
            )
        ]
    got, want = next(
        ((g, w) for g, w in zip_longest(actual, expected, fillvalue="") if g != w),
        ("", ""),
    )
    return [
        finding(
            "originals.mismatch",
            "error",
            ORIGINALS,
            f"'Read the originals' differs from the records: found {quote(got or '(nothing)')}, "
            f"expected {quote(want or '(nothing)')}. This block is rendered from "
            f"{record_file(ctx.source)} and verification; do not edit it by hand. Fix the "
            f"record instead and regenerate, or restore the block to: {quote(rendered, 600)}",
        )
    ]


def _only_older_checked(want: str, got: str) -> bool:
    """Return True when two lines differ only by an older (or missing) Checked date."""
    want_match, got_match = CHECKED_PART.search(want), CHECKED_PART.search(got)
    if want_match is None or got_match is None:
        return want == got
    if want[: want_match.start()] != got[: got_match.start()]:
        return False
    newer, older = want_match.group(1), got_match.group(1)
    if older is None:
        return True
    return newer is not None and older <= newer
