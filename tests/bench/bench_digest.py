"""Benchmark: build a week's digest and send it to 5,000 subscribers on a local SMTP server.

The database is the sample one with its two publishable guides approved and published; the
server is aiosmtpd on 127.0.0.1 (tests/fakes/smtp_server.py); `[digest] per_minute = 0`, so
the figure measures our code (one SMTP session, an fsynced ledger line before and after each
message). Run:

    python tests/bench/bench_digest.py [--recipients 5000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

from fakes.smtp_server import SmtpServer  # noqa: E402

SETTINGS = """
[digest]
sender = "Prepguide <digest@prepguide.example.org>"
footer = "Prepguide, 1 Example Street, Springfield"
unsubscribe_url = "https://prepguide.example.org/unsubscribe"
per_minute = 0
"""


def prepguide(root: Path, *args: str, env: dict | None = None) -> float:
    """Run the CLI as a user would; return its wall time."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--recipients", type=int, default=5000)
    args = parser.parse_args()
    os.environ["SOURCE_DATE_EPOCH"] = "1795996800"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "db"
        root.mkdir()
        shutil.copytree(REPO / "sources", root / "sources")
        shutil.copytree(REPO / "prompts", root / "prompts")
        shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
        with open(root / "prepguide.toml", "a", encoding="utf-8") as handle:
            handle.write(SETTINGS)
        prepguide(root, "generate", "--backend", "offline")
        prepguide(root, "verify", "--manual", "meta-llm-training-at-scale", "--by", "Ed")
        ids = ("shopify-catalog-clustering", "meta-llm-training-at-scale")
        prepguide(root, "review", "approve", *ids, "--by", "Ed")
        prepguide(root, "publish")
        build = prepguide(root, "digest", "build", "--week", "2026-W49")
        subscribers = Path(tmp) / "subscribers.csv"
        subscribers.write_text(
            "email,status\n"
            + "".join(f"reader{i}@example.com,confirmed\n" for i in range(args.recipients)),
            encoding="utf-8",
        )
        with SmtpServer() as server:
            env = {"PREPGUIDE_SMTP_URL": server.url, "PREPGUIDE_DIGEST_SECRET": "bench-secret-16+"}
            send = prepguide(
                root, "digest", "send", "--week", "2026-W49", "--to", str(subscribers), env=env
            )
            received = server.mailbox.count()
    print(f"digest build (whole CLI run): {build:.2f} s")
    print(
        f"digest send to {args.recipients} recipients: {send:.2f} s "
        f"({args.recipients / send:.0f} messages/s); the server received {received}"
    )


if __name__ == "__main__":
    main()
