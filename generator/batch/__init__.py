"""Batch drafting: request files and their records, submitting, resuming and collecting."""
