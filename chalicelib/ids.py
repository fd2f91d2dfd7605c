"""53-bit ids made without a central counter.

Layout: milliseconds since 2024-01-01 (41 bits, good until 2093), then a 12-bit sequence that
starts at a random value each millisecond and counts up within it. One process never repeats an
id (past 4,096 in a millisecond, or while the clock is behind the last id, it goes on in the
following millisecond); two Lambda instances clash only when
they draw overlapping sequences in the same millisecond, so every create is still a conditional
write that retries on a clash. Every value fits in a JavaScript number or a Swift Double.
"""

from __future__ import annotations

import secrets
import threading
import time

EPOCH_MS = 1_704_067_200_000
SEQUENCE_BITS = 12
SEQUENCE_MASK = (1 << SEQUENCE_BITS) - 1
MAX_ID = 2**53 - 1

_lock = threading.Lock()
_last_ms = -1
_first_sequence = 0
_sequence = 0


def _now_ms() -> int:
    return int(time.time() * 1000) - EPOCH_MS


def new_id() -> int:
    global _last_ms, _first_sequence, _sequence
    with _lock:
        millis = _now_ms()
        if millis > _last_ms:
            _last_ms, _first_sequence = millis, secrets.randbits(SEQUENCE_BITS)
            _sequence = _first_sequence
        else:
            _sequence = (_sequence + 1) & SEQUENCE_MASK
            if _sequence == _first_sequence:  # 4,096 ids this millisecond: go on in the next one
                # Never wait for the clock: after it stepped back (NTP, or a test's patched time) the
                # next millisecond could be minutes away. Ids only ever grow, so none repeats.
                _last_ms, _first_sequence = _last_ms + 1, secrets.randbits(SEQUENCE_BITS)
                _sequence = _first_sequence
        return ((_last_ms << SEQUENCE_BITS) | _sequence) & MAX_ID
