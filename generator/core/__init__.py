"""The small core under every stage: errors, time, file writes, workers, names, URLs, settings."""

from generator.core.exports import lazy_exports

__all__ = [
    "ConfigError",
    "PrepguideError",
    "StorageError",
    "escape_controls",
    "plural",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "ConfigError": "errors",
        "PrepguideError": "errors",
        "StorageError": "errors",
        "escape_controls": "names",
        "plural": "names",
    },
)
