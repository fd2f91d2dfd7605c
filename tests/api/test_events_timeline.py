"""GET /events/timeline: sent or received, newest first, pages that never split a date."""

from __future__ import annotations

from datetime import timedelta

import pytest

from chalicelib.services.replies import replies
from tests.utils.api import body, get
from tests.utils.factories import add_message, future, make_event, make_person, put


def timeline(client, person, query: str):
    response = get(client, f"/events/timeline?{query}", token=person.token)
    assert response.status_code == 200, response.body
    return body(response)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", {"type": ["This field is required."]}),
        ("type=", {"type": ["This field is required."]}),
        ("type=all", {"type": ['"all" is not a valid choice.']}),
        ("type=sent&cursor=soon", {"cursor": ["Enter a valid date/time."]}),
    ],
)
def test_type_is_required_and_checked(client, query, expected):
    alice = make_person("Alice")
    response = get(client, f"/events/timeline?{query}", token=alice.token)
    assert response.status_code == 400
    assert body(response) == expected


def test_sent_and_received_with_invitees_and_faded_photo(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    mine = make_event(alice, bob, when=future(2))
    theirs = make_event(bob, alice, when=future(4))
    replies.rsvp(alice.user, theirs.id, accept=False, message="Busy")
    add_message(mine.id, bob, "hello", future(1))
    sent = timeline(client, alice, "type=sent")
    received = timeline(client, alice, "type=received")
    assert [e["id"] for e in sent] == [mine.id] and [e["id"] for e in received] == [theirs.id]
    owner, guest = sent[0]["invitees"]
    assert owner["is_owner"] is True and owner["is_attending"] == "true"
    assert guest["user_id"] == bob.id and "faded_photo" in guest and "has_seen" not in guest
    assert [m["body"] for m in sent[0]["messages"]] == ["hello"]
    assert received[0]["my_rsvp_message"] == "Busy" and received[0]["i_am_attending"] is False
    assert received[0]["invitees"][1]["is_attending"] is False


def test_walk_over_35_events_sharing_dates_sees_each_once(client):
    # GIVEN 35 events on 7 dates, 5 on each (so a page of 30 would end inside a run)
    alice = make_person("Alice")
    base = future(1, hour=12)
    made = {make_event(alice, when=base + timedelta(days=n // 5)).id for n in range(35)}
    # WHEN alice walks the timeline with the last date of each page as cursor
    seen, pages, cursor = [], [], None
    while True:
        query = "type=sent" + (f"&cursor={cursor}" if cursor else "")
        page = timeline(client, alice, query)
        if not page:
            break
        pages.append(page)
        seen += [event["id"] for event in page]
        dates = [event["event_date"] for event in page]
        assert dates == sorted(dates, reverse=True)
        cursor = dates[-1]
    # THEN every event exactly once, and no page ends inside a run of equal dates
    assert sorted(seen) == sorted(made) and len(seen) == 35
    assert [len(page) for page in pages] == [30, 5]
    assert pages[0][-1]["event_date"] != pages[1][0]["event_date"]


def test_a_page_extends_to_finish_a_run_of_equal_dates(client):
    alice = make_person("Alice")
    base = future(1, hour=12)
    for n in range(28):
        make_event(alice, when=base + timedelta(days=30 - n))
    for _ in range(4):
        make_event(alice, when=base)  # items 29..32 share one date
    make_event(alice, when=base - timedelta(hours=1))
    first = timeline(client, alice, "type=sent")
    assert len(first) == 32
    second = timeline(client, alice, f"type=sent&cursor={first[-1]['event_date']}")
    assert len(second) == 1
    assert timeline(client, alice, f"type=sent&cursor={second[-1]['event_date']}") == []


def test_cancelled_events_leave_the_timeline(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    gone = make_event(alice, bob)
    kept = make_event(alice, bob, when=future(3))
    assert put(client, f"/events/{gone.id}/cancel_event", alice.token).status_code == 204
    assert [e["id"] for e in timeline(client, alice, "type=sent")] == [kept.id]
    assert [e["id"] for e in timeline(client, bob, "type=received")] == [kept.id]


def test_cursor_takes_unix_seconds(client):
    alice = make_person("Alice")
    early = make_event(alice, when=future(2))
    late = make_event(alice, when=future(3))
    assert [e["id"] for e in timeline(client, alice, "type=sent")] == [late.id, early.id]
    cursor = int(future(3).timestamp())
    assert [e["id"] for e in timeline(client, alice, f"type=sent&cursor={cursor}")] == [early.id]


def test_timeline_call_count(client, aws):
    alice, bob = make_person("Alice"), make_person("Bob")
    for n in range(5):
        make_event(alice, bob, when=future(2 + n))
    aws.reset()
    assert len(timeline(client, alice, "type=sent")) == 5
    # auth + 1 by_user Query + 5 partition Queries (parallel) + 1 BatchGetItem of the people
    assert aws.of("dynamodb") == {"BatchGetItem": 2, "Query": 6}
