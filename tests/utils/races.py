"""Racing the same action on threads, as parallel requests would."""

from __future__ import annotations

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
