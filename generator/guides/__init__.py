"""The guide document and its store, the draft schema, composing a body, findings, Markdown."""

from generator.core.exports import lazy_exports

__all__ = [
    "Project",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Project": "project",
    },
)
