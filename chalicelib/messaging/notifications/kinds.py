"""Every kind of message the queue carries, in one enumeration, and the registry of their handlers.

A kind names the module that handles it; that module registers its handler with ``@handles(kind)``, beside the
code it runs. The worker (chalicelib/jobs/queue_handler.py) imports a kind's module the first time a message of
that kind arrives, and asks here for its handler. A kind's value is the message's ``"type"`` (and, for a
notification, the push type).

Adding a kind: a member here naming its module, and ``@handles(QueueKind.THE_KIND)`` on its handler there.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from chalicelib.messaging.notifications.messages import Outcome

Handler = Callable[[dict], Outcome]

_PUSHES = "chalicelib.services.notifications.notification_jobs"
_HOST_MESSAGES = "chalicelib.services.conversation.host_messages"
_DELETION = "chalicelib.services.account.account_deletion"


class QueueKind(StrEnum):
    handled_in: str

    def __new__(cls, value: str, handled_in: str) -> QueueKind:
        kind = str.__new__(cls, value)
        kind._value_ = value
        kind.handled_in = handled_in
        return kind

    # Pushes (who gets which, and its words: services/notifications/notification_jobs.py)
    NEW_INVITE = "new_invite", _PUSHES
    INVITE_RSVP = "invite_rsvp", _PUSHES
    CONTACT_JOINED = "contact_joined", _PUSHES
    EVENT_CHANGED = "event_changed", _PUSHES
    EVENT_CANCELLED = "event_cancelled", _PUSHES
    UPCOMING_EVENT = "upcoming_event", _PUSHES
    WAITLIST_PROMOTED = "waitlist_promoted", _PUSHES
    WAITLIST_DROPPED = "waitlist_dropped", _PUSHES
    JOIN_REQUESTED = "join_requested", _PUSHES
    # The hosts' own messages to their guests: a push, or a text to a guest without the app
    ANNOUNCEMENT = "announcement", _HOST_MESSAGES
    NUDGE = "nudge", _HOST_MESSAGES
    # A step due before an event's start: the reminder text, "still coming?" and the release of unconfirmed spots
    DUE_STEP = "due_step", "chalicelib.services.notifications.attendance_steps"
    # Change texts held for a burst of edits or for quiet hours
    CHANGE_TEXTS_DUE = "change_texts_due", "chalicelib.services.texts.guest_texts"
    # A person's whole account: deleting it (one message per owned event besides), and exporting its data
    ACCOUNT_DELETION = "account_deletion", _DELETION
    OWNED_EVENT_DELETION = "owned_event_deletion", _DELETION
    DATA_EXPORT = "data_export", "chalicelib.services.account.data_export"
    # A host removed someone and asked that they be told: a push, or a text to someone without the app
    GUEST_REMOVED = "guest_removed", "chalicelib.services.hosting.removal_notices"
    # A text SNS could not take yet, tried again from its outbox record
    TEXT_RETRY = "text_retry", "chalicelib.services.texts.text_outbox"


_handlers: dict[QueueKind, Handler] = {}


def handles(kind: QueueKind) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of ``kind``, in the module the kind names."""

    def register(handler: Handler) -> Handler:
        if handler.__module__ != kind.handled_in:
            raise ValueError(f"{kind.name} is handled in {kind.handled_in}, not {handler.__module__}")
        if _handlers.get(kind, handler) is not handler:
            raise ValueError(f"{kind.name} has a handler already")
        _handlers[kind] = handler
        return handler

    return register


def kind_of(message_type: object) -> QueueKind | None:
    """The kind of a message's ``"type"``; None for a type no kind has."""
    try:
        return QueueKind(message_type)
    except ValueError:
        return None


def registered_handler(kind: QueueKind) -> Handler | None:
    """The handler registered for ``kind``; None while its module is not imported."""
    return _handlers.get(kind)
