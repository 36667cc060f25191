"""Theme: a root's templates/ and static/ over the shipped ones, file by file, and its words.

templates/<name>.html replaces the shipped page template of that name (or adds one the others
import); templates/catalogue/<language>.toml adds or replaces a language. static/ holds files
copied into the site as they are: static/style.css replaces the shipped stylesheet, any
other file is added at its path. A file that leads out of the root through a symbolic link,
one too large, and a static file that would take a page's path are refused.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.catalogue import Catalogue, catalogue_reader, load_catalogue
from generator.core.config import site_path_problem
from generator.core.confine import link_problem, read_root_text
from generator.core.errors import ConfigError
from generator.guides.project import Project
from generator.site.pages import packaged_templates, template_folder

PACKAGED_STATIC = ("style.css",)
MAX_STATIC_FILE = 8 * 1024 * 1024
MAX_STATIC_TOTAL = 64 * 1024 * 1024
MAX_STATIC_FILES = 2_000
# The paths the build writes pages to: a static file may not take one.
RESERVED_FILES = ("index.html", "feed.xml", "sitemap.xml", "robots.txt", "404.html")
RESERVED_FOLDERS = ("guides", "topics", "companies", "articles", "digest", "page")


@dataclass(frozen=True)
class Theme:
    """What the pages of a build are made with besides the records: templates, words, files.

    origins names the file each of the root's templates was read from; key hashes it all.
    """

    templates: dict[str, str]
    words: Catalogue
    static: dict[str, bytes]
    origins: dict[str, str] = field(default_factory=dict)
    key: str = ""
    logo: dict | None = None  # {"src", "width", "height"}: the size when the file tells it


def packaged_static() -> dict[str, bytes]:
    """Return the shipped static files (the stylesheet) by their path in the site."""
    folder = template_folder()
    return {name: folder.joinpath(name).read_bytes() for name in PACKAGED_STATIC}


def load_theme(project: Project) -> Theme:
    """Read the root's templates/ and static/ over the shipped ones, and the site's words."""
    ws = project.workspace
    site = project.settings.site
    templates = packaged_templates()
    origins: dict[str, str] = {}
    for path in _own_templates(ws.templates_dir):
        templates[path.name] = read_root_text(path, ws.root, "templates")
        origins[path.name] = str(path)
    words = load_catalogue(site.language, catalogue_reader(ws.templates_dir))
    static = packaged_static()
    static.update(_own_static(ws.static_dir, ws.root))
    if site.logo is not None and site.logo not in static:
        raise ConfigError(
            f"names static/{site.logo}, which the root does not hold; add the file or remove "
            "the setting",
            path=ws.config_path,
            field="site.logo",
            rule="theme",
        )
    missing = next((link.url for link in site.footer_links if _missing(link, static)), None)
    if missing is not None:
        raise ConfigError(
            f"links {missing!r}, which is neither a page of the site nor a file of static/",
            path=ws.config_path,
            field="site.footer_links",
            rule="theme",
        )
    digest = hashlib.sha256()
    for name in sorted(origins):
        digest.update(f"template\0{name}\0{templates[name]}\0".encode())
    for name in sorted(static):
        digest.update(f"static\0{name}\0".encode() + hashlib.sha256(static[name]).digest())
    digest.update(words.model_dump_json().encode())
    logo = None
    if site.logo is not None:
        width, height = image_size(static[site.logo]) or (None, None)
        logo = {"src": site.logo, "width": width, "height": height}
    return Theme(templates, words, static, origins, digest.hexdigest(), logo)


SVG_SIZE = re.compile(rb"<svg\b[^>]*>", re.S)
SVG_LENGTH = rb"""\b%s\s*=\s*["']\s*([0-9]+(?:\.[0-9]+)?)\s*(?:px)?\s*["']"""
SVG_BOX = re.compile(
    rb"""\bviewBox\s*=\s*["']\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+([0-9.]+)[\s,]+([0-9.]+)"""
)


def image_size(data: bytes) -> tuple[int, int] | None:
    """Return an image's width and height in pixels (PNG, GIF, SVG), or None when unknown."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    tag = SVG_SIZE.search(data[:4096])
    if tag is None:
        return None
    found = [re.search(SVG_LENGTH % name, tag.group()) for name in (b"width", b"height")]
    if found[0] and found[1]:
        sizes = [float(match.group(1)) for match in found]
    else:
        box = SVG_BOX.search(tag.group())
        if box is None:
            return None
        sizes = [float(box.group(1)), float(box.group(2))]
    width, height = (round(size) for size in sizes)
    return (width, height) if width > 0 and height > 0 else None


def _missing(link, static: dict[str, bytes]) -> bool:
    """Return True when a footer link to a path of the site finds no static file there."""
    if link.external:
        return False
    path = link.url
    if path.split("/", 1)[0] in RESERVED_FOLDERS or path in RESERVED_FILES:
        return False  # a page the build writes
    return path not in static and f"{path.rstrip('/')}/index.html" not in static


def _own_templates(folder: Path) -> list[Path]:
    if not folder.is_dir() and not folder.is_symlink():
        return []
    problem = link_problem(folder, folder.parent)
    if problem:
        raise ConfigError(problem, path=folder, rule="templates.symlink")
    return sorted(p for p in folder.iterdir() if p.name.endswith(".html") and not _hidden(p))


def _hidden(path: Path) -> bool:
    return path.name.startswith(".")


def _own_static(folder: Path, root: Path) -> dict[str, bytes]:
    """Return the root's static files by their path in the site."""
    if not folder.is_dir() and not folder.is_symlink():
        return {}
    problem = link_problem(folder, root)
    if problem:
        raise ConfigError(problem, path=folder, rule="static.symlink")
    found: dict[str, bytes] = {}
    total = 0
    for current, folders, files in os.walk(folder, followlinks=False):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = Path(current, name)
            relative = path.relative_to(folder).as_posix()
            _refuse_static(path, relative, root)
            size = path.stat().st_size
            total += size
            if size > MAX_STATIC_FILE or total > MAX_STATIC_TOTAL:
                raise ConfigError(
                    "is too large: static files may be 8 MB each and 64 MB together",
                    path=path,
                    rule="static",
                )
            found[relative] = path.read_bytes()
            if len(found) > MAX_STATIC_FILES:
                raise ConfigError(
                    f"holds more than {MAX_STATIC_FILES} files", path=folder, rule="static"
                )
        for name in folders:
            problem = link_problem(Path(current, name), root)
            if problem:
                raise ConfigError(problem, path=Path(current, name), rule="static.symlink")
    return found


def _refuse_static(path: Path, relative: str, root: Path) -> None:
    problem = link_problem(path, root)
    if problem:
        raise ConfigError(problem, path=path, rule="static.symlink")
    if not path.is_file():
        raise ConfigError("is not a regular file", path=path, rule="static")
    problem = site_path_problem(relative)
    if problem:
        raise ConfigError(problem, path=path, rule="static")
    if relative in RESERVED_FILES or relative.split("/", 1)[0] in RESERVED_FOLDERS:
        raise ConfigError(
            f"would take the path {relative}, which the build writes a page to; rename it",
            path=path,
            rule="static",
        )
