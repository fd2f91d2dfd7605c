"""Co-hosts are the owner's to change: a reply on a co-host's behalf is the owner's alone, and only an
invitee who has not declined can be made a co-host."""

from __future__ import annotations

import pytest

from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, stored_event

FORBIDDEN = {"detail": "You do not have permission to perform this action."}
DECLINED = {"user_id": ["Only an invitee who has not declined can be a co-host."]}


def _appoint(client, event_id, person, user_id):
    return client.http.put(f"/events/{event_id}/cohosts/{user_id}", headers={"Authorization": f"Bearer {person.token}"})


def _reply_for(client, host, event_id, user_id, payload):
    return post_json(client, f"/events/{event_id}/invitees/{user_id}/reply", payload, token=host.token, method="PUT")


def _cohost_ids(client, event_id, person):
    return body(get(client, f"/events/{event_id}", person.token))["cohost_ids"]


def test_a_cohost_may_not_decline_for_another_cohost_and_the_role_stays(client):
    owner, first, second = make_person("Owner"), make_person("First"), make_person("Second")
    event = make_event(owner, first, second)
    for person in (first, second):
        assert _appoint(client, event.id, owner, person.user.id).status_code == 200
    post_json(client, f"/events/{event.id}/accept", {}, second.token)
    for accept in (False, True):
        refused = _reply_for(client, first, event.id, second.user.id, {"accept": accept})
        assert refused.status_code == 403 and body(refused) == FORBIDDEN
    assert sorted(_cohost_ids(client, event.id, owner)) == sorted([first.user.id, second.user.id])
    assert stored_event(event.id).cohost_count == 2
    row = {r["user_id"]: r for r in body(get(client, f"/events/{event.id}", owner.token))["invitees"]}[second.user.id]
    assert row["is_attending"] is True and row["replied_by_host"] is False


@pytest.mark.parametrize("accept", [False, True], ids=["declining ends the role", "accepting keeps it"])
def test_the_owner_replies_for_a_cohost(client, accept):
    owner, cohost = make_person("Owner"), make_person("Cohost")
    event = make_event(owner, cohost)
    _appoint(client, event.id, owner, cohost.user.id)
    answered = _reply_for(client, owner, event.id, cohost.user.id, {"accept": accept})
    assert answered.status_code == 200 and body(answered)["has_accepted_invite"] is accept
    assert body(answered)["replied_by_host"] is True
    assert _cohost_ids(client, event.id, owner) == ([cohost.user.id] if accept else [])
    assert int(stored_event(event.id).cohost_count or 0) == (1 if accept else 0)


def test_a_cohost_still_replies_for_a_plain_guest_and_for_themself(client):
    owner, cohost, guest = make_person("Owner"), make_person("Cohost"), make_person("Guest")
    event = make_event(owner, cohost, guest)
    _appoint(client, event.id, owner, cohost.user.id)
    assert _reply_for(client, cohost, event.id, guest.user.id, {"accept": True}).status_code == 200
    assert _reply_for(client, cohost, event.id, cohost.user.id, {"accept": True}).status_code == 200
    assert _cohost_ids(client, event.id, owner) == [cohost.user.id]


def test_an_invitee_who_declined_cannot_be_made_a_cohost(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    post_json(client, f"/events/{event.id}/reject", {}, guest.token)
    refused = _appoint(client, event.id, owner, guest.user.id)
    assert refused.status_code == 400 and body(refused) == DECLINED
    assert _cohost_ids(client, event.id, owner) == [] and not stored_event(event.id).cohost_count
    # accepting again makes them appointable
    post_json(client, f"/events/{event.id}/accept", {}, guest.token)
    assert _appoint(client, event.id, owner, guest.user.id).status_code == 200


def test_an_invitee_the_owner_declined_for_cannot_be_made_a_cohost(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    _reply_for(client, owner, event.id, guest.user.id, {"accept": False})
    refused = _appoint(client, event.id, owner, guest.user.id)
    assert refused.status_code == 400 and body(refused) == DECLINED
