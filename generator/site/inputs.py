"""Inputs: the signature (size, mtime, inode) of every input file, and the keys made of them.

A build's inputs are its records, guides and state files; a file whose signature is the one
the last build saw is taken to be unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

from generator.checks.verdictstore import FILE_NAME as VERDICTS_FILE
from generator.core.codeversion import code_version
from generator.core.parsed import FILE_NAME as PARSED_FILE
from generator.guides.project import Project
from generator.guides.store import GROUP_FILE, HISTORY_DIR, REVIEW_DIR
from generator.site.storage import CACHE_DIR


def walk(
    folder: Path | str, skip: Path | str | tuple[str, ...] | None = None
) -> Iterator[os.DirEntry]:
    """Yield the files below folder in a stable order, leaving out the skip folder(s)."""
    skipped = (os.fspath(skip),) if isinstance(skip, (str, Path)) else skip or ()
    pending = [os.fspath(folder)]
    while pending:
        current = pending.pop()
        try:
            entries = sorted(os.scandir(current), key=lambda e: e.name)
        except (FileNotFoundError, NotADirectoryError):
            continue
        folders = []
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.path not in skipped:
                    folders.append(entry.path)
            elif entry.is_file():
                yield entry
        pending.extend(reversed(folders))


def _signature(st: os.stat_result) -> str:
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def input_signatures(project: Project, previous: dict[str, str] | None = None) -> dict[str, str]:
    """Return a signature (size, mtime, inode) of every file the site may be made from.

    With the previous build's signatures, the kept revisions of a guide whose review state
    did not change are the files that build saw, each looked at again (stat) instead of its
    folder being listed: a guide's pages read only the revision its review state names.
    """
    ws = project.workspace
    skipped = [os.fspath(ws.state_dir / CACHE_DIR)]
    guides = os.fspath(project.guides.dir)
    history = os.path.join(guides, HISTORY_DIR)
    if previous:
        skipped.append(history)
    found = {}
    for folder in (ws.sources_dir, ws.guides_dir, ws.state_dir):
        for entry in walk(folder, skip=tuple(skipped)):
            if entry.name.endswith(SKIPPED_SUFFIXES) or entry.name.startswith(CACHES):
                continue  # the verdict cache and the parsed index change no result, only time
            found[entry.path] = _signature(entry.stat())
    if previous:
        group = os.path.join(guides, REVIEW_DIR, GROUP_FILE)
        if group in found or group in previous:  # its states may name revisions not yet seen
            for entry in walk(history):
                if not entry.name.endswith(SKIPPED_SUFFIXES):
                    found[entry.path] = _signature(entry.stat())
        else:
            _history_signatures(guides, previous, found)
    return found


SKIPPED_SUFFIXES = (".pyc", ".tmp", ".lock")
CACHES = (VERDICTS_FILE, PARSED_FILE)


def _history_signatures(guides: str, previous: dict[str, str], found: dict[str, str]) -> None:
    """Add the signatures of the kept revisions (see input_signatures) to found."""
    history = os.path.join(guides, HISTORY_DIR) + os.sep
    review = os.path.join(guides, REVIEW_DIR) + os.sep
    kept: dict[str, list[str]] = {}
    for path in previous:
        if path.startswith(history):
            kept.setdefault(path[len(history) :].split(os.sep, 1)[0], []).append(path)
    ids = {path[len(review) :].rpartition(".")[0] for path in found if path.startswith(review)}
    # A guide without a review state reads no revision; its files are kept as they were seen.
    for guide_id in sorted(ids | kept.keys()):
        if not guide_id:
            continue
        state = (f"{review}{guide_id}.json", f"{review}{guide_id}.pending")
        if all(found.get(path) == previous.get(path) for path in state):
            for path in kept.get(guide_id, ()):
                try:
                    found[path] = _signature(os.stat(path))
                except OSError:
                    continue
            continue
        for entry in walk(history + guide_id):
            if not entry.name.endswith(SKIPPED_SUFFIXES):
                found[entry.path] = _signature(entry.stat())


def base_fingerprint(project: Project, out_dir: Path, preview: bool, strict: bool = False) -> str:
    """Hash what every page depends on: settings, code and templates, the date and the mode."""
    digest = hashlib.sha256()
    header = [code_version(), str(out_dir.resolve()), preview, project.today.isoformat()]
    header += ["strict"] if strict else []
    digest.update(json.dumps(header).encode())
    digest.update(project.settings.model_dump_json().encode())
    config = project.workspace.config_path
    if config.exists():
        digest.update(config.read_bytes())
    return digest.hexdigest()


def input_fingerprint(base: str, signatures: dict[str, str]) -> str:
    """Hash what the site is made from: the base, and every input file's signature."""
    digest = hashlib.sha256(base.encode())
    for path in sorted(signatures):  # the same files in any order: the same inputs
        digest.update(f"{path}\0{signatures[path]}\n".encode())
    return digest.hexdigest()


def changed_paths(before: dict[str, str], after: dict[str, str]) -> set[str]:
    """Return the input files whose signature differs between two builds (or that came or went)."""
    changed = {path for path, signature in after.items() if before.get(path) != signature}
    changed.update(path for path in before if path not in after)
    return changed


def only_working_files(project: Project, changed: set[str], live: list[str]) -> bool:
    """Return True when the only inputs that changed are working files of live guides.

    A live guide's pages are made from its approved revision, never from guides/<id>.md, so
    editing (or deleting) that file changes no page.
    """
    if not changed:
        return False
    folder = os.fspath(project.guides.dir)
    files = {os.path.join(folder, f"{guide_id}.md") for guide_id in live}
    return changed <= files


def records_key(project: Project, signatures: dict[str, str]) -> str:
    """Hash the signature of every file in sources/ (records and the verification ledger)."""
    sources = os.fspath(project.workspace.sources_dir) + os.sep
    head = f"{project.settings.topics.min_sources}\0{sources}"
    kept = _RECORDS_KEY.get(id(signatures))
    if kept is not None and kept[0] is signatures and kept[1] == head:
        return kept[2]  # the same signatures of this build: hashed once
    digest = hashlib.sha256(str(project.settings.topics.min_sources).encode())
    for path, signature in signatures.items():
        if path.startswith(sources):
            digest.update(f"{path}\0{signature}\n".encode())
    _RECORDS_KEY.clear()
    _RECORDS_KEY[id(signatures)] = (signatures, head, digest.hexdigest())
    return digest.hexdigest()


_RECORDS_KEY: dict[int, tuple[dict[str, str], str, str]] = {}


def own_files(guides: str, guide_id: str, signatures: dict[str, str]) -> list[str]:
    """Return the files of one guide among the signatures (as guide_of_path assigns them)."""
    review = os.path.join(guides, REVIEW_DIR)
    named = [
        os.path.join(guides, f"{guide_id}.md"),
        *(os.path.join(review, f"{guide_id}{suffix}") for suffix in (".json", ".pending")),
    ]
    files = [path for path in named if path in signatures]
    history = os.path.join(guides, HISTORY_DIR, guide_id) + os.sep
    files += [path for path in signatures if path.startswith(history)]
    return files


def guide_of_path(guides: str, path: str) -> str | None:
    """Return the guide whose own file path is (working file, review state, history), if any."""
    if not path.startswith(guides + os.sep):
        return None
    parts = path[len(guides) + 1 :].split(os.sep)
    if len(parts) == 1 and parts[0].endswith(".md"):
        return parts[0][:-3]
    if len(parts) == 2 and parts[0] == REVIEW_DIR:
        stem = parts[1].rpartition(".")[0]
        return stem if stem and not stem.startswith(".") else None  # a lock or group file
    if len(parts) >= 3 and parts[0] == HISTORY_DIR:
        return parts[1]
    return None


def guide_local(project: Project, changed: set[str]) -> bool:
    """Return True when every input that changed is one guide's own file, the audit log or a lock.

    Then only the picks of those guides can change (their keys in pick_keys changed).
    """
    guides = os.fspath(project.guides.dir)
    audit = os.fspath(project.guides.audit_path)
    for path in changed:
        if path == audit or path.endswith(".lock") and path.startswith(guides + os.sep):
            continue
        if guide_of_path(guides, path) is None:
            return False
    return True


def refresh_signatures(project: Project, signatures: dict[str, str], ids: list[str]) -> None:
    """Update the signatures of these guides' own files and of the audit log after a change."""
    guides = os.fspath(project.guides.dir)
    review = os.path.join(guides, REVIEW_DIR)
    history = os.path.join(guides, HISTORY_DIR)
    names = {os.fspath(project.guides.audit_path)}
    for guide_id in ids:
        names.add(os.path.join(guides, f"{guide_id}.md"))
        names.update(
            os.path.join(review, f"{guide_id}{suffix}") for suffix in (".json", ".pending")
        )
        names.update(entry.path for entry in walk(os.path.join(history, guide_id)))
    for name in names:
        try:
            st = os.stat(name)
        except OSError:
            signatures.pop(name, None)
            continue
        signatures[name] = _signature(st)
