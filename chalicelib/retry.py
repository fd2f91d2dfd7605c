"""The one retry helper: a number of attempts, a pause between them, and what is worth another try.

    result = retry(attempt, attempts=5, pause=linear(0.05), retry_on=conflicted)

``attempt`` is called with the attempt's number (0 first); an exception for which ``retry_on`` is true
is retried until the attempts are spent, then raised; any other is raised at once. Pauses happen only
between attempts. Callers that decide from a result (not an exception) raise :class:`TryAgain`, which
may name the pause before the next attempt itself (``TryAgain(pause=0)``: go on at once).

Every loop in the service that tries again runs through here. Where a race can be closed by a condition
that cannot lose (a bounded ADD, a ceiling: services/guards/ratelimit.py), that is done instead of retrying;
where it cannot, the caller's docstring says why its attempts are needed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

Pause = Callable[[int], float]  # seconds to wait before attempt n (n >= 1)


class TryAgain(Exception):
    """Raised by an attempt whose outcome says: read again and try again; ``pause`` (seconds), when
    given, replaces the retry's own pause before the next attempt."""

    def __init__(self, pause: float | None = None):
        super().__init__()
        self.pause = pause


class AttemptsSpent(Exception):
    """Every attempt said :class:`TryAgain`."""


def no_pause(attempt: int) -> float:
    return 0.0


def linear(step: float) -> Pause:
    """``step`` seconds times the attempt's number."""
    return lambda attempt: step * attempt


def jittered(step: float) -> Pause:
    """A random pause of up to ``step`` times the attempt's number (callers racing each other take turns)."""
    return lambda attempt: random.uniform(0, step * attempt)


def exponential_jitter(base: float) -> Pause:
    """Full jitter: a random pause of up to ``base * 2**attempt``."""
    return lambda attempt: random.uniform(0, base * 2**attempt)


def _never(exc: BaseException) -> bool:
    return False


def retry(
    attempt: Callable[[int], T],
    *,
    attempts: int,
    pause: Pause = no_pause,
    retry_on: Callable[[BaseException], bool] = _never,
    sleep: Callable[[float], None] | None = None,
) -> T:
    """Run ``attempt`` up to ``attempts`` times; see the module's docstring. Raises :class:`AttemptsSpent`
    when the last attempt raised :class:`TryAgain`."""
    asked: float | None = None
    for number in range(attempts):
        if number:
            seconds = pause(number) if asked is None else asked
            if seconds > 0:
                (sleep or time.sleep)(seconds)
        asked = None
        try:
            return attempt(number)
        except TryAgain as again:
            asked = again.pause
        except Exception as exc:
            if number == attempts - 1 or not retry_on(exc):
                raise
    raise AttemptsSpent()
