"""A host removes someone from the guest list: DELETE /events/{id}/invitees/{user_id}. The spots, the place in line
and the co-host role go with the invitation, the line moves, and the person's access ends everywhere."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from chalicelib.errors import ServiceUnavailable
from chalicelib.models.events import WAIT_PREFIX, EventsTable, Invitation, event_pk
from chalicelib.services.account import data_export
from chalicelib.services.hosting import events, guest_removal
from chalicelib.services.replies import replies
from chalicelib.store import invitations as invitation_store
from chalicelib.store import removals as removal_store
from tests.utils.api import body, get, post_json
from tests.utils.factories import future, make_event, make_person, phone, stored_event
from tests.utils.races import race, read_together
from tests.utils.web import invite_by_text, link_texted_to, page, post_form, text_of


def remove(client, host, event_id, user_id, headers=None, query=""):
    path = f"/events/{event_id}/invitees/{user_id}{query}"
    return client.http.delete(path, headers={"Authorization": f"Bearer {host.token}", **(headers or {})})


def accept(client, person, event_id, **payload):
    return post_json(client, f"/events/{event_id}/accept", payload, token=person.token)


def invited(event_id: int) -> set[int]:
    items = Invitation.query(event_pk(event_id), Invitation.sk.startswith("INV#"), consistent_read=True)
    return {item.user_id for item in items}


def waiting(event_id: int) -> list[int]:
    items = EventsTable.query(event_pk(event_id), EventsTable.sk.startswith(WAIT_PREFIX), consistent_read=True)
    return [item.user_id for item in items]


def test_removing_a_guest_who_accepted_gives_their_spots_back_and_ends_their_access(client):
    olive, gus, ann = make_person("Olive"), make_person("Gus"), make_person("Ann")
    event = make_event(olive, gus, ann, total_spots=10, max_extra_guests=2)
    assert accept(client, gus, event.id, extra_guests=2).status_code == 200
    assert stored_event(event.id).spots_filled == 3

    response = remove(client, olive, event.id, gus.id)

    assert response.status_code == 204 and response.body in (b"", None)
    stored = stored_event(event.id)
    assert (stored.spots_filled, stored.accepted_count) == (0, 0)
    assert invited(event.id) == {olive.id, ann.id}
    rows = body(get(client, f"/events/{event.id}", token=olive.token))["invitees"]
    assert gus.id not in {row["user_id"] for row in rows}
    # like a stranger on every route by event id
    assert get(client, f"/events/{event.id}", token=gus.token).status_code == 404
    assert accept(client, gus, event.id).status_code == 404
    assert post_json(client, f"/events/{event.id}/messages", {"body": "hi"}, token=gus.token).status_code == 404
    listed = body(get(client, "/events", token=gus.token))["results"]
    assert event.id not in {item["id"] for item in listed}


def test_removing_a_party_seats_the_waitlist_with_exact_counters(client):
    olive, gus, wes, will = make_person("Olive"), make_person("Gus"), make_person("Wes"), make_person("Will")
    event = make_event(olive, gus, wes, will, total_spots=2, waitlist=True)
    assert accept(client, gus, event.id).status_code == 200
    assert accept(client, wes, event.id).status_code == 200
    assert body(accept(client, will, event.id))["waitlist_position"] == 1

    assert remove(client, olive, event.id, gus.id).status_code == 204

    stored = stored_event(event.id)
    assert (stored.spots_filled, stored.accepted_count, stored.waiting_count) == (2, 2, 0)
    assert waiting(event.id) == []
    rows = {row["user_id"]: row for row in body(get(client, f"/events/{event.id}", token=olive.token))["invitees"]}
    assert rows[will.id]["is_attending"] is True and rows[will.id]["waitlist_position"] is None


def test_removing_someone_waiting_takes_them_out_of_the_line(client):
    olive, gus, wes, will = make_person("Olive"), make_person("Gus"), make_person("Wes"), make_person("Will")
    event = make_event(olive, gus, wes, will, total_spots=1, waitlist=True)
    assert accept(client, gus, event.id).status_code == 200
    accept(client, wes, event.id)
    accept(client, will, event.id)
    assert waiting(event.id) == [wes.id, will.id]

    assert remove(client, olive, event.id, wes.id).status_code == 204

    assert waiting(event.id) == [will.id]
    stored = stored_event(event.id)
    assert (stored.spots_filled, stored.waiting_count) == (1, 1)
    rows = {row["user_id"]: row for row in body(get(client, f"/events/{event.id}", token=olive.token))["invitees"]}
    assert wes.id not in rows and rows[will.id]["waitlist_position"] == 1


def test_the_owner_removes_a_cohost_whose_role_ends_a_cohost_removes_only_guests(client):
    olive, cody, cara, gus = make_person("Olive"), make_person("Cody"), make_person("Cara"), make_person("Gus")
    event = make_event(olive, cody, cara, gus)
    for person in (cody, cara):
        post_json(client, f"/events/{event.id}/cohosts/{person.id}", {}, token=olive.token, method="PUT")
    assert stored_event(event.id).cohost_count == 2

    assert remove(client, cody, event.id, cara.id).status_code == 403
    assert remove(client, cody, event.id, gus.id).status_code == 204
    assert remove(client, olive, event.id, cara.id).status_code == 204

    assert stored_event(event.id).cohost_count == 1
    assert invited(event.id) == {olive.id, cody.id}
    # nobody removes the owner, the owner least of all
    for host in (olive, cody):
        response = remove(client, host, event.id, olive.id)
        assert response.status_code == 400
        assert body(response) == {"user_id": ["The owner cannot be removed from their event."]}
    assert invited(event.id) == {olive.id, cody.id}


def test_guests_and_strangers_cannot_remove_anyone(client):
    olive, gus, ann, stranger = make_person("Olive"), make_person("Gus"), make_person("Ann"), make_person("Sam")
    event = make_event(olive, gus, ann)
    assert remove(client, gus, event.id, ann.id).status_code == 403
    assert remove(client, stranger, event.id, ann.id).status_code == 404
    assert invited(event.id) == {olive.id, gus.id, ann.id}


def test_a_repeat_answers_204_and_someone_never_invited_404(client):
    olive, gus, ann, nell = make_person("Olive"), make_person("Gus"), make_person("Ann"), make_person("Nell")
    event = make_event(olive, gus, ann)
    key = {"Idempotency-Key": "remove-gus"}
    assert remove(client, olive, event.id, gus.id, key).status_code == 204
    again = remove(client, olive, event.id, gus.id, key)
    assert again.status_code == 204 and again.headers.get("Idempotent-Replayed") == "true"
    assert remove(client, olive, event.id, gus.id).status_code == 204
    assert invited(event.id) == {olive.id, ann.id}
    assert remove(client, olive, event.id, nell.id).status_code == 404
    assert remove(client, olive, event.id, 987654321).status_code == 404


def test_a_repeat_seats_the_line_when_a_fault_cut_the_first_seating_short(client, monkeypatch):
    olive, gus, wes = make_person("Olive"), make_person("Gus"), make_person("Wes")
    event = make_event(olive, gus, wes, total_spots=1, waitlist=True)
    replies.rsvp(gus.user, event.id, accept=True, message=None)
    replies.rsvp(wes.user, event.id, accept=True, message=None)
    seat = guest_removal.promote_waiting

    def cut_short(*_args):
        raise ServiceUnavailable()

    monkeypatch.setattr(guest_removal, "promote_waiting", cut_short)
    assert remove(client, olive, event.id, gus.id).status_code == 503
    assert (stored_event(event.id).spots_filled, waiting(event.id)) == (0, [wes.id])

    monkeypatch.setattr(guest_removal, "promote_waiting", seat)
    assert remove(client, olive, event.id, gus.id).status_code == 204
    stored = stored_event(event.id)
    assert (stored.spots_filled, stored.waiting_count, waiting(event.id)) == (1, 0, [])


def test_a_cancelled_event_keeps_its_guest_list(client):
    olive, gus = make_person("Olive"), make_person("Gus")
    event = make_event(olive, gus)
    client.http.put(f"/events/{event.id}/cancel_event", headers={"Authorization": f"Bearer {olive.token}"})
    assert remove(client, olive, event.id, gus.id).status_code == 409
    assert invited(event.id) == {olive.id, gus.id}


def _join_code(client, olive, event_id) -> str:
    events.update_event(olive.user, event_id, events.EventInput(join_mode="open"))
    response = post_json(client, f"/events/{event_id}/join_link", {}, olive.token)
    return body(response)["url"].rsplit("/j/", 1)[1]


def test_the_join_link_finds_nothing_for_a_removed_guest_until_they_are_invited_again(client):
    olive, gus, newcomer = make_person("Olive"), make_person("Gus"), make_person("Nell")
    event = make_event(olive, gus, when=future(days=5))
    code = _join_code(client, olive, event.id)
    assert remove(client, olive, event.id, gus.id).status_code == 204

    assert post_json(client, "/events/join", {"code": code}, gus.token).status_code == 404
    assert gus.id not in invited(event.id)
    assert post_json(client, "/events/join", {"code": code}, newcomer.token).status_code == 200  # others still can

    invite = {"invite_phone_numbers": [gus.phone]}
    assert post_json(client, f"/events/{event.id}", invite, token=olive.token, method="PATCH").status_code == 200
    assert post_json(client, "/events/join", {"code": code}, gus.token).status_code == 200
    assert get(client, f"/events/{event.id}", token=gus.token).status_code == 200


def test_the_page_link_of_a_removed_guest_says_they_are_no_longer_invited(client):
    olive = make_person("Olive")
    number = phone()
    created = invite_by_text(client, olive, number, title="Shabbat dinner \u05e9\u05d1\u05ea \U0001f56f\ufe0f")
    link = link_texted_to(number)
    guest_id = next(row["user_id"] for row in created["invitees"] if row["user_id"] != olive.id)
    assert page(client, link).status_code == 200

    assert remove(client, olive, created["id"], guest_id).status_code == 204

    gone = page(client, link)
    assert gone.status_code == 404 and gone.headers["Content-Type"].startswith("text/html")
    words = text_of(gone)
    assert "You are no longer invited" in words and "Shabbat dinner \u05e9\u05d1\u05ea" in words
    assert page(client, link + "/event.ics").status_code == 404
    assert post_form(client, link + "/rsvp", {"choice": "yes"}).status_code == 404
    # a code that never opened anything still gets the plain broken-link page
    other = page(client, re.sub(r"/i/.{32}", "/i/" + "A" * 32, link))
    assert other.status_code == 404 and "no longer invited" not in text_of(other)


def test_the_calendar_feed_drops_the_event(client):
    olive, gus = make_person("Olive"), make_person("Gus")
    event = make_event(olive, gus)
    assert accept(client, gus, event.id).status_code == 200
    feed = body(client.http.post("/users/me/calendar_feed", headers={"Authorization": f"Bearer {gus.token}"}))
    path = re.sub(r"^https?://[^/]+", "", feed["url"])
    assert f"event-{event.id}@" in client.http.get(path).body.decode()
    assert remove(client, olive, event.id, gus.id).status_code == 204
    assert f"event-{event.id}@" not in client.http.get(path).body.decode()


def test_a_removal_racing_accepts_on_a_nearly_full_event_keeps_the_counters_exact(client, monkeypatch):
    olive, gus = make_person("Olive"), make_person("Gus")
    others = [make_person(f"Guest {n}") for n in range(6)]
    event = make_event(olive, gus, *others, total_spots=3, waitlist=True)
    replies.rsvp(gus.user, event.id, accept=True, message=None)
    replies.rsvp(others[0].user, event.id, accept=True, message=None)

    read_together(monkeypatch, invitation_store, "reply_state", 6)  # every racer reads before anyone writes

    def act(n: int) -> None:
        if n == 0:
            guest_removal.remove_invitee(olive.user, event.id, gus.id)
        else:
            replies.rsvp(others[n].user, event.id, accept=True, message=None)

    assert race(act, 6, refused=()) == ["ok"] * 6

    stored = stored_event(event.id)
    items = list(Invitation.query(event_pk(event.id), Invitation.sk.startswith("INV#"), consistent_read=True))
    seated = [inv for inv in items if inv.role == "guest" and inv.has_accepted is True]
    assert gus.id not in {inv.user_id for inv in items}
    assert stored.spots_filled == stored.accepted_count == len(seated) == 3
    assert stored.waiting_count == len(waiting(event.id)) == 3


def test_a_line_formed_after_the_removal_read_is_still_seated(client, monkeypatch):
    """The worst order: the removal reads an event nobody waits for, guests join the line, then it writes."""
    olive, gus, ann, wes = make_person("Olive"), make_person("Gus"), make_person("Ann"), make_person("Wes")
    event = make_event(olive, gus, ann, wes, total_spots=1, waitlist=True)
    replies.rsvp(gus.user, event.id, accept=True, message=None)
    write = removal_store.remove_invitee

    def overtaken(*args, **kwargs):
        monkeypatch.setattr(removal_store, "remove_invitee", write)
        for person in (ann, wes):
            replies.rsvp(person.user, event.id, accept=True, message=None)
        return write(*args, **kwargs)

    monkeypatch.setattr(removal_store, "remove_invitee", overtaken)
    guest_removal.remove_invitee(olive.user, event.id, gus.id)

    stored = stored_event(event.id)
    assert (stored.spots_filled, stored.waiting_count) == (1, 1)
    assert waiting(event.id) == [wes.id]


def test_what_a_removed_guest_wrote_stays_theirs_in_their_export_and_goes_with_their_account(client):
    olive, gus, ann = make_person("Olive"), make_person("Gus"), make_person("Ann")
    event = make_event(olive, gus, ann)
    for person, words in ((gus, "Gus was here \u263a"), (ann, "Ann too")):
        assert post_json(client, f"/events/{event.id}/messages", {"body": words}, token=person.token).status_code == 201
    assert remove(client, olive, event.id, gus.id).status_code == 204

    exported = data_export.collect(gus.user, datetime.now(UTC))
    assert exported["invitations_received"] == []
    [removed] = exported["events_removed_from"]
    assert removed["event_id"] == event.id
    assert [m["body"] for m in removed["messages_written"]] == ["Gus was here \u263a"]
    assert "Ann too" not in str(exported)

    deleted = client.http.request("DELETE", "/users/me", headers={"Authorization": f"Bearer {gus.token}"})
    assert deleted.status_code == 204
    shown = body(get(client, f"/events/{event.id}", token=olive.token))["messages"]
    assert [m["body"] for m in shown] == ["Ann too"]
    assert stored_event(event.id).message_count == 1
