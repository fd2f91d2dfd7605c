"""The queue when there is none (tests, ``make run``: no queue URL): a message is handled in the process that sent it.

The sending side (messaging/notifications/queueing.py) sits below the use cases that handle messages, so it
cannot call them; the process's entry point (app.py) registers the queue side's worker here instead.
"""

from __future__ import annotations

from collections.abc import Callable

_worker: Callable[[dict], object] | None = None


def register(worker: Callable[[dict], object]) -> None:
    """``worker(message)`` handles each message sent while there is no queue."""
    global _worker
    _worker = worker


def run(message: dict) -> None:
    """Hand ``message`` to the registered worker; raises when none was registered (the message would be lost)."""
    if _worker is None:
        raise RuntimeError("no queue URL and no inline worker: register one as app.py does")
    _worker(message)
