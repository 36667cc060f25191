"""The guide document and its store, the draft schema, composing a body, findings, Markdown."""
