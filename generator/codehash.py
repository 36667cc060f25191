"""Fingerprints of the running code, so that stored results expire with any change to it."""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path

from generator import __version__

PACKAGE = Path(__file__).parent


@lru_cache(maxsize=1)
def code_version() -> str:
    """Hash the package's code and templates."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".html", ".css", ".j2") and path.is_file():
            digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def module_files(name: str) -> list[Path]:
    """Return the files of a package module: `name.py`, or every .py file of package `name/`."""
    single = PACKAGE / f"{name}.py"
    if single.is_file():
        return [single]
    folder = PACKAGE / name
    if (folder / "__init__.py").is_file():
        return sorted(path for path in folder.rglob("*.py") if path.is_file())
    return []


@lru_cache(maxsize=8)
def module_version(name: str) -> str:
    """Hash a package module (or subpackage) and every package module it imports."""
    digest = hashlib.sha256(__version__.encode())
    for module in sorted(import_closure(name)):
        for path in module_files(module):
            digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def import_closure(name: str) -> set[str]:
    """Return the package modules a module imports, directly or not, itself included."""
    found: set[str] = set()
    pending = [name]
    while pending:
        module = pending.pop()
        files = module_files(module)
        if module in found or not files:
            continue
        found.add(module)
        for path in files:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    if node.module.startswith("generator."):
                        pending.append(node.module.split(".")[1])
                    elif node.module == "generator":
                        pending.extend(alias.name for alias in node.names)
    return found
