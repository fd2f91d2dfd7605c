"""53-bit ids made without a central counter.

Layout: milliseconds since 2024-01-01 (41 bits, good until 2093) followed by 12 random bits.
Every value fits in a JavaScript number or a Swift Double. Two ids made in the same millisecond
collide with probability 1/4096, so every create is a conditional write that retries on clash.
"""

from __future__ import annotations

import secrets
import time

EPOCH_MS = 1_704_067_200_000
RANDOM_BITS = 12
MAX_ID = 2**53 - 1


def new_id() -> int:
    millis = int(time.time() * 1000) - EPOCH_MS
    return ((millis << RANDOM_BITS) | secrets.randbits(RANDOM_BITS)) & MAX_ID
