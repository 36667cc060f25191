"""Shared fixtures: a throwaway workspace built from the repo's sample data."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# The test folders mirror the packages; their modules share helpers across folders.
sys.path[:0] = [str(d) for d in sorted(Path(__file__).parent.iterdir()) if any(d.glob("test_*.py"))]
FIXED_EPOCH = "1795996800"  # 2026-11-30T00:00:00Z: pins "today" and every written timestamp


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pin the clock; keep real LLM credentials and proxies out of every test."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PREPGUIDE_MODEL", "PREPGUIDE_REVIEWER"):
        monkeypatch.delenv(name, raising=False)
    for scheme in ("http", "https", "all"):  # straight to 127.0.0.1, never via a proxy
        monkeypatch.delenv(f"{scheme}_proxy", raising=False)
        monkeypatch.delenv(f"{scheme.upper()}_PROXY", raising=False)


@pytest.fixture
def site():
    """Run the loopback link server that verify tests check against."""
    from fakes.link_server import LinkServer

    with LinkServer(hang_seconds=3) as server:
        yield server


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """Return a fresh root holding copies of sources/, prompts/ and prepguide.toml."""
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copytree(REPO / "sources", root / "sources")
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    return root


# Loopback guard: every socket connect in every test must go to 127.0.0.1 (issue #7).
_NETWORK = {"hooked": False, "on": False, "violations": []}


def _loopback_audit(event: str, args: tuple) -> None:
    if not _NETWORK["on"]:
        return
    if event == "socket.connect":
        sock, address = args
        if isinstance(address, tuple) and address[0] != "127.0.0.1":
            _NETWORK["violations"].append(address)
            raise ConnectionRefusedError(f"tests may only connect to 127.0.0.1, not {address}")
    elif event == "socket.getaddrinfo":
        host = args[0].decode() if isinstance(args[0], bytes) else args[0]
        if host not in (None, "", "127.0.0.1", "localhost"):
            _NETWORK["violations"].append((host, args[1]))
            raise OSError(f"tests may not resolve {host!r}; use 127.0.0.1")


@pytest.fixture(autouse=True)
def loopback_only() -> list:
    """Fail any test that connects anywhere but 127.0.0.1 (or resolves a real host name)."""
    if not _NETWORK["hooked"]:
        import sys

        sys.addaudithook(_loopback_audit)
        _NETWORK["hooked"] = True
    _NETWORK["violations"].clear()
    _NETWORK["on"] = True
    yield _NETWORK["violations"]
    _NETWORK["on"] = False
    if _NETWORK["violations"]:
        pytest.fail(f"network access outside 127.0.0.1: {_NETWORK['violations']}")
