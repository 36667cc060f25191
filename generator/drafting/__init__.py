"""Drafting: prompts, the playbook, the offline and OpenAI drafters, planning and running."""
