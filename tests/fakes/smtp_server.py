"""A real SMTP server on 127.0.0.1 (aiosmtpd) that keeps what it receives, for digest tests.

Run by hand: python -m tests.fakes.smtp_server --port 8025
"""

from __future__ import annotations

import argparse
import email
import email.policy
import socket
import threading
import time
from email.message import EmailMessage

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Mailbox:
    """The aiosmtpd handler: stores every accepted message; refuses scripted recipients."""

    def __init__(self, refuse: set[str] | None = None, replies: dict[str, str] | None = None):
        self.refuse = {address.lower() for address in refuse or ()}
        self.replies = {address.lower(): reply for address, reply in (replies or {}).items()}
        self.messages: list[tuple[list[str], EmailMessage]] = []
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        if address.lower() in self.refuse:
            return "550 5.1.1 mailbox unavailable"
        if address.lower() in self.replies:
            return self.replies[address.lower()]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"

    def count(self) -> int:
        with self.lock:
            return len(self.messages)


class SmtpServer:
    """Context manager running a Mailbox on a free loopback port."""

    def __init__(
        self,
        refuse: set[str] | None = None,
        port: int | None = None,
        replies: dict[str, str] | None = None,  # address: the RCPT reply to give, e.g. a 421
        smtputf8: bool = False,
    ) -> None:
        self.mailbox = Mailbox(refuse, replies)
        self.port = port or free_port()
        self.controller = Controller(
            self.mailbox,
            hostname="127.0.0.1",
            port=self.port,
            server_hostname="localhost",
            enable_SMTPUTF8=smtputf8,
        )

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8025)
    args = parser.parse_args()
    with SmtpServer(port=args.port) as server:
        print(f"listening on {server.url}", flush=True)
        while True:
            time.sleep(1)
            print(f"{server.mailbox.count()} messages", flush=True)


if __name__ == "__main__":
    main()
