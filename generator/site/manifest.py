"""Manifest: what the last build of an output folder made (each page's file and input key)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from generator.core.fsio import atomic_write_text
from generator.site.storage import CACHE_DIR, move_aside, no_collection

MANIFEST_VERSION = 2


class PageEntry(BaseModel):
    """A page of the last build: its content, the file that holds it, and its input key."""

    model_config = ConfigDict(extra="forbid")

    digest: str
    size: int
    inode: int
    mtime_ns: int
    key: str | None = None


class Manifest(BaseModel):
    """What the last build of one output folder made, and from which inputs."""

    model_config = ConfigDict(extra="forbid")

    version: int = MANIFEST_VERSION
    fingerprint: str = ""
    pages: dict[str, PageEntry] = {}
    left_out: dict[str, str] = {}
    problems: list[str] = []
    guides: list[str] = []
    drafts: list[str] = []
    missing: list[str] = []
    flagged: dict[str, str] = {}
    # The warnings about example records (example: true), said again while they are the same.
    examples: list[str] = []
    # What the build was made from: settings, code and date (base), and each input file.
    base: str = ""
    signatures: dict[str, str] = {}
    # The key of the root's templates, words and static files (site/theme.py).
    theme: str = ""
    # The site's folders as this build left them (inode, mtime), and the files it linked over
    # without managing them; the same for the site before it, kept as the spare (see Trees).
    folders: dict[str, tuple[int, int]] = {}
    carried: list[str] = []
    spare_folders: dict[str, tuple[int, int]] = {}
    spare_files: list[str] = []


def manifest_file(state_dir: Path, out_dir: Path) -> Path:
    """Return the manifest path of an output folder."""
    folder = state_dir / CACHE_DIR
    key = hashlib.sha256(str(out_dir.resolve()).encode()).hexdigest()[:16]
    return folder / f"manifest-{key}.json"


def read_manifest(path: Path, warnings: list[str]) -> Manifest:
    """Read the manifest; one that is not valid is moved aside with a warning."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Manifest()
    except (OSError, UnicodeDecodeError) as exc:
        move_aside(path, f"unreadable publish manifest ({exc})", warnings)
        return Manifest()
    try:
        with no_collection():
            manifest = Manifest.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "manifest"
        move_aside(path, f"invalid publish manifest ({where}: {first['msg']})", warnings)
        return Manifest()
    if manifest.version != MANIFEST_VERSION:
        move_aside(path, f"publish manifest version {manifest.version}", warnings)
        return Manifest()
    return manifest


def write_manifest(path: Path, manifest: Manifest) -> None:
    """Write the manifest atomically."""
    atomic_write_text(path, manifest.model_dump_json(indent=0))


def unchanged(manifest: Manifest, fingerprint: str, out_dir: Path) -> bool:
    """Return True when no input changed and every page is the file the manifest names."""
    if not manifest.fingerprint or manifest.fingerprint != fingerprint:
        return False
    folder = os.fspath(out_dir)
    return all(
        _same_file(os.path.join(folder, relative), entry)
        for relative, entry in manifest.pages.items()
    )


def same_site(manifest: Manifest, keys: dict[str, str], out_dir: Path) -> bool:
    """Return True when the site would get exactly the pages it has: no page to build."""
    if set(manifest.pages) != set(keys):
        return False
    if any(entry.key != keys[relative] for relative, entry in manifest.pages.items()):
        return False
    folder = os.fspath(out_dir)
    return all(
        _same_file(os.path.join(folder, relative), entry)
        for relative, entry in manifest.pages.items()
    )


def _same_file(path: Path | str, entry: PageEntry) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    return (st.st_size, st.st_ino, st.st_mtime_ns) == (entry.size, entry.inode, entry.mtime_ns)
