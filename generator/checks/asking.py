"""Ask the configured model for the judge's second opinions: the network side of the judge."""

from __future__ import annotations

import asyncio
import os

from generator.checks.engine import doc_evidence
from generator.checks.judge import Judge
from generator.checks.runner import check_context
from generator.core.errors import ConfigError
from generator.guides.findings import Finding
from generator.llm.cache import ResponseCache
from generator.llm.client import env, make_client


def make_judge(project, model: str | None = None) -> Judge:
    """Build a judge from OPENAI_API_KEY, OPENAI_BASE_URL and the [llm] settings.

    Its client is the drafting one: one deadline per request and the same answer size cap.
    """
    key = env("OPENAI_API_KEY")
    if not key:
        raise ConfigError("check --judge needs OPENAI_API_KEY (and the [llm] model)", rule="judge")
    settings = project.settings.llm
    chosen = (model or "").strip() or os.environ.get("PREPGUIDE_MODEL", "").strip()
    client = make_client(key, settings)
    cache = ResponseCache.in_state_dir(project.workspace.state_dir)
    return Judge(client, chosen or settings.model, cache)


def judge_guides(project, ids: list[str]) -> dict[str, list[Finding]]:
    """Ask the judge about every reported claim of the named guides; return warnings per id."""
    judge = make_judge(project)

    async def run() -> dict[str, list[Finding]]:
        out: dict[str, list[Finding]] = {}
        try:
            for guide_id in ids:
                doc = project.guides.read(guide_id)
                source = project.source(guide_id)
                if doc is None or source is None:
                    continue
                ctx = check_context(project, source)
                out[guide_id] = await judge.judge(doc.body, ctx, doc_evidence(doc))
        finally:
            await judge.client.close()
            if judge.cache is not None:
                judge.cache.close()
        return out

    return asyncio.run(run())


__all__ = ["judge_guides", "make_judge"]
