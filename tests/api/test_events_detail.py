"""GET /events/{id}, edits, cancel, stats and sample replies, with their DynamoDB call counts."""

from __future__ import annotations

from datetime import timedelta

import pytest

from chalicelib.models.events import Invitation, event_pk
from chalicelib.services.hosting import events
from chalicelib.services.replies import replies
from tests.utils.api import body, get, post_json, texts_to
from tests.utils.factories import (
    add_message,
    add_poll,
    future,
    make_event,
    make_person,
    phone,
    put,
    stored_event,
    table_items,
)


def patch(client, person, event_id, payload):
    return post_json(client, f"/events/{event_id}", payload, token=person.token, method="PATCH")


def test_detail_shows_invitees_with_has_seen_messages_and_polls(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=10, venue_name="Hall")
    replies.rsvp(bob.user, event.id, accept=True, message="Yes!")
    start = future(1)
    add_message(event.id, carol, "later", start + timedelta(hours=1))
    add_message(event.id, bob, "earlier", start)
    add_poll(event.id, carol, "Beach", future(11), start)
    response = get(client, f"/events/{event.id}", token=carol.token)
    assert response.status_code == 200
    shown = body(response)
    assert shown["i_am_owner"] is False and shown["i_am_attending"] is False and shown["my_rsvp_message"] is None
    assert shown["attendees_count"] == 2 and shown["spots_filled"] == 1 and shown["is_cancelled"] is False
    assert [(i["user_id"], i["is_owner"], i["is_attending"]) for i in shown["invitees"]] == [
        (alice.id, True, "true"),
        (bob.id, False, True),
        (carol.id, False, None),
    ]
    assert all("has_seen" in i and "faded_photo" not in i for i in shown["invitees"])
    assert shown["invitees"][1]["rsvp_message"] == "Yes!" and shown["invitees"][1]["rsvp_time"].endswith("Z")
    assert [m["body"] for m in shown["messages"]] == ["earlier", "later"]
    assert shown["messages"][0]["user_full_name"] == "Bob"
    assert [p["suggested_venue"] for p in shown["polls"]] == ["Beach"]
    assert "invitations" not in shown


def test_detail_takes_two_calls_beyond_authentication(client, aws):
    alice = make_person("Alice")
    guests = [make_person(f"Guest {n}") for n in range(10)]
    event = make_event(alice, *guests)
    for n, guest in enumerate(guests[:5]):
        add_message(event.id, guest, f"m{n}", future(1) + timedelta(minutes=n))
    add_poll(event.id, alice, "Park", future(12), future(1))
    aws.reset()
    response = get(client, f"/events/{event.id}", token=guests[3].token)
    assert response.status_code == 200 and len(body(response)["invitees"]) == 11
    # 1 BatchGetItem of the caller's token, person and own invitation (before any of the event's rows),
    # then 1 Query of the partition and 1 BatchGetItem of the people
    assert aws.of("dynamodb") == {"BatchGetItem": 2, "Query": 1}


def test_edit_fields_and_invite_more_numbers(client):
    alice, bob, carol = make_person("Alice Smith"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob)
    newcomer = phone(9400)
    response = patch(
        client,
        alice,
        event.id,
        {
            "title": "Dinner at eight",
            "event_date": "2031-02-03T20:00:00+01:00",
            "total_spots": 5,
            "location": {"latitude": -33.9, "longitude": 151.2},
            "address": "2 Beach Rd",
            "venue_name": "Bondi",
            "invite_phone_numbers": [bob.phone, carol.phone, newcomer],
        },
    )
    assert response.status_code == 200, response.body
    shown = body(response)
    assert shown["title"] == "Dinner at eight" and shown["event_date"] == "2031-02-03T19:00:00Z"
    assert shown["is_time_specified"] is True and shown["total_spots"] == 5
    assert shown["location"] == {"latitude": -33.9, "longitude": 151.2}
    assert shown["address"] == "2 Beach Rd" and shown["venue_name"] == "Bondi"
    assert [i["phone_number"] for i in shown["invitees"]] == [alice.phone, bob.phone, carol.phone, newcomer]
    assert "has_seen" in shown["invitees"][0]
    (text,) = texts_to(newcomer)
    assert "Alice Smith" in text and "Dinner at eight" in text and "Mon, Feb 3 at 8:00 PM UTC+1" in text
    assert texts_to(carol.phone) == []
    # the new date moved every invitation in the person's lists
    for person in (alice, bob, carol):
        (item,) = body(get(client, "/events", token=person.token))["results"]
        assert item["event_date"] == "2031-02-03T19:00:00Z"
    before = body(get(client, f"/events?event_before={int(future(100).timestamp())}", token=bob.token))
    assert before["count"] == 0
    # clearing the location
    assert body(patch(client, alice, event.id, {"location": {}}))["location"] == {}


def test_lowering_total_spots_below_those_filled_is_400(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=5)
    replies.rsvp(bob.user, event.id, accept=True, message="")
    replies.rsvp(carol.user, event.id, accept=True, message="")
    before = table_items()
    response = patch(client, alice, event.id, {"total_spots": 1, "title": "Smaller"})
    assert response.status_code == 400 and list(body(response)) == ["total_spots"]
    assert table_items() == before
    assert body(patch(client, alice, event.id, {"total_spots": 2}))["total_spots"] == 2
    assert body(patch(client, alice, event.id, {"total_spots": 0}))["total_spots"] == 0


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"title": ""}, "title"),
        ({"title": "t" * 201}, "title"),
        ({"venue_name": "v" * 101}, "venue_name"),
        ({"event_date": "31/12/2030"}, "event_date"),
        ({"total_spots": -5}, "total_spots"),
        ({"location": {"latitude": 0, "longitude": 181}}, "location"),
        ({"location": "here"}, "location"),
        ({"invite_phone_numbers": ["+1"]}, "invite_phone_numbers"),
    ],
)
def test_bad_edits_are_400_and_store_nothing(client, payload, field):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    before = table_items()
    response = patch(client, alice, event.id, {**payload, "invite_phone_numbers": [phone(9500)], **payload})
    assert response.status_code == 400, response.body
    assert list(body(response)) == [field]
    assert table_items() == before and texts_to(phone(9500)) == []


def test_cancel_is_204_repeatable_and_freezes_the_event(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
    assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
    for person in (alice, bob):
        shown = body(get(client, f"/events/{event.id}", token=person.token))
        assert shown["is_cancelled"] is True
    response = patch(client, alice, event.id, {"title": "Back on"})
    assert response.status_code == 409 and body(response) == {"detail": "This event has been cancelled."}
    assert patch(client, alice, event.id, {"spot_filled": 1}).status_code == 409
    assert stored_event(event.id).title == "Dinner"
    invitations = list(Invitation.query(event_pk(event.id)))
    assert invitations and all(inv.cancelled for inv in invitations)
    assert stored_event(event.id).remind_day is None  # out of the reminder index


def test_cancel_cost_does_not_depend_on_invitees_up_to_a_hundred(client, aws, override_settings):
    from tests.utils.notifications import use_queue

    use_queue(override_settings)  # the invitations' flags are written by the queue handler
    alice = make_person("Alice")
    counts = []
    for size in (1, 20):
        guests = [make_person(f"G{size}-{n}") for n in range(size)]
        event = make_event(alice, *guests)
        aws.reset()
        assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
        counts.append(aws.of("dynamodb"))
    # auth with the caller's invitation, the partition Query and the META UpdateItem (the flags:
    # tests/api/test_notifications_cancel.py)
    assert counts[0] == counts[1] == {"BatchGetItem": 1, "Query": 1, "UpdateItem": 1}


def test_stats_count_upcoming_unanswered_invitations(client, aws):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    make_event(alice, bob, when=future(2))  # counts
    make_event(carol, bob, when=future(3))  # counts
    answered = make_event(alice, bob, when=future(4))
    replies.rsvp(bob.user, answered.id, accept=False, message="")
    gone = make_event(alice, bob, when=future(5))
    events.cancel_event(alice.user, gone.id)
    make_event(alice, bob, when=future(-2))  # past
    make_event(bob, alice, when=future(6))  # bob owns it
    aws.reset()
    response = get(client, "/events/stats", token=bob.token)
    assert response.status_code == 200
    assert body(response) == {"unresponded_invite_count": 2}
    # auth + exactly one COUNT Query of the by_user index
    assert aws.of("dynamodb") == {"BatchGetItem": 1, "Query": 1}
    assert body(get(client, "/events/stats", token=alice.token)) == {"unresponded_invite_count": 1}


def test_sample_rsvp_replies_are_fixed(client):
    alice = make_person("Alice")
    first = body(get(client, "/events/sample_rsvp_replies", token=alice.token))
    second = body(get(client, "/events/sample_rsvp_replies", token=alice.token))
    assert first == second
    assert {reply["type"] for reply in first} == {"accept", "reject"}
    assert len({reply["id"] for reply in first}) == len(first)
    assert all(set(reply) == {"id", "text", "type"} and reply["text"] for reply in first)


def test_no_route_scans(client, aws):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    aws.reset()
    get(client, "/events", token=alice.token)
    get(client, "/events/timeline?type=received", token=bob.token)
    get(client, "/events/stats", token=bob.token)
    get(client, f"/events/{event.id}", token=bob.token)
    post_json(client, f"/events/{event.id}/accept", {}, token=bob.token)
    patch(client, alice, event.id, {"title": "x", "invite_phone_numbers": [phone(9600)]})
    put(client, f"/events/{event.id}/cancel_event", alice.token)
    assert "Scan" not in aws.of("dynamodb")


def test_inviting_answers_the_same_whether_or_not_a_number_is_registered(client, override_settings):
    override_settings(invite_sms_per_owner_per_hour=2)
    # GIVEN an owner who has used up the hour's invitation texts
    alice, registered = make_person("Alice"), make_person("Rita")
    event = make_event(alice)
    assert patch(client, alice, event.id, {"invite_phone_numbers": [phone(9701), phone(9702)]}).status_code == 200
    # WHEN she invites a registered number, then a number nobody has registered
    known = patch(client, alice, event.id, {"invite_phone_numbers": [registered.phone]})
    unknown = patch(client, alice, event.id, {"title": "Renamed", "invite_phone_numbers": [phone(9703)]})
    # THEN both are 200 with the same headers: probing whether a number has an account learns nothing
    assert known.status_code == unknown.status_code == 200, unknown.body
    assert set(known.headers) - {"X-Request-Id"} == set(unknown.headers) - {"X-Request-Id"}
    # the invitation and the edit are stored, only the text beyond the quota is not sent
    shown = body(unknown)
    assert shown["title"] == "Renamed" and shown["invitees"][-1]["phone_number"] == phone(9703)
    assert texts_to(phone(9703)) == []
    assert len(texts_to(phone(9701))) == 1 and len(texts_to(phone(9702))) == 1
    # inviting them again needs no text and adds nobody
    again = patch(client, alice, event.id, {"invite_phone_numbers": [phone(9701)]})
    assert again.status_code == 200 and len(body(again)["invitees"]) == 5
    assert len(texts_to(phone(9701))) == 1
