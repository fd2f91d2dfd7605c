"""The answer to a join that was saved. No chalice imports.

Once the join is written the person is in the event, whatever happens next: when the event cannot be read
back for the answer (DynamoDB throttling or not answering in time), the answer says the join was saved with
what is known, rather than a 503 that would have the client try again a join that is done."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from chalicelib.aws_errors import is_transient
from chalicelib.errors import ServiceUnavailable
from chalicelib.services.participants.event_reads import get_event
from chalicelib.store.events import EventView

log = logging.getLogger("invites")
T = TypeVar("T")


def built_or_none(build: Callable[[], T]) -> T | None:
    """``build()``, the answer to a join already saved, or None when an AWS fault keeps it from being built."""
    try:
        return build()
    except ServiceUnavailable:
        log.warning("a saved join answered without its event: retries spent")
        return None
    except Exception as exc:
        if not is_transient(exc):
            raise
        log.warning("a saved join answered without its event: %s", type(exc).__name__)
        return None


def joined_view(caller, event_id: int) -> EventView | None:
    """The event as the person who joined it sees it, or None when it cannot be read now."""
    return built_or_none(lambda: get_event(caller, event_id))


def saved_answer(event_id: int) -> dict:
    """What is known of a saved join whose event could not be read: joined, and the event's id."""
    return {"status": "joined", "event_id": event_id}
