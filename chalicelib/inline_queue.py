"""The queue when there is none (tests, ``make run``: no queue URL): a message is handled in the process that sent it.

The sending side (messaging/notifications/queueing.py) sits below the use cases that handle messages, so it
cannot call them; the process's entry point (app.py) registers the queue side's worker here instead.

A real queue can hold a message back (SQS's DelaySeconds); handled at once, a handler that puts its own kind of
message off (the change texts waiting out quiet hours) would call itself without end. Such a message is kept
here instead, and handled with the first message after its delay has passed (``make run``), or when
``run_put_off`` is called (tests, the hourly job). AWS never takes this path.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextvars import ContextVar

_worker: Callable[[dict], object] | None = None
_handling: ContextVar[tuple[str, ...]] = ContextVar("inline_queue_handling", default=())
_put_off: list[tuple[float, dict]] = []
_put_off_lock = threading.Lock()


def register(worker: Callable[[dict], object]) -> None:
    """``worker(message)`` handles each message sent while there is no queue."""
    global _worker
    _worker = worker


def run(message: dict, delay_seconds: int = 0) -> None:
    """Hand ``message`` to the registered worker; raises when none was registered (the message would be lost).
    A delayed message of the kind being handled right now is kept for later instead (see the module's note)."""
    if _worker is None:
        raise RuntimeError("no queue URL and no inline worker: register one as app.py does")
    handling = _handling.get()
    if delay_seconds and message.get("type") in handling:
        with _put_off_lock:
            _put_off.append((time.time() + delay_seconds, message))
        return
    if not handling:
        _run_due()
    token = _handling.set((*handling, message.get("type", "")))
    try:
        _worker(message)
    finally:
        _handling.reset(token)


def _take(due_by: float | None) -> list[dict]:
    with _put_off_lock:
        taken = [message for due, message in _put_off if due_by is None or due <= due_by]
        _put_off[:] = [(due, message) for due, message in _put_off if due_by is not None and due > due_by]
    return taken


def _run_due() -> None:
    for message in _take(time.time()):
        run(message)


def run_put_off() -> int:
    """Handle every message kept for later, due or not (each decides again whether it is time); returns how
    many were handled."""
    taken = _take(None)
    for message in taken:
        run(message)
    return len(taken)


def put_off() -> list[dict]:
    """The messages kept for later, oldest first."""
    with _put_off_lock:
        return [message for _due, message in _put_off]


def discard_put_off() -> None:
    """Forget the messages kept for later (a test's end)."""
    _take(None)
