"""Mail addresses parsed by the standard library and put in one form, so one mailbox is one key."""

from __future__ import annotations

import email.policy
import unicodedata
from dataclasses import dataclass
from email.errors import NonASCIILocalPartDefect
from email.headerregistry import Address

import idna

from generator.core.errors import PrepguideError


class AddressError(PrepguideError):
    """A text is not one usable mail address."""


@dataclass(frozen=True)
class Mailbox:
    """One parsed address: the address to send to, its display name, and its matching key."""

    address: str  # local part as written (unquoted when it needs no quotes), IDNA domain
    display_name: str

    @property
    def key(self) -> str:
        return self.address.lower()

    @property
    def needs_smtputf8(self) -> bool:
        return not self.address.isascii()


def _control(text: str) -> str | None:
    return next((char for char in text if unicodedata.category(char) in ("Cc", "Cf")), None)


def parse_mailbox(text: str) -> Mailbox:
    """Parse `addr`, `<addr>` or `Name <addr>`; raise AddressError saying what is wrong."""
    char = _control(text)
    if char is not None:
        raise AddressError(f"{text!r} contains the control character U+{ord(char):04X}")
    try:
        header = email.policy.default.header_factory("to", text)
    except (ValueError, IndexError, TypeError) as exc:
        raise AddressError(f"{text!r} is not a mail address ({exc})") from exc
    defects = [d for d in header.defects if not isinstance(d, NonASCIILocalPartDefect)]
    addresses = header.addresses
    if defects or len(addresses) != 1:
        raise AddressError(f"{text!r} is not exactly one mail address")
    parsed = addresses[0]
    if not parsed.username or not parsed.domain or parsed.domain.startswith("["):
        raise AddressError(f"{text!r} needs a local part and a domain name, as in name@example.org")
    if _control(parsed.display_name) or _control(parsed.username):
        raise AddressError(f"{text!r} hides a control character in an encoded word")
    try:
        domain = idna.encode(parsed.domain.rstrip("."), uts46=True).decode("ascii")
    except idna.IDNAError as exc:
        raise AddressError(f"{text!r} has a domain that is not a valid name ({exc})") from exc
    if "." not in domain:
        raise AddressError(f"{text!r} has a domain without a dot")
    address = Address(username=parsed.username, domain=domain).addr_spec
    return Mailbox(address=address, display_name=parsed.display_name)


def address_key(text: str) -> str:
    """Return the matching key of an address; AddressError when it is none."""
    return parse_mailbox(text).key
