"""Editorial review: transitions, state files, audit trail, live re-checks, evidence, the page."""
