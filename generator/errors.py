"""One exception family; every error names the file, the record and the rule."""

from __future__ import annotations

from pathlib import Path


class PrepguideError(Exception):
    """Base error carrying where it happened and which rule it broke."""

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        record_id: str | None = None,
        rule: str | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.record_id = record_id
        self.rule = rule
        self.field = field

    def __reduce__(self):
        """Keep path, record, rule and field when the error crosses a process boundary."""
        fields = {"path": self.path, "record_id": self.record_id, "rule": self.rule}
        return _rebuild, (type(self), self.message, {**fields, "field": self.field})

    def __str__(self) -> str:
        where = self.path or ""
        if self.field:
            where = f"{where}: {self.field}" if where else self.field
        return f"{where}: {self.message}" if where else self.message


class ConfigError(PrepguideError):
    """prepguide.toml or the environment is invalid."""


class SourceError(PrepguideError):
    """A source record cannot be read or violates the record contract."""


class ImportConflict(PrepguideError):
    """An import would overwrite a different existing file."""


class GuideError(PrepguideError):
    """A guide file cannot be read or written."""


class DraftError(PrepguideError):
    """A drafter could not produce a valid draft for one guide."""


class AuthError(PrepguideError):
    """The LLM endpoint refused our credentials; the whole run stops."""


class ReviewError(PrepguideError):
    """A review action is refused by the rules."""


class PublishError(PrepguideError):
    """The site cannot be built as asked."""


class WorkerError(PrepguideError):
    """A worker process died before it finished its share of the work."""


def _rebuild(kind: type[PrepguideError], message: str, fields: dict) -> PrepguideError:
    return kind(message, **fields)
