"""steps.count: 3 to 5 distinct list items under "Put it into practice"."""

from __future__ import annotations

from generator.checks.base import LIST_ITEM, CheckContext, ParsedGuide, finding, quote
from generator.core.names import plural
from generator.guides.document import PRACTICE
from generator.guides.findings import Finding


def check_steps(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require 3 to 5 distinct list items under "Put it into practice"."""
    practice = guide.section(PRACTICE)
    if practice is None:
        return []
    items = [m.group(1) for line in practice.text.splitlines() if (m := LIST_ITEM.match(line))]
    keys = [" ".join(item.casefold().rstrip(".!;").split()) for item in items]
    distinct = set(keys)
    if 3 <= len(distinct) <= 5 and len(distinct) == len(items):
        return []
    repeated = sorted({items[i] for i, key in enumerate(keys) if keys.index(key) != i})
    detail = f"; repeated: {', '.join(quote(item, 80) for item in repeated)}" if repeated else ""
    return [
        finding(
            "steps.count",
            "error",
            PRACTICE,
            f"found {plural(len(items), 'list item')} ({len(distinct)} distinct){detail}; "
            "write 3 to 5 distinct steps as '- ' items",
        )
    ]
