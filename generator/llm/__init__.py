"""The LLM plumbing under the SDK: the HTTP transport, the response cache and the call log."""

from generator.core.exports import lazy_exports

__all__ = [
    "read_log",
    "usage_by_day",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "read_log": "calllog",
        "usage_by_day": "calllog",
    },
)
