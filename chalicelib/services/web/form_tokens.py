"""Anti-forgery tokens of the web forms (the guest's page, the web account deletion): ``<issued>.<HMAC>``.

The key is derived from the stage's pin key (SSM when deployed), so a token is good on its stage only, and
for the subject it was made for, within its time to live.
"""

from __future__ import annotations

import hashlib
import hmac
import time

from chalicelib.config import get_settings
from chalicelib.pinkey import pin_key


def _form_key() -> bytes:
    """A key of its own for form tokens, derived from the stage's pin key (SSM when deployed; 503 without)."""
    return hmac.new(pin_key(), b"invites web rsvp form", hashlib.sha256).digest()


def _signature(subject: str, issued: int) -> str:
    return hmac.new(_form_key(), f"{subject}:{issued}".encode(), hashlib.sha256).hexdigest()


def signed_token(subject: str, now: float | None = None) -> str:
    """``<issued>.<HMAC>`` of ``subject``: the anti-forgery token of a form about that subject."""
    issued = int(time.time() if now is None else now)
    return f"{issued}.{_signature(subject, issued)}"


def signed_token_valid(subject: str, token: str | None, now: float | None = None, ttl: int | None = None) -> bool:
    """A token :func:`signed_token` made for ``subject`` within ``ttl`` seconds (default WEB_FORM_TTL_SECONDS)."""
    issued, _, signature = (token or "").partition(".")
    if not issued.isascii() or not issued.isdigit() or len(issued) > 12:
        return False
    age = (time.time() if now is None else now) - int(issued)
    if age < -60 or age > (get_settings().web_form_ttl_seconds if ttl is None else ttl):
        return False
    return hmac.compare_digest(signature, _signature(subject, int(issued)))
