"""What the notifications pipeline passes around: the queue message types, a push, and the outcome of
sending one message's pushes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from chalicelib.domain import event_fields
from chalicelib.messaging.notifications.push_words import PushWords
from chalicelib.models.auth import CLAIM_DAYS
from chalicelib.timeutil import utcnow

# The queue's message kinds are declared with their handlers (kinds.py); a notification's kind is also its push type.
# A push type with no message of its own: an accept that filled the event (invite_rsvp sends it).
EVENT_FULL = "event_full"

# Edited fields, as a person would name them (declared with each field).
FIELD_WORDS = event_fields.FIELD_WORDS


class RetryLater(Exception):
    """Some pushes of a message failed for a reason that may pass: let the queue deliver it again."""


@dataclass
class Outcome:
    """What processing one message did, for logs and tests."""

    sent: int = 0
    duplicates: int = 0  # already claimed by an earlier delivery
    removed_endpoints: int = 0
    failed: int = 0

    def __iadd__(self, other: Outcome) -> Outcome:
        self.sent += other.sent
        self.duplicates += other.duplicates
        self.removed_endpoints += other.removed_endpoints
        self.failed += other.failed
        return self


def event_expiry(event) -> datetime:
    """Claims of once-per-event pushes live until the event is over (at least CLAIM_DAYS). Dates are 1970-2100
    since the limit; an event stored before it may be on 9999-12-31, where a day more does not exist."""
    try:
        over = event.event_date + timedelta(days=1)
    except OverflowError:
        over = event.event_date
    return max(utcnow() + timedelta(days=CLAIM_DAYS), over)


@dataclass(frozen=True)
class Push:
    push_type: str  # the payload's "type" and the first part of the delivery claim's key
    occurrence: str  # what makes it one notification: an event id, or the queue message's id
    title: str
    body: str | PushWords  # given as PushWords: the body in each device's language, ``body`` the English
    event_id: int | None = None
    expires_at: datetime | None = None  # of the claim; default CLAIM_DAYS from now
    extra: dict = field(default_factory=dict)
    words: PushWords | None = None

    def __post_init__(self) -> None:
        if isinstance(self.body, PushWords):
            object.__setattr__(self, "words", self.body)
            object.__setattr__(self, "body", self.body.english())

    def data(self) -> dict:
        return {"type": self.push_type, "event_id": self.event_id, **self.extra}

    @classmethod
    def once_per_event(cls, push_type: str, event, body: str | PushWords, occurrence: str | None = None) -> Push:
        """A push sent at most once per recipient for ``event``: its claim lasts until the event is over."""
        return cls(push_type, occurrence or str(event.id), event.title, body, event.id, event_expiry(event))
