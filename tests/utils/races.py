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
    original = getattr(owner, name)
    barrier = threading.Barrier(parties)
    seen = threading.local()

    def wrapped(*args, **kwargs):
        result = original(*args, **kwargs)
        if not getattr(seen, "done", False):
            seen.done = True
            try:
                barrier.wait(timeout)
            except threading.BrokenBarrierError:
                pass  # fewer racers reached the read (some were refused before it): go on
        return result

    monkeypatch.setattr(owner, name, wrapped)
