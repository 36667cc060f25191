"""One exception family; every error names the file, the record and the rule."""

from __future__ import annotations

import errno
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


_OS_ADVICE = {
    errno.ENOSPC: "the disk is full: free some space, then run the command again",
    errno.EDQUOT: "the disk quota is used up: free some space, then run the command again",
    errno.EROFS: "the file system is read-only: remount it writable or work on a copy",
    errno.EACCES: "permission denied: check the owner and mode of the path",
    errno.EPERM: "operation not permitted: check the owner and mode of the path",
    errno.EIO: "input/output error: the disk may be failing; check it, then run again",
    errno.ENOENT: "no such file or folder: check the path and --root",
    errno.EISDIR: "it is a folder where a file was expected",
    errno.ENOTDIR: "a part of the path is a file where a folder was expected",
    errno.EMFILE: "too many open files: raise the limit (ulimit -n) and run again",
}


class StorageError(PrepguideError):
    """The file system refused a read or write: read-only, full, no permission, ..."""

    @classmethod
    def from_os(cls, exc: OSError, path: Path | str | None = None) -> StorageError:
        """Describe an OSError in one line: what failed, where, and what to do."""
        name = errno.errorcode.get(exc.errno or 0, "")
        advice = _OS_ADVICE.get(exc.errno or 0, "check the path and the disk, then run again")
        reason = exc.strerror or str(exc)
        return cls(
            f"{reason}" + (f" ({name})" if name else "") + f"; {advice}",
            path=path or exc.filename,
            rule="storage",
        )


class WorkerError(PrepguideError):
    """A worker process died before it finished its share of the work."""


def _rebuild(kind: type[PrepguideError], message: str, fields: dict) -> PrepguideError:
    return kind(message, **fields)
