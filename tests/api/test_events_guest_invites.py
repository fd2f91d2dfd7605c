"""Guests inviting guests: a guest's PATCH carrying only invite_phone_numbers adds people, up to the event's
guest_invites numbers per guest in all; anything else from a guest stays 403."""

from __future__ import annotations

from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, phone

FORBIDDEN = {"detail": "You do not have permission to perform this action."}
NO_MORE = {"detail": "You cannot invite more people to this event."}


def _invite(client, event_id, person, numbers):
    return post_json(client, f"/events/{event_id}", {"invite_phone_numbers": numbers}, person.token, method="PATCH")


def _invitee_ids(client, event_id, owner):
    return {row["user_id"] for row in body(get(client, f"/events/{event_id}", owner.token))["invitees"]}


def test_a_guest_adds_numbers_within_the_events_allowance(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    friend = make_person("Friend")
    event = make_event(owner, guest, guest_invites=2)
    response = _invite(client, event.id, guest, [friend.phone])
    assert response.status_code == 200
    assert friend.user.id in _invitee_ids(client, event.id, owner)
    assert body(get(client, f"/events/{event.id}", friend.token))["id"] == event.id


def test_beyond_the_allowance_a_guest_is_told_and_nothing_is_added(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, guest_invites=2)
    assert _invite(client, event.id, guest, [phone(), phone()]).status_code == 200
    before = _invitee_ids(client, event.id, owner)
    refused = _invite(client, event.id, guest, [phone()])
    assert refused.status_code == 403 and body(refused) == NO_MORE
    assert _invitee_ids(client, event.id, owner) == before


def test_three_numbers_at_once_on_an_allowance_of_two_add_nobody(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, guest_invites=2)
    before = _invitee_ids(client, event.id, owner)
    refused = _invite(client, event.id, guest, [phone(), phone(), phone()])
    assert refused.status_code == 403 and body(refused) == NO_MORE
    assert _invitee_ids(client, event.id, owner) == before


def test_without_an_allowance_a_guest_may_not_invite_as_today(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    refused = _invite(client, event.id, guest, [phone()])
    assert refused.status_code == 403 and body(refused) == FORBIDDEN


def test_any_other_field_from_a_guest_stays_403(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, guest_invites=5)
    refused = post_json(
        client, f"/events/{event.id}", {"invite_phone_numbers": [phone()], "title": "Mine"}, guest.token, method="PATCH"
    )
    assert refused.status_code == 403 and body(refused) == FORBIDDEN


def test_a_guests_invites_keep_the_events_invitee_cap_and_a_refusal_costs_nothing(client, override_settings):
    override_settings(invitees_per_event=3)
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, guest_invites=5)
    refused = _invite(client, event.id, guest, [phone(), phone(), phone()])
    assert refused.status_code == 400 and body(refused) == {
        "invite_phone_numbers": ["An event can have at most 3 invitees."]
    }
    assert len(_invitee_ids(client, event.id, owner)) == 2
    assert _invite(client, event.id, guest, [phone(), phone()]).status_code == 200
    assert len(_invitee_ids(client, event.id, owner)) == 4
