"""Fingerprints of the running code, so that stored results expire with any change to it."""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path

from generator import __version__

PACKAGE = Path(__file__).parents[1]


@lru_cache(maxsize=1)
def code_version() -> str:
    """Hash the package's code and templates."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".html", ".css", ".j2", ".toml") and path.is_file():
            digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


# Module versions a cache keyed by the package files' signatures gave back (see remember).
_KNOWN: dict[str, str] = {}


def remember(name: str, version: str) -> None:
    """Take a module's version as kept under the signatures of every unchanged package file."""
    _KNOWN[name] = version


def forget_versions() -> None:
    """Drop every module version this process knows, remembered or hashed."""
    _KNOWN.clear()
    _module_version.cache_clear()


def module_version(name: str) -> str:
    """Hash a package module and every package module it imports, directly or not."""
    known = _KNOWN.get(name)
    return known if known is not None else _module_version(name)


@lru_cache(maxsize=8)
def _module_version(name: str) -> str:
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


def _imports(module: str, path: Path) -> list[str]:
    """Return the package modules one file imports, in every import form, at any depth."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)]
                source = ".".join(["generator", *parts, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            # "from generator.site import model" names a submodule, not only an attribute.
            found += [source, *(f"{source}.{alias.name}" for alias in node.names)]
    return [
        name.removeprefix("generator").lstrip(".")
        for name in found
        if name == "generator" or name.startswith("generator.")
    ]


def lazy_map(package: str) -> dict[str, str]:
    """Return the module each of a package's lazy exports comes from."""
    path = module_path(package)
    if path is None or path.name != "__init__.py":
        return {}
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "lazy_exports":
            where = node.args[1]
            if isinstance(where, ast.Dict):
                return {
                    key.value: f"{package}.{value.value}"
                    for key, value in zip(where.keys, where.values, strict=True)
                    if isinstance(key, ast.Constant) and isinstance(value, ast.Constant)
                }
    return {}


def import_closure(name: str) -> set[str]:
    """Return the package modules a module imports, directly or not, itself included.

    Modules are named relative to the package: "checks", or "site.model" in a subpackage.
    Importing a module runs its packages' __init__ files, so those count too.
    """
    found: set[str] = set()
    pending = [name]
    while pending:
        module = pending.pop()
        if not module or module in found:
            continue  # the package's own __init__ holds only its version, hashed above
        path = module_path(module)
        if path is None:  # a name: a lazy export brings in the module it comes from
            package, _, attribute = module.rpartition(".")
            pending.append(lazy_map(package).get(attribute, ""))
            continue
        found.add(module)
        pending.append(module.rpartition(".")[0])
        pending += _imports(module, path)
    return found
