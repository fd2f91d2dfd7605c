"""GET /events: envelope, order, filters, pages, and the three rounds of DynamoDB calls."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest

from chalicelib.services.replies import replies
from chalicelib.timeutil import format_datetime
from tests.utils.api import body, get
from tests.utils.factories import add_message, add_poll, future, make_event, make_person, put


def ids(response) -> list[int]:
    return [event["id"] for event in body(response)["results"]]


def test_list_holds_owned_and_invited_events_by_date(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    later = make_event(alice, bob, title="Later", when=future(20))
    sooner = make_event(carol, alice, title="Sooner", when=future(5))
    make_event(bob, carol, title="Not mine", when=future(7))
    response = get(client, "/events", token=alice.token)
    assert response.status_code == 200
    page = body(response)
    assert page["count"] == 2 and page["next"] is None and page["previous"] is None
    assert ids(response) == [sooner.id, later.id]
    first, second = page["results"]
    assert first["i_am_owner"] is False and first["i_am_attending"] is False
    assert first["owner"]["id"] == carol.id
    assert second["i_am_owner"] is True and second["i_am_attending"] is True
    # invitations: the guests only, never the owner; no invitees in the list
    assert [inv["user_id"] for inv in second["invitations"]] == [bob.id]
    assert second["invitations"][0] == {
        "id": second["invitations"][0]["id"],
        "user_id": bob.id,
        "user_full_name": "Bob",
        "has_seen": False,
        "has_accepted_invite": None,
        "answer": "no_reply",
        "rsvp_time": None,
        "rsvp_message": "",
        "extra_guests": 0,
        "waitlist_position": None,
        "replied_by_host": False,
        "answers": {},
        "text_status": None,  # for the hosts: Bob has the app, no invitation text
        "attendance_confirmed": None,  # for the hosts: not asked
        "invited_via": "push",
        "first_opened_at": None,
        "checked_in_at": None,
    }
    assert "text_status" not in first["invitations"][0]  # never on a guest's rows
    assert "attendance_confirmed" not in first["invitations"][0]
    assert "invitees" not in second


def test_same_date_events_are_ordered_by_id(client):
    alice = make_person("Alice")
    when = future(3)
    made = sorted(make_event(alice, when=when).id for _ in range(3))
    assert ids(get(client, "/events", token=alice.token)) == made


def test_list_shows_the_callers_reply_and_messages_and_polls(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)

    replies.rsvp(bob.user, event.id, accept=True, message="On my way")
    start = future(1)
    add_message(event.id, bob, "second", start + timedelta(minutes=5))
    add_message(event.id, alice, "first", start)
    add_poll(event.id, bob, "The Pub", future(12), start)
    (item,) = body(get(client, "/events", token=bob.token))["results"]
    assert item["i_am_attending"] is True and item["my_rsvp_message"] == "On my way"
    assert item["attendees_count"] == 2 and item["spots_filled"] == 1
    assert [(m["body"], m["user_full_name"]) for m in item["messages"]] == [("first", "Alice"), ("second", "Bob")]
    assert item["messages"][0]["user_email"] == "alice@ex.test"
    assert [p["suggested_venue"] for p in item["polls"]] == ["The Pub"]
    assert item["polls"][0]["suggested_date"] == format_datetime(future(12))


def test_filters_by_date_alone_or_together_and_by_ownership(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    d5, d10, d15 = future(5), future(10), future(15)
    e5 = make_event(alice, when=d5)
    e10 = make_event(bob, alice, when=d10)
    e15 = make_event(alice, when=d15)

    def listed(query: str) -> list[int]:
        response = get(client, f"/events?{query}", token=alice.token)
        assert response.status_code == 200, response.body
        return ids(response)

    assert listed(f"event_after={int(d5.timestamp())}") == [e10.id, e15.id]
    assert listed(f"event_after={d5.timestamp() + 0.5}") == [e10.id, e15.id]
    assert listed(f"event_before={format_datetime(d15)}") == [e5.id, e10.id]
    iso_before = d10.isoformat().replace("+00:00", "%2B00:00")
    assert listed(f"event_after={format_datetime(d5)}&event_before={iso_before}") == []
    assert listed(f"event_after={int(d5.timestamp()) - 1}&event_before={int(d15.timestamp())}") == [e5.id, e10.id]
    assert listed("i_am_owner=true") == [e5.id, e15.id]
    assert listed("i_am_owner=false") == [e10.id]
    assert listed(f"i_am_owner=true&event_after={int(d5.timestamp())}") == [e15.id]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("event_after=yesterday", "event_after"),
        ("event_before=2030-13-01", "event_before"),
        ("per_page=0", "per_page"),
        ("per_page=1001", "per_page"),
        ("per_page=ten", "per_page"),
        ("i_am_owner=maybe", "i_am_owner"),
    ],
)
def test_bad_query_values_are_400_keyed_by_field(client, query, field):
    alice = make_person("Alice")
    response = get(client, f"/events?{query}", token=alice.token)
    assert response.status_code == 400
    assert list(body(response)) == [field]


def test_pages_with_links_that_keep_the_other_parameters(client):
    alice = make_person("Alice")
    made = [make_event(alice, when=future(1 + n)).id for n in range(5)]
    first = body(get(client, "/events?per_page=2&i_am_owner=true", token=alice.token))
    assert first["count"] == 5 and [e["id"] for e in first["results"]] == made[:2]
    assert first["previous"] is None
    next_url = urlparse(first["next"])
    assert next_url.scheme in ("http", "https") and next_url.path == "/events"
    assert parse_qs(next_url.query) == {"per_page": ["2"], "i_am_owner": ["true"], "page": ["2"]}
    second = body(get(client, f"/events?{next_url.query}", token=alice.token))
    assert [e["id"] for e in second["results"]] == made[2:4]
    assert parse_qs(urlparse(second["previous"]).query) == {"per_page": ["2"], "i_am_owner": ["true"]}
    third = body(get(client, "/events?per_page=2&page=3", token=alice.token))
    assert [e["id"] for e in third["results"]] == made[4:] and third["next"] is None


@pytest.mark.parametrize("page", ["4", "0", "-1", "last", "abc"])
def test_a_page_past_the_end_is_404(client, page):
    alice = make_person("Alice")
    for n in range(5):
        make_event(alice, when=future(1 + n))
    response = get(client, f"/events?per_page=2&page={page}", token=alice.token)
    assert response.status_code == 404
    assert body(response) == {"detail": "Invalid page."}


def test_an_empty_list_has_one_empty_page(client):
    alice = make_person("Alice")
    assert body(get(client, "/events", token=alice.token)) == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }
    assert get(client, "/events?page=2", token=alice.token).status_code == 404


def test_cancelled_events_leave_the_list(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    kept = make_event(alice, bob, when=future(2))
    gone = make_event(alice, bob, when=future(3))
    assert put(client, f"/events/{gone.id}/cancel_event", alice.token).status_code == 204
    for person in (alice, bob):
        page = body(get(client, "/events", token=person.token))
        assert page["count"] == 1 and [e["id"] for e in page["results"]] == [kept.id]


def test_default_page_is_30_and_per_page_goes_to_1000(client):
    alice = make_person("Alice")
    for n in range(32):
        make_event(alice, when=future(1, hour=0) + timedelta(minutes=n))
    page = body(get(client, "/events", token=alice.token))
    assert page["count"] == 32 and len(page["results"]) == 30 and page["next"]
    assert len(body(get(client, "/events?per_page=1000", token=alice.token))["results"]) == 32


def test_a_page_of_30_full_events_takes_three_rounds(client, aws):
    # GIVEN 30 events, each with two guests, two messages and a poll
    alice = make_person("Alice")
    guests = [make_person(f"Guest {n}") for n in range(4)]
    start = future(1)
    for n in range(30):
        event = make_event(alice, guests[n % 4], guests[(n + 1) % 4], when=future(2 + n))
        add_message(event.id, guests[n % 4], "hello", start)
        add_message(event.id, alice, "hi", start + timedelta(seconds=1))
        add_poll(event.id, alice, "Cafe", future(40), start)
    # WHEN alice lists them
    aws.reset()
    response = get(client, "/events", token=alice.token)
    # THEN auth (1 BatchGetItem) + round 1 (1 Query of by_user) + round 2 (30 partition Queries, in
    # parallel) + round 3 (1 BatchGetItem of the 5 people): no Scan, no GetItem
    assert response.status_code == 200
    results = body(response)["results"]
    assert len(results) == 30 and all(len(e["messages"]) == 2 and len(e["polls"]) == 1 for e in results)
    assert all(e["invitations"][0]["user_full_name"].startswith("Guest") for e in results)
    assert aws.of("dynamodb") == {"BatchGetItem": 2, "Query": 31}


def test_head_answers_like_get_without_a_body(client):
    alice = make_person("Alice")
    make_event(alice)
    response = client.http.request("HEAD", "/events", headers={"Authorization": f"Bearer {alice.token}"})
    assert response.status_code == 200 and response.body == b""
    assert response.headers["Content-Type"] == "application/json"
