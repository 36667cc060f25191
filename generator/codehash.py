"""Fingerprints of the running code, so that stored results expire with any change to it."""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterator
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


@lru_cache(maxsize=8)
def module_version(name: str) -> str:
    """Hash a package module and every package module it imports, directly or not."""
    digest = hashlib.sha256(__version__.encode())
    for module in sorted(import_closure(name)):
        digest.update(module.encode() + b"\0")
        digest.update(module_path(module).read_bytes())  # type: ignore[union-attr]
    return digest.hexdigest()


def module_path(module: str) -> Path | None:
    """Return the file of a package module named relative to the package ("site.model")."""
    base = PACKAGE.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def import_closure(name: str) -> set[str]:
    """Return the package modules a module imports, directly or not, itself included.

    Modules are named relative to the package: "checks", or "site.model" in a subpackage.
    """
    found: set[str] = set()
    pending = [name]
    while pending:
        module = pending.pop()
        path = module_path(module)
        if module in found or path is None:
            continue
        found.add(module)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in _statements(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:  # a relative import, from the module's own package
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)]
                target = ".".join([*parts, *([node.module] if node.module else [])])
            elif node.module and node.module.startswith("generator."):
                target = node.module.removeprefix("generator.")
            elif node.module == "generator":
                target = ""
            else:
                continue
            if target:  # the package's own __init__ holds only its version, hashed above
                pending.append(target)
            # "from generator.site import model" names a submodule, not only an attribute.
            pending.extend(f"{target}.{alias.name}".lstrip(".") for alias in node.names)
    return found


def _statements(tree: ast.AST) -> Iterator[ast.AST]:
    """Yield the nodes of a tree that are not expressions (imports are statements)."""
    pending = [tree]
    while pending:
        node = pending.pop()
        yield node
        pending.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, ast.expr))
