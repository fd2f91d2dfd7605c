"""Numbers that asked for no more invitation texts (the guest page's "Stop texting me", a STOP reply).

The list holds a keyed hash of each number, never the number: HMAC-SHA256 under a key of its own (its own
SSM parameter when deployed, 503 without one: chalicelib/pinkey.py), so a copy of the table alone cannot
tell which numbers are on it, and rotating the pin key leaves the list whole. It covers invitation texts
only: a pin a person asks for is sent.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from chalicelib.pinkey import stop_list_key
from chalicelib.store import stop_list as stored

FROM_PAGE, FROM_TEXT = "page", "text"


def number_hash(e164: str) -> str:
    return hmac.new(stop_list_key(), e164.encode(), hashlib.sha256).hexdigest()


def stop(e164: str, source: str) -> None:
    stored.add(number_hash(e164), source)


def resume(e164: str) -> None:
    stored.remove(number_hash(e164))


def stopped(numbers: Iterable[str]) -> set[str]:
    """Those of ``numbers`` on the list: one BatchGetItem (per 100 numbers)."""
    hashes = {number: number_hash(number) for number in numbers}
    listed = stored.listed(list(hashes.values()))
    return {number for number, digest in hashes.items() if digest in listed}
