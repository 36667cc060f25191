"""Editorial review: transitions, state files, audit trail, live re-checks, evidence, the page."""

from generator.review.desk import default_reviewer, neighbours, next_to_review
from generator.review.diffs import Diff, diff_previous, diff_published
from generator.review.queue import (
    INDEX_EXTRA,
    STATUSES,
    WITHDRAW_REASONS,
    GuideFlags,
    GuideReview,
    LiveGuide,
    audit_log,
    guide_flags,
    inspect,
    live_version,
    log,
    queue,
    queue_index,
)
from generator.review.state import LiveRecord, ReviewState, read_state, repair
from generator.review.transitions import (
    Outcome,
    approve,
    approve_many,
    mark_published,
    normalize_reason,
    record_revision,
    reject,
    withdraw,
)

__all__ = [
    "INDEX_EXTRA",
    "STATUSES",
    "WITHDRAW_REASONS",
    "Diff",
    "GuideFlags",
    "GuideReview",
    "LiveGuide",
    "LiveRecord",
    "Outcome",
    "ReviewState",
    "approve",
    "approve_many",
    "audit_log",
    "default_reviewer",
    "diff_previous",
    "diff_published",
    "guide_flags",
    "inspect",
    "live_version",
    "log",
    "mark_published",
    "neighbours",
    "next_to_review",
    "normalize_reason",
    "queue",
    "queue_index",
    "read_state",
    "record_revision",
    "reject",
    "repair",
    "withdraw",
]
