"""Write: a new site tree built beside the old one, then swapped in; the manifest; the lock.

Every build writes into a hidden sibling folder. A page whose input key (or content) did not
change is hard-linked from the old site instead of written; files the build does not manage
are linked over too. finish() then exchanges the two folders in one rename (renameat2 with
RENAME_EXCHANGE), so a reader, or a build killed at any moment, sees the whole old site or the
whole new one, never a mix.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import glob
import hashlib
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import PublishError
from generator.core.fsio import DEFAULT_DIR_MODE, process_running
from generator.site.manifest import (
    MANIFEST_VERSION,
    Manifest,
    PageEntry,
    _same_file,
    manifest_file,
    read_manifest,
    same_site,
    unchanged,
    write_manifest,
)
from generator.site.storage import CACHE_DIR

MANAGED_DIRS = ("guides", "topics", "companies", "page", "digest")
STAGING_SUFFIX = ".tmp"
# .<site folder>.previous: the site before the current one, the base of the next build.
SPARE_SUFFIX = ".previous"
# .<site folder>.<pid>.<random>.tmp: a new site being built (or an old one being removed).
STAGING_NAME = re.compile(r"^\..+\.(\d+)\.[^.]+\.tmp$")
LOCK_NAME = "publish.lock"
AT_FDCWD = -100
RENAME_EXCHANGE = 2


@dataclass(frozen=True)
class Written:
    """A page placed in the new tree by any process: its manifest entry, and if it is new."""

    relative: str
    entry: PageEntry
    written: bool


@contextmanager
def build_lock(state_dir: Path, timeout: float) -> Iterator[None]:
    """Hold the publish lock of a workspace; wait up to timeout seconds for another build."""
    path = state_dir / CACHE_DIR / LOCK_NAME
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise PublishError(
            f"cannot take the publish lock ({exc.strerror}); nothing was changed",
            path=path,
            rule="publish.lock",
        ) from exc
    with handle:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise PublishError(
                        f"another publish of this workspace is still running after {timeout:g}s "
                        "of waiting; try again when it has finished",
                        path=path,
                        rule="publish.lock",
                    ) from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def confined(out_dir: Path, relative: str, *, base: Path | None = None) -> Path:
    """Resolve a page path and refuse anything outside the output folder (resolved: base)."""
    base = base or out_dir.resolve()
    target = (base / relative).resolve()
    if not target.is_relative_to(base) or target == base:
        raise PublishError(f"page path {relative!r} escapes {base}", path=target, rule="path")
    return target


def _staged(root: str, relative: str) -> str:
    """Return a page's path in a new tree; refuse any path that is not plainly inside it.

    The new tree is made empty by this build and holds no symbolic links to folders, so a
    relative path of plain names cannot lead out of it (confined() resolves instead).
    """
    parts = relative.split("/")
    if not relative or any(part in ("", ".", "..") or "\\" in part for part in parts):
        raise PublishError(f"page path {relative!r} escapes {root}", path=relative, rule="path")
    return os.path.join(root, relative)


class SiteWriter:
    """Build a new site tree beside the output folder, reusing the old site's unchanged pages."""

    def __init__(
        self, out_dir: Path, previous: dict[str, PageEntry], known: Manifest | None = None
    ) -> None:
        self.out_dir = out_dir
        self.previous = previous
        self.known = known or Manifest()
        self.carried: set[str] = set()
        self.folders: dict[str, tuple[int, int]] = {}
        self.spare_folders: dict[str, tuple[int, int]] = {}
        self.spare_files: list[str] = []
        self.pages: dict[str, PageEntry] = {}
        self.written = 0
        self.removed: list[str] = []
        self.old = out_dir if out_dir.is_dir() else None
        self.old_base = self.old.resolve() if self.old else None
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        remove_orphaned_staging(out_dir)
        prefix = f".{out_dir.name}.{os.getpid()}."
        staging = tempfile.mkdtemp(prefix=prefix, suffix=STAGING_SUFFIX, dir=out_dir.parent)
        # The site before the old one, if kept, becomes the new tree: its unchanged files are
        # kept in place instead of linked again, the others replaced, the rest removed.
        self.present = _recycle(spare_path(out_dir), staging, self.known)
        self.recycled = self.present is not None
        mode = self.old.stat().st_mode & 0o7777 if self.old else DEFAULT_DIR_MODE
        os.chmod(staging, mode)  # mkdtemp makes it private
        self.root = Path(staging)
        self.base = self.root.resolve()
        self._root = os.fspath(self.root)
        self._old = os.fspath(self.old) if self.old is not None else None
        self._dev = os.stat(self._root).st_dev
        # A first build into a folder links each page it writes into a second new tree too,
        # kept as the spare once the site is in place (see _keep_copy); processes that write
        # pages link them, so that this costs no time after the render.
        self._copy: str | None = None
        if self.old is None:
            with contextlib.suppress(OSError):
                self._copy = tempfile.mkdtemp(
                    prefix=prefix, suffix=STAGING_SUFFIX, dir=out_dir.parent
                )

    def _old_page(self, relative: str) -> str | None:
        """Return the old site's file of a page when it still is the one the manifest names."""
        entry = self.previous.get(relative)
        if self._old is None or entry is None:
            return None
        path = os.path.join(self._old, relative)
        return path if _same_file(path, entry) else None

    def _link(self, source: str, relative: str, inode: int | None = None) -> str:
        """Link source into the new tree (a recycled tree may hold it there already)."""
        target = _staged(self._root, relative)
        if self.recycled:
            if inode is None:
                inode = os.lstat(source).st_ino
            try:
                st = os.lstat(target)
            except FileNotFoundError:
                pass
            else:
                if (st.st_ino, st.st_dev) == (inode, self._dev):
                    return target
                _clear(target)
        _make_parent(target)
        os.link(source, target, follow_symlinks=False)
        return target

    def reuse(self, relative: str, key: str) -> Written | None:
        """Link an old page whose input key is the same into the new tree; None if it differs."""
        entry = self.previous.get(relative)
        if entry is None or entry.key != key:
            return None
        if self.recycled:  # the kept tree holds the old page itself (the same inode) already
            try:
                st = os.lstat(_staged(self._root, relative))
            except OSError:
                pass
            else:
                if (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns) == (
                    entry.inode,
                    self._dev,
                    entry.size,
                    entry.mtime_ns,
                ) and stat.S_ISREG(st.st_mode):
                    return Written(relative, entry, False)
        old = self._old_page(relative)
        if old is None:
            return None
        self._link(old, relative, entry.inode)
        return Written(relative, entry, False)

    def write(self, relative: str, text: str | bytes, key: str | None = None) -> Written:
        """Place a page in the new tree: linked when the old one has this content, else new.

        Worker processes call this too; each places its own pages.
        """
        data = text.encode("utf-8") if isinstance(text, str) else text
        digest = hashlib.sha256(data).hexdigest()
        entry = self.previous.get(relative)
        old = self._old_page(relative)
        if old is None and entry is None and self.old is not None:
            candidate = self.old / relative
            if candidate.is_file() and not candidate.is_symlink():
                try:
                    if candidate.read_bytes() == data:
                        old = os.fspath(candidate)
                except OSError:
                    old = None
        reused = old is not None and (entry is None or entry.digest == digest)
        if reused:
            assert old is not None
            target = self._link(old, relative)
        else:
            target = _staged(self._root, relative)
            if self.recycled:  # never write into a kept file: the live site may share it
                _clear(target)
            _make_parent(target)
            try:
                handle = open(target, "xb")  # noqa: SIM115 - closed below
            except FileExistsError:
                raise PublishError(
                    f"two pages want {relative!r}; refusing to overwrite",
                    path=relative,
                    rule="slug",
                ) from None
            with handle:
                handle.write(data)
            if self._copy is not None:
                self._keep(target, relative)
        st = os.stat(target)
        page = PageEntry(
            digest=digest, size=len(data), inode=st.st_ino, mtime_ns=st.st_mtime_ns, key=key
        )
        return Written(relative, page, not reused)

    def _keep(self, target: str, relative: str) -> None:
        """Link a page just written into the spare copy; one that fails is found by finish."""
        assert self._copy is not None
        copy = os.path.join(self._copy, relative)
        try:
            _make_parent(copy)
            os.link(target, copy, follow_symlinks=False)
        except OSError:
            return

    def put(self, relative: str, text: str | bytes, key: str | None = None) -> None:
        """Place a page and account for it."""
        self.record(self.write(relative, text, key))

    def record(self, done: Written) -> None:
        """Account for a page placed here or by a worker; refuse a second page per path."""
        if done.relative in self.pages:
            raise PublishError(
                f"two pages want {done.relative!r}; refusing to overwrite",
                path=done.relative,
                rule="slug",
            )
        self.pages[done.relative] = done.entry
        self.written += done.written

    def _carry_over(self) -> None:
        """Link the old site's files that no build manages (a CNAME, say) into the new tree."""
        if self.old is None or self.old_base is None:
            return
        base = os.fspath(self.old_base)
        known = self.known
        listing = Listing(base, known.folders, [*known.pages, *known.carried], clean=False)
        for relative in listing.files:
            if relative in self.pages:
                continue
            managed = relative in self.previous or (
                relative.rpartition("/")[2] == "index.html"
                and relative.split("/", 1)[0] in MANAGED_DIRS
            )
            if managed:
                self.removed.append(relative)
            else:
                self._link(os.path.join(base, relative), relative)
                self.carried.add(relative)
        self.removed.sort()
        # The old site becomes the spare: the next build takes its files from this listing.
        self.spare_folders, self.spare_files = listing.folders, sorted(listing.files)

    def _prune(self) -> None:
        """Remove what a recycled tree holds that this build did not place."""
        if self.present is None:
            return
        kept = self.pages.keys() | self.carried
        for relative in sorted(self.present - kept, reverse=True):
            target = os.path.join(self._root, relative)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)
            folder = os.path.dirname(target)
            while folder != self._root:  # folders left empty go too
                try:
                    os.rmdir(folder)
                except OSError:
                    break
                folder = os.path.dirname(folder)

    def finish(self) -> None:
        """Swap the new tree in: all at once, whatever happens to this process meanwhile."""
        self._carry_over()
        self._prune()
        self.folders = _folders(self._root, [*self.pages, *self.carried])
        if self.old is None:
            try:
                os.replace(self.root, self.out_dir)
            except OSError as exc:
                self.abandon()
                raise PublishError(
                    f"cannot move the new site into place ({exc.strerror}); another build may "
                    "have created the folder meanwhile: publish again",
                    path=self.out_dir,
                    rule="path",
                ) from exc
            self._keep_copy()
            return
        exchange(self.root, self.out_dir)
        # self.root now holds the old site; a kill from here on leaves it to the next build,
        # which removes it. Kept under the spare name, the next build makes its tree from it.
        try:
            os.rename(self.root, spare_path(self.out_dir))
        except OSError:
            shutil.rmtree(self.root, ignore_errors=True)

    def _keep_copy(self) -> None:
        """Keep hard links of a first build's pages as the spare, the next build's tree.

        Without it the next build, however small its change, links every page into a new
        tree. The links were made as the pages were written (any other page is linked here).
        Nothing is lost when this fails: the site is in place, the next build links.
        """
        copy, self._copy = self._copy, None
        if copy is None:
            return
        files = sorted(self.pages)
        live = os.fspath(self.out_dir)
        try:
            for relative in files:  # a page not written by this build is linked now
                target = os.path.join(copy, relative)
                try:
                    st = os.lstat(target)
                except FileNotFoundError:
                    st = None
                if st is None or st.st_ino != self.pages[relative].inode:
                    _clear(target)
                    _make_parent(target)
                    os.link(os.path.join(live, relative), target, follow_symlinks=False)
            folders = _folders(copy, files)
            os.rename(copy, spare_path(self.out_dir))
        except OSError:
            shutil.rmtree(copy, ignore_errors=True)
            return
        self.spare_folders, self.spare_files = folders, files

    def abandon(self) -> None:
        """Remove a new site that was not finished."""
        shutil.rmtree(self.root, ignore_errors=True)
        if self._copy is not None:
            shutil.rmtree(self._copy, ignore_errors=True)


def _make_parent(target: str) -> None:
    parent = os.path.dirname(target)
    try:
        os.mkdir(parent)
    except FileExistsError:
        if not os.path.isdir(parent):  # a kept tree's file where this build needs a folder
            _clear(parent)
            os.mkdir(parent)
    except FileNotFoundError:
        _make_parent(parent)
        os.mkdir(parent)


def _clear(path: str) -> None:
    """Remove a file or folder of a kept tree (never of the live site)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def spare_path(out_dir: Path) -> Path:
    """Return where the site before the current one is kept: .<site folder>.previous."""
    return out_dir.parent / f".{out_dir.name}{SPARE_SUFFIX}"


def _recycle(spare: Path, staging: str, known: Manifest) -> set[str] | None:
    """Move a kept site into the new tree's place; return the files it holds (None: none kept).

    Anything but folders and plain files (a link someone put there) is removed first, so the
    tree holds nothing that leads out of it.
    """
    try:
        st = os.lstat(spare)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
            return None
        os.rename(spare, staging)  # replaces the empty folder mkdtemp made
    except OSError:
        return None
    return Listing(staging, known.spare_folders, known.spare_files, clean=True).files


class Listing:
    """The files of a site tree, each folder listed only when it changed since it was seen.

    folders holds each folder's (inode, mtime) when a build last saw it, and files that
    build's files: a folder with the same inode and mtime has gained, lost or replaced no
    entry since, so its files are the ones seen then; any other folder is listed again (and
    all of a folder not seen before). A file changed in place keeps its folder's mtime; pages
    are compared by their own signature (see _same_file). With clean, anything but folders
    and plain files is removed.
    """

    def __init__(
        self,
        root: str,
        folders: dict[str, tuple[int, int]],
        files: list[str],
        *,
        clean: bool,
    ) -> None:
        self.root = root
        self.clean = clean
        self.files: set[str] = set()
        self.folders: dict[str, tuple[int, int]] = {}
        by_folder: dict[str, list[str]] = {}
        for relative in files:
            by_folder.setdefault(relative.rpartition("/")[0], []).append(relative)
        self._known = folders
        self._list("")
        alive = {""}
        for relative in sorted(folders):  # a folder after the one that holds it
            if not relative or relative.rpartition("/")[0] not in alive:
                continue
            try:
                st = os.lstat(os.path.join(root, relative))
            except OSError:
                continue
            if not stat.S_ISDIR(st.st_mode):
                continue
            alive.add(relative)
            seen = (st.st_ino, st.st_mtime_ns)
            if tuple(folders[relative]) == seen:
                self.files.update(by_folder.get(relative, ()))
                self.folders[relative] = seen
            else:
                self._list(relative)

    def _list(self, relative: str, recursive: bool = False) -> None:
        """List one folder's entries (and all below it when recursive)."""
        folder = os.path.join(self.root, relative) if relative else self.root
        try:
            st = os.lstat(folder)
            entries = list(os.scandir(folder))
        except OSError:
            return
        if relative:
            self.folders[relative] = (st.st_ino, st.st_mtime_ns)
        for entry in entries:
            child = f"{relative}/{entry.name}" if relative else entry.name
            if entry.is_dir(follow_symlinks=False):
                if recursive or child not in self._known:
                    self._list(child, recursive=True)
            elif entry.is_file(follow_symlinks=not self.clean):
                self.files.add(child)
            elif self.clean:
                os.unlink(entry.path)


def _folders(root: str, files: list[str]) -> dict[str, tuple[int, int]]:
    """Return the (inode, mtime) of every folder that holds one of these files, but the root."""
    names = set()
    for relative in files:
        folder = relative.rpartition("/")[0]
        while folder and folder not in names:
            names.add(folder)
            folder = folder.rpartition("/")[0]
    found = {}
    for name in names:
        try:
            st = os.lstat(os.path.join(root, name))
        except OSError:
            continue
        found[name] = (st.st_ino, st.st_mtime_ns)
    return found


def exchange(new: Path, current: Path) -> None:
    """Swap two folders atomically (renameat2 RENAME_EXCHANGE); else two renames."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):  # pragma: no cover - an old C library
        renameat2 = None
    if renameat2 is not None:
        done = renameat2(
            AT_FDCWD, os.fsencode(new), AT_FDCWD, os.fsencode(current), RENAME_EXCHANGE
        )
        if done == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise PublishError(
                f"cannot swap the new site in ({os.strerror(code)}); the old site is unchanged",
                path=current,
                rule="path",
            )
    # A file system without the exchange: for an instant the folder is missing, never mixed.
    aside = new.with_name(new.name.removesuffix(STAGING_SUFFIX) + "old" + STAGING_SUFFIX)
    os.replace(current, aside)
    os.replace(new, current)
    os.replace(aside, new)


def remove_orphaned_staging(out_dir: Path) -> None:
    """Delete the hidden folders of builds of out_dir that were killed before finishing."""
    for folder in out_dir.parent.glob(f".{glob.escape(out_dir.name)}.*{STAGING_SUFFIX}"):
        match = STAGING_NAME.match(folder.name)
        if match and folder.is_dir() and not process_running(int(match.group(1))):
            shutil.rmtree(folder, ignore_errors=True)


__all__ = [
    "MANIFEST_VERSION",
    "Manifest",
    "PageEntry",
    "read_manifest",
    "same_site",
    "manifest_file",
    "unchanged",
    "write_manifest",
]
