"""quotes.*: quotations of the source are verbatim; an ellipsis cannot stitch a new meaning."""

from __future__ import annotations

from generator.checks.analysis import analysis
from generator.checks.base import CheckContext, ParsedGuide, finding, quote
from generator.checks.quoting import EDGE_PUNCTUATION, ELLIPSIS, find_quotes, is_verbatim, normalize
from generator.checks.subjects import speaks_for_company
from generator.checks.text import record_index
from generator.guides.document import REPORTS
from generator.guides.findings import Finding


def _fragments(text: str) -> list[str]:
    parts = [normalize(part).strip(EDGE_PUNCTUATION) for part in ELLIPSIS.split(text)]
    return [part for part in parts if part]


def stitched(text: str, ctx: CheckContext) -> bool:
    """Return True when an ellipsis joins more than two fragments, or two of different sentences."""
    fragments = _fragments(text)
    if len(fragments) < 2:
        return False
    if len(fragments) > 2:
        return True
    first, second = fragments
    for unit in record_index(ctx.source).units:
        at = unit.norm.find(first)
        if at >= 0 and unit.norm.find(second, at + len(first)) >= 0:
            return False
    return True


def check_quotes(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require quotations in "reports", or attributed to the company anywhere, to be verbatim."""
    shared = analysis(guide, ctx)
    text = shared.grounding_text
    findings = []
    for block in guide.blocks:
        for found in find_quotes(block.text):
            if block.section == REPORTS:
                rule = "quotes.verbatim"
            elif speaks_for_company(block.text, found.start, ctx):
                rule = "quotes.attributed"
            else:
                continue
            if not is_verbatim(found.text, text):
                findings.append(
                    finding(
                        rule,
                        "error",
                        block.section,
                        f"quotation {quote(found.text)} is not verbatim in "
                        f"{shared.record_file}; copy the source's exact words or paraphrase "
                        "without quotation marks",
                    )
                )
            elif stitched(found.text, ctx):
                findings.append(
                    finding(
                        "quotes.ellipsis",
                        "error",
                        block.section,
                        f"quotation {quote(found.text)} joins fragments with an ellipsis that "
                        f"are not two parts of one sentence of {shared.record_file}, in order; "
                        "quote one passage, or quote the sentences separately",
                    )
                )
    return findings
