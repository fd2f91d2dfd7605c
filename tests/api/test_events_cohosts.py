"""Co-hosts: the owner makes invitees co-hosts (at most 5), the role ends by the owner or the co-host,
by declining; what a co-host may and may not do over the API."""

from __future__ import annotations

from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, phone, stored_event

FORBIDDEN = {"detail": "You do not have permission to perform this action."}


def _cohost_path(event_id, user_id):
    return f"/events/{event_id}/cohosts/{user_id}"


def _appoint(client, event_id, person, user_id):
    return client.http.put(_cohost_path(event_id, user_id), headers={"Authorization": f"Bearer {person.token}"})


def _end(client, event_id, person, user_id):
    return client.http.delete(_cohost_path(event_id, user_id), headers={"Authorization": f"Bearer {person.token}"})


def test_the_owner_makes_an_invitee_a_cohost_everyone_sees_it(client):
    owner, cohost, guest = make_person("Owner"), make_person("Cohost"), make_person("Guest")
    event = make_event(owner, cohost, guest)
    response = _appoint(client, event.id, owner, cohost.user.id)
    assert response.status_code == 200 and body(response)["cohost_ids"] == [cohost.user.id]
    seen = body(get(client, f"/events/{event.id}", guest.token))
    assert seen["cohost_ids"] == [cohost.user.id]
    rows = {row["user_id"]: row["is_cohost"] for row in seen["invitees"]}
    assert rows == {owner.user.id: False, cohost.user.id: True, guest.user.id: False}
    assert stored_event(event.id).cohost_count == 1


def test_only_an_invitee_can_be_a_cohost(client):
    owner, guest, stranger = make_person("Owner"), make_person("Guest"), make_person("Stranger")
    event = make_event(owner, guest)
    for user_id in (stranger.user.id, owner.user.id):
        refused = _appoint(client, event.id, owner, user_id)
        assert refused.status_code == 400 and body(refused) == {"user_id": ["Only an invitee can be a co-host."]}
    assert body(get(client, f"/events/{event.id}", owner.token))["cohost_ids"] == []


def test_a_sixth_cohost_is_refused_by_user_id(client):
    owner = make_person("Owner")
    guests = [make_person(f"Guest {n}") for n in range(6)]
    event = make_event(owner, *guests)
    for guest in guests[:5]:
        assert _appoint(client, event.id, owner, guest.user.id).status_code == 200
    refused = _appoint(client, event.id, owner, guests[5].user.id)
    assert refused.status_code == 400 and body(refused) == {"user_id": ["An event has at most 5 co-hosts."]}
    assert stored_event(event.id).cohost_count == 5


def test_guests_and_cohosts_may_not_appoint_strangers_do_not_see_the_event(client):
    owner, cohost, guest, stranger = (make_person(n) for n in ("Owner", "Cohost", "Guest", "Stranger"))
    event = make_event(owner, cohost, guest)
    _appoint(client, event.id, owner, cohost.user.id)
    for person, status in ((guest, 403), (cohost, 403), (stranger, 404)):
        assert _appoint(client, event.id, person, guest.user.id).status_code == status
    assert body(get(client, f"/events/{event.id}", owner.token))["cohost_ids"] == [cohost.user.id]


def test_a_cohost_steps_down_or_is_removed_and_the_place_is_given_back(client):
    owner, first, second = make_person("Owner"), make_person("First"), make_person("Second")
    event = make_event(owner, first, second)
    _appoint(client, event.id, owner, first.user.id)
    _appoint(client, event.id, owner, second.user.id)
    assert _end(client, event.id, second, first.user.id).status_code == 403  # not theirs to end
    assert _end(client, event.id, first, first.user.id).status_code == 204
    assert _end(client, event.id, owner, second.user.id).status_code == 204
    assert body(get(client, f"/events/{event.id}", owner.token))["cohost_ids"] == []
    assert stored_event(event.id).cohost_count == 0


def test_a_cohost_who_declines_is_no_longer_one(client):
    owner, cohost = make_person("Owner"), make_person("Cohost")
    event = make_event(owner, cohost)
    _appoint(client, event.id, owner, cohost.user.id)
    assert post_json(client, f"/events/{event.id}/reject", {}, cohost.token).status_code == 200
    assert body(get(client, f"/events/{event.id}", owner.token))["cohost_ids"] == []
    assert stored_event(event.id).cohost_count == 0


def test_a_cohost_edits_invites_announces_and_nudges_but_does_not_cancel(client):
    owner, cohost = make_person("Owner"), make_person("Cohost")
    event = make_event(owner, cohost)
    _appoint(client, event.id, owner, cohost.user.id)
    base = f"/events/{event.id}"
    edited = post_json(client, base, {"title": "Ours", "invite_phone_numbers": [phone()]}, cohost.token, method="PATCH")
    assert edited.status_code == 200 and body(edited)["title"] == "Ours" and len(body(edited)["invitees"]) == 3
    added = next(row for row in body(edited)["invitees"] if row["user_id"] not in (owner.user.id, cohost.user.id))
    assert added["is_cohost"] is False
    told = post_json(client, f"{base}/announcements", {"text": "Bring snacks"}, cohost.token)
    assert told.status_code == 201, body(told)
    assert post_json(client, f"{base}/nudge", {}, cohost.token).status_code == 200
    cancel = client.http.put(f"{base}/cancel_event", headers={"Authorization": f"Bearer {cohost.token}"})
    assert cancel.status_code == 403 and body(cancel) == FORBIDDEN
    assert stored_event(event.id).cancelled is not True


def test_a_cohosts_invites_are_charged_to_the_cohosts_own_allowance(client, override_settings):
    override_settings(contact_lookup_numbers_per_user_per_day=10)
    owner, cohost = make_person("Owner"), make_person("Cohost")
    event = make_event(owner, cohost)
    _appoint(client, event.id, owner, cohost.user.id)
    base = f"/events/{event.id}"
    many = [phone() for _ in range(8)]
    assert post_json(client, base, {"invite_phone_numbers": many}, cohost.token, method="PATCH").status_code == 200
    # the co-host has 2 numbers left, the owner 9 (the co-host was the first)
    over = post_json(client, base, {"invite_phone_numbers": [phone() for _ in range(3)]}, cohost.token, method="PATCH")
    assert over.status_code == 429
    fine = post_json(client, base, {"invite_phone_numbers": [phone() for _ in range(9)]}, owner.token, method="PATCH")
    assert fine.status_code == 200 and len(body(fine)["invitees"]) == 2 + 8 + 9


def test_a_cancelled_event_takes_no_cohosts(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    client.http.put(f"/events/{event.id}/cancel_event", headers={"Authorization": f"Bearer {owner.token}"})
    refused = _appoint(client, event.id, owner, guest.user.id)
    assert refused.status_code == 409 and body(refused) == {"detail": "This event has been cancelled."}
    assert not stored_event(event.id).cohost_count


def test_appointments_that_keep_colliding_answer_503_with_retry_after_and_change_nothing(client, monkeypatch):
    from chalicelib import store
    from chalicelib.store import invitations as invitation_store

    def collide(*_args, **_kwargs):
        raise store.Contended()

    monkeypatch.setattr(invitation_store, "make_cohost", collide)
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    refused = _appoint(client, event.id, owner, guest.user.id)
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    assert body(get(client, f"/events/{event.id}", owner.token))["cohost_ids"] == []


def test_lists_and_the_timeline_show_cohost_ids(client):
    owner, cohost = make_person("Owner"), make_person("Cohost")
    event = make_event(owner, cohost)
    _appoint(client, event.id, owner, cohost.user.id)
    listed = body(get(client, "/events", cohost.token))["results"]
    assert [(e["id"], e["cohost_ids"]) for e in listed] == [(event.id, [cohost.user.id])]
    timeline = body(get(client, "/events/timeline?type=received", cohost.token))
    rows = timeline["results"] if isinstance(timeline, dict) else timeline
    assert [(e["id"], e["cohost_ids"]) for e in rows] == [(event.id, [cohost.user.id])]
    row = next(r for r in rows[0]["invitees"] if r["user_id"] == cohost.user.id)
    assert row["is_cohost"] is True
