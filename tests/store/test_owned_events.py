"""Deleting an account finds every event the person owns, also one the eventually consistent ``by_user`` index
does not show yet, and no event of theirs can be created once the account is closed."""

from __future__ import annotations

import pytest

from chalicelib.errors import InvalidToken
from chalicelib.jobs import queue_handler
from chalicelib.models.events import EventsTable, Invitation, event_pk
from chalicelib.models.users import OwnedEvent, user_pk
from chalicelib.services.account.account_deletion import ACCOUNT_DELETION
from chalicelib.services.hosting import events
from chalicelib.store import account_deletion as deletion_store
from tests.utils.factories import future, make_event, make_person


def _partition(event_id: int) -> list:
    return list(EventsTable.query(event_pk(event_id), consistent_read=True))


def _delete_account(person) -> None:
    deletion_store.close_account(person.user)
    queue_handler.process({"type": ACCOUNT_DELETION, "id": 1, "user_id": person.id})


def _index_lagging_behind(monkeypatch, hidden: set[int]) -> None:
    """``by_user`` as it answers before it caught up: the invitations of ``hidden`` events are not in it yet."""
    query = Invitation.by_user.query

    def stale(*args, **kwargs):
        return [inv for inv in query(*args, **kwargs) if inv.event_id not in hidden]

    monkeypatch.setattr(Invitation.by_user, "query", stale)


def test_an_event_the_index_does_not_show_yet_is_deleted_with_its_owner(aws, monkeypatch):
    # GIVEN an owner with two events, the newest not yet in the by_user index, and a guest in it
    owner, guest = make_person("Owner"), make_person("Guest")
    older, newest = make_event(owner, guest), make_event(owner, guest, title="Just made")
    _index_lagging_behind(monkeypatch, {newest.id})
    # WHEN the owner deletes the account and the cascade runs
    _delete_account(owner)
    # THEN both events are gone (none left behind with no owner), and so is the job
    assert _partition(older.id) == [] and _partition(newest.id) == []
    assert list(OwnedEvent.query(user_pk(owner.id), consistent_read=True)) == []
    assert deletion_store.pending_jobs() == []


def test_no_event_is_created_for_an_account_closed_while_the_request_ran(aws):
    # GIVEN a request to create an event that authenticated before its owner closed the account
    owner = make_person("Owner")
    deletion_store.close_account(owner.user)
    data = events.EventInput(title="Late", event_date=future())
    # WHEN it writes after the close THEN it is refused as the owner's token is, and nothing is stored
    with pytest.raises(InvalidToken):
        events.create_event(owner.user, data)
    assert list(OwnedEvent.query(user_pk(owner.id), consistent_read=True)) == []
    assert list(Invitation.by_user.query(user_pk(owner.id))) == []


def test_each_event_records_its_owner_and_the_record_goes_with_the_event(aws):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    assert [item.event_id for item in OwnedEvent.query(user_pk(owner.id), consistent_read=True)] == [event.id]
    assert list(OwnedEvent.query(user_pk(guest.id), consistent_read=True)) == []
    deletion_store.delete_event(event.id, owner.id)
    assert _partition(event.id) == [] and list(OwnedEvent.query(user_pk(owner.id), consistent_read=True)) == []
