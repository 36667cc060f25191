"""The verdict cache: a guide's findings kept in SQLite under .prepguide/, keyed by every input.

Two levels. `findings`: the undated rules' findings of a text, keyed by checks.verdict_key
(the checks' code version, the text and its evidence, the record, the ledger rows of its URLs
as resolved into its originals, the settings the rules read, and the database-wide vocabulary
and company names: a vocabulary change re-checks every guide). The one rule that reads the
date (citations: freshness, dates after today) and the staleness warning are cheap and run
every time. `rows`: what a command showed of a guide, keyed by the signatures (path, inode,
size, mtime) of every file it was made from, the checks' code version and the date, so that a
command over unchanged files parses nothing. A damaged file is set aside as the LLM cache sets
one aside; it only ever costs time.
"""

from __future__ import annotations

from generator.checks.base import parse_guide_body
from generator.checks.citations import check_citations, citation_findings
from generator.checks.engine import (
    RULES,
    CheckContext,
    doc_evidence,
    staleness_findings,
    verdict_key,
)
from generator.checks.verdictstore import VerdictStore
from generator.guides.document import GuideDoc
from generator.guides.findings import Finding

_CUT = RULES.index(check_citations)
HEAD, TAIL = RULES[:_CUT], RULES[_CUT + 1 :]


class VerdictCache(VerdictStore):
    """The verdict store, with the findings of texts that the undated rules judged."""

    def __init__(self, path, warnings: list[str] | None = None) -> None:
        super().__init__(path, warnings)
        self.computed = 0  # texts whose undated rules ran in this process

    def undated(self, doc: GuideDoc, ctx: CheckContext) -> tuple[list[Finding], list[Finding]]:
        """Return the undated rules' findings before and after the dated rule, cached by key."""
        key = verdict_key(doc, ctx)
        stored = self.get("findings", key)
        try:
            head = [Finding.model_validate(item) for item in stored["head"]]  # type: ignore[index]
            tail = [Finding.model_validate(item) for item in stored["tail"]]  # type: ignore[index]
            return head, tail
        except (TypeError, KeyError, ValueError):
            pass
        guide = parse_guide_body(doc.body, ctx.site_name, doc_evidence(doc))
        head = [found for rule in HEAD for found in rule(guide, ctx)]
        tail = [found for rule in TAIL for found in rule(guide, ctx)]
        self.computed += 1
        value = {"head": [f.model_dump() for f in head], "tail": [f.model_dump() for f in tail]}
        self.put_many("findings", [(key, value)])
        return head, tail

    def check(self, doc: GuideDoc, ctx: CheckContext) -> list[Finding]:
        """Return what checks.check_guide returns, running only what is not cached."""
        head, tail = self.undated(doc, ctx)
        return [*head, *citation_findings(ctx), *tail, *staleness_findings(doc, ctx)]
