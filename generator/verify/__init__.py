"""Link verification: probes that earn the Checked date, and the ledger that records them."""

from generator.core.exports import lazy_exports

__all__ = [
    "VerifyRow",
    "check_links",
    "collect_targets",
    "due_targets",
    "record_manual",
    "report",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "VerifyRow": "run",
        "check_links": "run",
        "collect_targets": "run",
        "due_targets": "run",
        "record_manual": "run",
        "report": "run",
    },
)
