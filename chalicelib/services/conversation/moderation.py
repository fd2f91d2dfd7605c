"""Taking down a message, a poll or a time suggestion of an event's conversation. No chalice imports.

Its author may take down their own (``REMOVE_OWN_POST``), a host anyone's (``MODERATE``): domain.roles. The item
stays where it was with its words gone and ``removed`` set, so the conversation's counts and order stay; exports
leave it out. Someone outside the event is answered 404 before any of the event's items is read; a repeat, or an
item removed already, answers as the first removal did.
"""

from __future__ import annotations

from collections.abc import Callable

from chalicelib.domain.roles import Action, require, role_of
from chalicelib.errors import NotFound
from chalicelib.store import invitations as invitation_store
from chalicelib.store import moderation as moderation_store


def remove_message(caller, event_id: int, message_id: int) -> None:
    _take_down(caller, event_id, lambda: moderation_store.find_message(event_id, message_id))


def remove_poll(caller, event_id: int, poll_id: int) -> None:
    _take_down(caller, event_id, lambda: moderation_store.find_poll(event_id, poll_id))


def remove_time_suggestion(caller, event_id: int, suggestion_id: int) -> None:
    _take_down(caller, event_id, lambda: moderation_store.find_suggestion(event_id, suggestion_id))


def _take_down(caller, event_id: int, find: Callable[[], object]) -> None:
    role = role_of(invitation_store.find_invitation(event_id, caller.id))
    require(role, Action.READ)
    item = find()
    if item is None:
        raise NotFound()
    require(role, Action.REMOVE_OWN_POST if item.user_id == caller.id else Action.MODERATE)
    if not item.removed:
        moderation_store.take_down(item)
