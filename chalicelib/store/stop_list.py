"""The stop list in the auth table: ``STOP#<keyed hash of a number>``, one item per number that asked for
no more invitation texts. Only hashes are stored (chalicelib/services/texts/stop_list.py makes them)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from chalicelib.models.auth import AuthTable, StoppedNumber, stop_pk
from chalicelib.store.batch import batch_get


def add(number_hash: str, source: str) -> None:
    """Put the number on the list (idempotent: a second stop only refreshes the item)."""
    StoppedNumber(stop_pk(number_hash), source=source, stopped_at=int(time.time())).save()


def remove(number_hash: str) -> None:
    """Take the number off the list (idempotent)."""
    StoppedNumber(stop_pk(number_hash)).delete()


def listed(number_hashes: Sequence[str]) -> set[str]:
    """Those of ``number_hashes`` on the list: one BatchGetItem per 100, side by side; none for no hashes."""
    if not number_hashes:
        return set()
    keys = [stop_pk(number_hash) for number_hash in dict.fromkeys(number_hashes)]
    found = batch_get(AuthTable, keys, consistent_read=True)
    return {item.pk.removeprefix("STOP#") for item in found if isinstance(item, StoppedNumber)}
