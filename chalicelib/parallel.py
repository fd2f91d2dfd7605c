"""Fan-out of independent AWS calls: one sequential round, however many calls it holds.

Each fan-out gets a round number that its worker threads carry, so the benchmark's call counter
can tell calls made one after another from calls made side by side.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

MAX_WORKERS = 16
_rounds = itertools.count(1)
_local = threading.local()


def current_round() -> int | None:
    """The fan-out the calling thread works for, or None on a request's own thread."""
    return getattr(_local, "round", None)


def chunks(items: Sequence[T], size: int) -> list[Sequence[T]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def parallel_map(call: Callable[[T], R], items: Sequence[T], max_workers: int = MAX_WORKERS) -> list[R]:
    """``[call(item) for item in items]``, run side by side when there is more than one.

    Every call has finished on return; the first failure is raised only then, so a caller can
    clean up knowing nothing is still in flight.
    """
    if len(items) <= 1:
        return [call(item) for item in items]
    round_number = next(_rounds)

    def run(item: T) -> R:
        _local.round = round_number
        try:
            return call(item)
        finally:
            _local.round = None

    with ThreadPoolExecutor(max_workers=min(max_workers, len(items))) as pool:
        futures = [pool.submit(run, item) for item in items]
    return [future.result() for future in futures]
