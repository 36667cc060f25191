"""Fingerprints of the running code, so that stored results expire with any change to it."""

from __future__ import annotations

import hashlib
import re
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


# A "from X import names" statement, at any indentation; names run to the closing parenthesis.
# Read as text, not parsed: a match inside a string only adds a module to the hash, which
# makes the key stricter, never looser.
FROM_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)", re.MULTILINE
)


def import_closure(name: str) -> set[str]:
    """Return the package modules a module imports, directly or not, itself included.

    Modules are named relative to the package: "checks", or "site.model" in a subpackage.
    """
    found: set[str] = set()
    pending = [name]
    while pending:
        module = pending.pop()
        if module in found:
            continue
        path = module_path(module)
        if path is None:
            continue
        found.add(module)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for source, names in FROM_IMPORT.findall(path.read_text(encoding="utf-8")):
            level = len(source) - len(source.lstrip("."))
            source = source[level:]
            if level:  # a relative import, from the module's own package
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (level - 1)]
                target = ".".join([*parts, *([source] if source else [])])
            elif source.startswith("generator."):
                target = source.removeprefix("generator.")
            elif source == "generator":
                target = ""
            else:
                continue
            if target:  # the package's own __init__ holds only its version, hashed above
                pending.append(target)
            # "from generator.site import model" names a submodule, not only an attribute.
            for alias in names.strip("()").split(","):
                alias = alias.split("#", 1)[0].split()
                if alias:
                    pending.append(f"{target}.{alias[0]}".lstrip("."))
    return found
