"""Source records: the model and reader, YAML reading, import, citations and topic statistics."""
