"""The fingerprint of the running code, so that stored results expire with any change to it."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from generator import __version__


@lru_cache(maxsize=1)
def code_version() -> str:
    """Hash the package's code and templates."""
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).parent
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".html", ".css", ".j2") and path.is_file():
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()
