"""Hidden lists stay hidden: under guest_list count_only or hosts_only nothing a guest does tells them who
else is invited or how many (inviting, the invitee cap, marking an invitation seen)."""

from __future__ import annotations

import pytest

from chalicelib.store.invitations import find_invitation
from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, phone

NO_MORE = {"detail": "You cannot invite more people to this event."}
NOT_FOUND = {"detail": "Not found."}
HIDDEN = ["count_only", "hosts_only"]


def _invite(client, event_id, person, numbers):
    return post_json(client, f"/events/{event_id}", {"invite_phone_numbers": numbers}, person.token, method="PATCH")


def _invitee_ids(client, event_id, owner):
    return {row["user_id"] for row in body(get(client, f"/events/{event_id}", owner.token))["invitees"]}


def _used(event_id, person) -> int:
    return int(find_invitation(event_id, person.user.id).guests_invited or 0)


@pytest.mark.parametrize("guest_list", HIDDEN)
def test_an_already_invited_number_costs_the_allowance_and_answers_as_a_new_one(client, guest_list):
    owner, guest, other = make_person("Owner"), make_person("Guest"), make_person("Other")
    event = make_event(owner, guest, other, guest_invites=2, guest_list=guest_list)
    known = _invite(client, event.id, guest, [other.phone])
    new = _invite(client, event.id, guest, [phone()])
    assert known.status_code == new.status_code == 200
    assert body(known).keys() == body(new).keys()
    assert [row["user_id"] for row in body(known)["invitees"]] == [row["user_id"] for row in body(new)["invitees"]]
    assert _used(event.id, guest) == 2
    refused = _invite(client, event.id, guest, [phone()])
    assert refused.status_code == 403 and body(refused) == NO_MORE


def test_an_open_list_still_charges_only_numbers_new_to_the_event(client):
    owner, guest, other = make_person("Owner"), make_person("Guest"), make_person("Other")
    event = make_event(owner, guest, other, guest_invites=1)
    assert _invite(client, event.id, guest, [other.phone]).status_code == 200
    assert _used(event.id, guest) == 0


@pytest.mark.parametrize("guest_list", HIDDEN)
def test_the_invitee_cap_answers_as_the_allowance_would_and_costs_nothing(client, override_settings, guest_list):
    override_settings(invitees_per_event=3)
    owner, guest, other = make_person("Owner"), make_person("Guest"), make_person("Other")
    event = make_event(owner, guest, other, guest_invites=5, guest_list=guest_list)
    before = _invitee_ids(client, event.id, owner)
    for numbers in ([phone(), phone()], [other.phone, phone()]):  # a known number changes nothing either
        refused = _invite(client, event.id, guest, numbers)
        assert refused.status_code == 403 and body(refused) == NO_MORE
    assert _invitee_ids(client, event.id, owner) == before and _used(event.id, guest) == 0
    assert _invite(client, event.id, guest, [phone()]).status_code == 200
    assert _used(event.id, guest) == 1


@pytest.mark.parametrize("guest_list", HIDDEN)
def test_beyond_the_allowance_is_refused_before_the_cap_is_looked_at(client, override_settings, guest_list):
    override_settings(invitees_per_event=3)
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, guest_invites=1, guest_list=guest_list)
    refused = _invite(client, event.id, guest, [phone(), phone(), phone()])
    assert refused.status_code == 403 and body(refused) == NO_MORE


@pytest.mark.parametrize("guest_list", HIDDEN)
def test_marking_someone_elses_invitation_seen_is_404_like_an_unknown_id(client, guest_list):
    owner, guest, other = make_person("Owner"), make_person("Guest"), make_person("Other")
    event = make_event(owner, guest, other, guest_list=guest_list)
    others = find_invitation(event.id, other.user.id)
    theirs = client.http.put(
        f"/events/{event.id}/invitations/{others.id}/mark_seen", headers={"Authorization": f"Bearer {guest.token}"}
    )
    unknown = client.http.put(
        f"/events/{event.id}/invitations/12345/mark_seen", headers={"Authorization": f"Bearer {guest.token}"}
    )
    assert theirs.status_code == unknown.status_code == 404
    assert body(theirs) == body(unknown) == NOT_FOUND
    assert not find_invitation(event.id, other.user.id).has_seen
