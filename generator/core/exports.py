"""A stage package's exports, each imported from its module on first use.

A package lists what it offers in `__all__` and gives lazy_exports the module of each name:
importing the package costs nothing until a name is used, so `prepguide --help` and a dry
run stay fast. The import rules (tests/test_architecture.py) read these maps as imports.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_exports(
    package: str, where: dict[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return `__getattr__` and `__dir__` for a package whose names live in its modules."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(where)

    return __getattr__, __dir__
