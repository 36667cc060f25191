"""Batch drafting: request files and their records, submitting, resuming and collecting."""

from generator.core.exports import lazy_exports

__all__ = [
    "BatchStore",
    "Limits",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "BatchStore": "requests",
        "Limits": "run",
    },
)
