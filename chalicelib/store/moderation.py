"""Taking down what was said in an event's conversation: a message, a poll or a time suggestion keeps its item,
its place and the event's counts, and loses its words (``removed`` set, the text attributes gone)."""

from __future__ import annotations

from chalicelib.models.events import (
    MESSAGE_PREFIX,
    POLL_PREFIX,
    SUGGESTION_PREFIX,
    Message,
    Poll,
    TimeSuggestion,
    event_pk,
)
from chalicelib.store import Refused, refusals

REMOVED_KEY = "removed"  # a removed poll's dedupe key: the venue it compared is gone too


def _words_gone(kind) -> list:
    """The update actions that drop what a person wrote in an item of ``kind``."""
    if kind is Message:
        return [Message.body.remove()]
    if kind is Poll:
        return [Poll.suggested_venue.remove(), Poll.dedupe_key.set(REMOVED_KEY)]
    return [TimeSuggestion.comment.remove()]


def find_message(event_id: int, message_id: int) -> Message | None:
    """The event's message of that id: a Query of its ``MSG#`` items (at most the event's message limit)."""
    items = Message.query(
        event_pk(event_id), Message.sk.startswith(MESSAGE_PREFIX), Message.id == message_id, consistent_read=True
    )
    return next(iter(items), None)


def find_poll(event_id: int, poll_id: int) -> Poll | None:
    """The event's poll of that id: a Query of its few ``POLL#`` items."""
    items = Poll.query(event_pk(event_id), Poll.sk.startswith(POLL_PREFIX), Poll.id == poll_id, consistent_read=True)
    return next(iter(items), None)


def find_suggestion(event_id: int, suggestion_id: int) -> TimeSuggestion | None:
    try:
        return TimeSuggestion.get(event_pk(event_id), f"{SUGGESTION_PREFIX}{suggestion_id:016d}", consistent_read=True)
    except TimeSuggestion.DoesNotExist:
        return None


def take_down(item: Message | Poll | TimeSuggestion) -> None:
    """Mark ``item`` removed and drop its words, on condition it is still there; removed already: no change."""
    kind = type(item)
    try:
        with refusals():
            item.update(
                actions=[kind.removed.set(True), *_words_gone(kind)],
                condition=kind.pk.exists() & kind.removed.does_not_exist(),
            )
    except Refused:
        return  # removed meanwhile (or with the event)
