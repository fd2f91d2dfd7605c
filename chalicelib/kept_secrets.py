"""Secrets in a kept answer: an idempotent route's answer is kept for its repeats (chalicelib/api/idempotency.py),
but a secret the service stores only as a hash (a calendar feed token, a join code, a plan page's code) must not
be kept in plain form beside it.

A service names each secret it hands out with ``issued(secret)``. While an idempotent request runs, its secrets
are collected; before the answer is kept, every occurrence of each one in the body and headers is replaced by a
marker holding it sealed: XOR an HMAC-SHA256 keystream keyed by the stage's pin key (SSM when deployed,
chalicelib/pinkey.py) and labelled by the claim (user, key, nonce) and the secret's number. A repeat opens the
markers with the same key and answers the very text of the first answer. Outside an idempotent request
``issued`` does nothing. The markers are delimited by NUL, which a JSON text never holds raw.

A repeat after the pin key changed opens the markers to other characters (never an error): its link opens
nothing, and the client asks for a new one with a new key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from chalicelib.errors import ServiceUnavailable

_collected: ContextVar[list[str] | None] = ContextVar("kept_secrets", default=None)
_MARKER = re.compile("\x00([0-9]+)\\.([A-Za-z0-9_=-]*)\x00")
BLOCK = hashlib.sha256().digest_size


def _pinkey():
    from chalicelib import pinkey  # the pin key's module stays off the API's cold start (tests/test_app.py)

    return pinkey


def keystream_xor(label: str, data: bytes) -> bytes:
    """``data`` XOR a keystream of HMAC-SHA256 blocks under the pin key: the first block is keyed by ``label``
    alone, the next ones by ``label#1``, ``label#2`` ... Sealing and opening are the same call."""
    key = _pinkey().pin_key()
    stream = b""
    for block in range((len(data) + BLOCK - 1) // BLOCK):
        name = label if block == 0 else f"{label}#{block}"
        stream += hmac.new(key, name.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()
    return bytes(a ^ b for a, b in zip(data, stream, strict=False))


class SealingUnavailable(ServiceUnavailable):
    def __init__(self):
        super().__init__("This link cannot be made right now, try again later.", retry_after=30)


def issued(secret: str) -> str:
    """Name a secret that may appear in the answer; returns it unchanged. Inside a kept request the pin key is
    read first (once per process), so a key SSM cannot give is a 503 before anything is stored."""
    collected = _collected.get()
    if collected is not None and secret and secret not in collected:
        pinkey = _pinkey()
        try:
            pinkey.pin_key()
        except pinkey.PinKeyUnavailable:
            raise SealingUnavailable() from None
        collected.append(secret)
    return secret


@contextmanager
def collecting() -> Iterator[list[str]]:
    """Collect the secrets issued inside the block (the list it yields)."""
    collected: list[str] = []
    reset = _collected.set(collected)
    try:
        yield collected
    finally:
        _collected.reset(reset)


def _label(scope: str, number: int) -> str:
    return f"kept answer secret:{scope}:{number}"


def seal(text: str, secrets: list[str], scope: str) -> str:
    """``text`` with every secret replaced by its sealed marker; ``scope`` names the kept answer."""
    for number, secret in enumerate(secrets):
        if secret in text:
            raw = keystream_xor(_label(scope, number), secret.encode("utf-8", "surrogatepass"))
            marker = f"\x00{number}.{base64.urlsafe_b64encode(raw).decode('ascii')}\x00"
            text = text.replace(secret, marker)
    return text


def unseal(text: str, scope: str) -> str:
    """The text ``seal`` was given: every marker opened again."""
    if "\x00" not in text:
        return text

    def opened(found: re.Match) -> str:
        raw = base64.urlsafe_b64decode(found.group(2))
        opened_raw = keystream_xor(_label(scope, int(found.group(1))), raw)
        return opened_raw.decode("utf-8", "replace")  # under another key: other characters, never an error

    return _MARKER.sub(opened, text)
