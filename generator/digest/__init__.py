"""The weekly digest: an issue built from published guides, frozen as mail, sent once each."""

from generator.core.exports import lazy_exports

__all__ = [
    "MailError",
    "freeze_issue",
    "last_full_week",
    "parse_week",
    "published_records",
    "read_frozen",
    "read_subscribers",
    "read_suppressions",
    "send_lock",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "MailError": "mail",
        "freeze_issue": "build",
        "last_full_week": "issue",
        "parse_week": "issue",
        "published_records": "build",
        "read_frozen": "mail",
        "read_subscribers": "subscribers",
        "read_suppressions": "suppressions",
        "send_lock": "lock",
    },
)
