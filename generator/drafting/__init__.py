"""Drafting: prompts, the playbook, the offline and OpenAI drafters, planning and running."""

from generator.core.exports import lazy_exports

__all__ = [
    "GenerateReport",
    "Generation",
    "Planned",
    "export_prompts",
    "init_root",
    "make_openai_drafter",
    "revise",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "GenerateReport": "run",
        "Generation": "run",
        "Planned": "plan",
        "export_prompts": "scaffold",
        "init_root": "scaffold",
        "make_openai_drafter": "backends",
        "revise": "revise",
    },
)
