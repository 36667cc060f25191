"""Signed unsubscribe tokens: the address and an HMAC, so no list of tokens is kept."""

from __future__ import annotations

import base64
import hashlib
import hmac

from generator.core.errors import PrepguideError

PURPOSE = b"prepguide-digest-unsubscribe:"


class TokenError(PrepguideError):
    """An unsubscribe token is malformed or its signature does not match."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: str, address: bytes) -> bytes:
    return hmac.new(secret.encode("utf-8"), PURPOSE + address, hashlib.sha256).digest()


def sign(secret: str, email: str) -> str:
    """Return the unsubscribe token of an address."""
    address = email.strip().lower().encode("utf-8")
    return f"{_b64(address)}.{_b64(_mac(secret, address))}"


def verify(secret: str, token: str) -> str:
    """Return the address a token was signed for; raise TokenError when it was not ours."""
    payload, dot, signature = token.strip().partition(".")
    try:
        address = _unb64(payload)
        given = _unb64(signature)
        email = address.decode("utf-8")
    except (ValueError, UnicodeDecodeError) as exc:
        raise TokenError("the token is malformed", rule="digest.token") from exc
    if not dot or not hmac.compare_digest(given, _mac(secret, address)):
        raise TokenError(
            "the token's signature does not match; was it signed with another "
            "PREPGUIDE_DIGEST_SECRET?",
            rule="digest.token",
        )
    return email
