"""The small core under every stage: errors, time, file writes, workers, names, URLs, settings."""
