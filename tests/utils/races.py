"""Racing the same action on threads, as parallel requests would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor


def race(
    action: Callable[[int], object], times: int, *, refused: type[BaseException] | tuple, workers: int = 8
) -> list[str]:
    """Run ``action(n)`` for n in range(times) on ``workers`` threads: "ok" for each that returned,
    "refused" for each that raised ``refused`` (anything else fails the test)."""

    def attempt(n: int) -> str:
        try:
            action(n)
        except refused:
            return "refused"
        return "ok"

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(attempt, range(times)))


def read_together(monkeypatch, owner: object, name: str, parties: int, *, timeout: float = 10) -> None:
    """Patch ``owner.name`` so that each thread's first call returns only once ``parties`` threads
    have made theirs: every racer reads before any writes, as on a loaded machine where requests
    overlap whole. Later calls of a thread pass straight through."""
    barrier = threading.Barrier(parties, timeout=timeout)
    monkeypatch.setattr(owner, name, waiting_after_first_call(getattr(owner, name), barrier))


def waiting_after_first_call(function: Callable, barrier: threading.Barrier) -> Callable:
    """``function``, each thread's first call returning only once the barrier's other parties reached it
    (different reads can share one barrier: racers of different kinds all read before any writes)."""
    seen = threading.local()

    def wrapped(*args, **kwargs):
        result = function(*args, **kwargs)
        if not getattr(seen, "done", False):
            seen.done = True
            try:
                barrier.wait()
            except threading.BrokenBarrierError:
                pass  # fewer racers reached the read (some were refused before it): go on
        return result

    return wrapped
