"""Reader and writer for guides/: one Markdown file per guide, with a history of versions."""

from __future__ import annotations

from pathlib import Path

from generator.clock import now
from generator.errors import GuideError
from generator.fsio import atomic_write_text, sha256_text
from generator.guides import GuideDoc, parse, serialize

HISTORY_DIR = ".history"


class GuideStore:
    """The guides folder of a workspace."""

    def __init__(self, guides_dir: Path) -> None:
        self.dir = guides_dir

    def path(self, guide_id: str) -> Path:
        return self.dir / f"{guide_id}.md"

    def history_dir(self, guide_id: str) -> Path:
        return self.dir / HISTORY_DIR / guide_id

    def ids(self) -> list[str]:
        """List guide ids in a stable order."""
        if not self.dir.is_dir():
            return []
        return sorted(path.stem for path in self.dir.glob("*.md"))

    def read_text(self, guide_id: str) -> str | None:
        try:
            return self.path(guide_id).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError as exc:
            raise GuideError("not UTF-8", path=self.path(guide_id), record_id=guide_id) from exc

    def read(self, guide_id: str) -> GuideDoc | None:
        """Parse a guide, or return None when it does not exist."""
        text = self.read_text(guide_id)
        return None if text is None else parse(text, str(self.path(guide_id)))

    def keep_copy(self, guide_id: str) -> Path | None:
        """Copy the current file into the history folder unless an identical copy exists."""
        text = self.read_text(guide_id)
        if text is None:
            return None
        digest = sha256_text(text)[:12]
        folder = self.history_dir(guide_id)
        for existing in folder.glob(f"*-{digest}.md") if folder.is_dir() else []:
            return existing
        stamp = now().strftime("%Y%m%dT%H%M%SZ")
        target = folder / f"{stamp}-{digest}.md"
        atomic_write_text(target, text)
        return target

    def history(self, guide_id: str) -> list[Path]:
        """List kept versions, oldest first."""
        folder = self.history_dir(guide_id)
        return sorted(folder.glob("*.md")) if folder.is_dir() else []

    def write(self, doc: GuideDoc) -> None:
        """Write a guide atomically, keeping a copy of any different previous version."""
        text = serialize(doc)
        if self.read_text(doc.meta.id) not in (None, text):
            self.keep_copy(doc.meta.id)
        atomic_write_text(self.path(doc.meta.id), text)
