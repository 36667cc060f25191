"""Fresh virtualenvs for the install tests, with this environment's dependencies and no network."""

from __future__ import annotations

import sysconfig
from pathlib import Path


def share_dependencies(venv_dir: Path) -> None:
    """Let venv_dir import the packages installed here, so pip needs no index to satisfy them.

    The paths go in as plain .pth lines: their own .pth files (this environment's editable
    install of prepguide among them) are not run, so the venv still imports only the
    prepguide installed into it.
    """
    outer = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    for site_packages in (venv_dir / "lib").glob("python*/site-packages"):
        lines = "".join(f"{path}\n" for path in sorted(outer))
        (site_packages / "zz_prepguide_test_dependencies.pth").write_text(lines, encoding="utf-8")
