"""Source records: the model and reader, YAML reading, import, citations and topic statistics."""

from generator.core.exports import lazy_exports

__all__ = [
    "compute_topics",
    "import_records",
    "is_valid_id",
    "read_import_file",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "compute_topics": "topics",
        "import_records": "importer",
        "is_valid_id": "records",
        "read_import_file": "importer",
    },
)
