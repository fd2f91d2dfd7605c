"""POST /events/{id}/messages, /polls, /time_suggestions and GET /events/{id}/time_suggestions."""

from __future__ import annotations

import pytest

from chalicelib.models.events import Message, Poll, TimeSuggestion, event_pk
from tests.utils.api import body, get, post_json
from tests.utils.aws_faults import transaction_cancelled
from tests.utils.factories import make_event, make_person, stored_event
from tests.utils.races import race


def _stored(model, prefix, event_id):
    return list(model.query(event_pk(event_id), model.sk.startswith(prefix)))


def _cancel(client, party):
    response = client.http.put(
        f"/events/{party.event_id}/cancel_event", headers={"Authorization": f"Bearer {party.owner['auth_token']}"}
    )
    assert response.status_code == 204


# --- messages -------------------------------------------------------------------------------


def test_message_from_a_guest_is_201_with_the_spec_body(client, party):
    response = post_json(
        client, f"/events/{party.event_id}/messages", {"body": "Bring snacks"}, party.guest["auth_token"]
    )
    assert response.status_code == 201
    answered = body(response)
    assert isinstance(answered.pop("id"), int) and answered.pop("created").endswith("Z")  # extension
    assert answered == {
        "body": "Bring snacks",
        "is_owner": False,
        "error_message": None,
        "error": False,
        "user_id": party.guest["id"],
        "number_messages": 1,
    }
    owner_says = post_json(client, f"/events/{party.event_id}/messages", {"body": "Sure"}, party.owner["auth_token"])
    assert body(owner_says)["is_owner"] is True and body(owner_says)["number_messages"] == 2


def test_messages_show_in_the_event_oldest_first(client, party):
    for text in ("first", "second", "third"):
        post_json(client, f"/events/{party.event_id}/messages", {"body": text}, party.guest["auth_token"])
    detail = body(get(client, f"/events/{party.event_id}", party.owner["auth_token"]))
    assert [m["body"] for m in detail["messages"]] == ["first", "second", "third"]
    assert detail["messages"][0]["user_full_name"] == "Gus Guest"
    assert detail["messages"][0]["user_id"] == party.guest["id"]


def test_message_limit_is_409_with_the_spec_body_and_nothing_stored(client, party, override_settings):
    override_settings(messages_per_event=2)
    for text in ("one", "two"):
        assert (
            post_json(
                client, f"/events/{party.event_id}/messages", {"body": text}, party.guest["auth_token"]
            ).status_code
            == 201
        )
    response = post_json(client, f"/events/{party.event_id}/messages", {"body": "three"}, party.guest["auth_token"])
    assert response.status_code == 409
    refused = body(response)
    assert refused["error"] is True and refused["number_messages"] == 2 and refused["body"] == "three"
    assert refused["error_message"] == "The limit of 2 messages for this event has been reached."
    assert refused["user_id"] == party.guest["id"] and refused["is_owner"] is False
    assert [m.body for m in _stored(Message, "MSG#", party.event_id)] == ["one", "two"]


def test_parallel_messages_never_pass_the_limit(party, override_settings):
    from chalicelib.errors import Conflict
    from chalicelib.services.conversation import conversation
    from chalicelib.services.identity.users import get_user

    override_settings(messages_per_event=5)
    guest = get_user(party.guest["id"])

    def post(n):
        conversation.post_message(guest, party.event_id, f"message {n}")

    results = race(post, 16, refused=Conflict)
    assert results.count("ok") == 5 and results.count("refused") == 11
    assert len(_stored(Message, "MSG#", party.event_id)) == 5


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({}, {"body": ["This field is required."]}),
        ({"body": "   "}, {"body": ["This field may not be blank."]}),
        ({"body": 12}, {"body": ["Not a valid string."]}),
        ({"body": "x" * 2001}, {"body": ["Ensure this field has no more than 2000 characters."]}),
    ],
)
def test_bad_message_is_400_by_field_and_nothing_stored(client, party, payload, expected):
    response = post_json(client, f"/events/{party.event_id}/messages", payload, party.guest["auth_token"])
    assert response.status_code == 400 and body(response) == expected
    assert _stored(Message, "MSG#", party.event_id) == []


def test_message_costs_two_dynamodb_calls_beyond_authentication(client, party, aws):
    aws.reset()
    post_json(client, f"/events/{party.event_id}/messages", {"body": "hi"}, party.guest["auth_token"])
    calls = aws.of("dynamodb")
    calls["BatchGetItem"] -= 1  # authentication
    assert +calls == {"TransactWriteItems": 1, "GetItem": 1}


# --- polls ----------------------------------------------------------------------------------


def _poll(client, party, token=None, **fields):
    payload = {"suggested_date": "2030-06-02T18:00:00Z", "suggested_venue": "The Park", **fields}
    return post_json(client, f"/events/{party.event_id}/polls", payload, token or party.guest["auth_token"])


def test_poll_is_201_with_the_poll(client, party):
    response = _poll(client, party, suggested_date="2030-06-02T20:00:00+02:00")
    assert response.status_code == 201
    poll = body(response)
    assert poll["suggested_date"] == "2030-06-02T18:00:00Z" and poll["suggested_venue"] == "The Park"
    assert isinstance(poll["id"], int)


def test_duplicate_poll_is_the_specs_400(client, party):
    assert _poll(client, party).status_code == 201
    response = _poll(client, party, suggested_venue="  the park ", suggested_date="2030-06-02T18:00:00.000Z")
    assert response.status_code == 400 and body(response) == {"body": ["This field is required."]}
    assert len(_stored(Poll, "POLL#", party.event_id)) == 1


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Café", "Cafe\u0301"),  # composed, then e + combining acute
        ("STRASSE", "straße"),  # case folding, not lower()
        ("Bar\u00a0", "\u2003bar"),  # Unicode spaces trimmed
    ],
)
def test_venues_that_read_the_same_are_one_poll(client, party, first, second):
    assert _poll(client, party, suggested_venue=first).status_code == 201
    response = _poll(client, party, suggested_venue=second)
    assert response.status_code == 400 and body(response) == {"body": ["This field is required."]}
    assert len(_stored(Poll, "POLL#", party.event_id)) == 1


def test_fourth_poll_is_the_specs_error_message(client, party):
    for venue in ("A", "B", "C"):
        assert _poll(client, party, suggested_venue=venue).status_code == 201
    response = _poll(client, party, suggested_venue="D", token=party.owner["auth_token"])
    assert response.status_code == 400
    assert body(response) == {"_error_message": "No more than 3 polls can be submitted."}
    assert len(_stored(Poll, "POLL#", party.event_id)) == 3


def test_parallel_polls_store_exactly_three(party):
    from chalicelib.errors import ValidationError
    from chalicelib.services.conversation import conversation
    from chalicelib.services.identity.users import get_user
    from chalicelib.timeutil import parse_datetime

    guest = get_user(party.guest["id"])
    when = parse_datetime("2030-06-02T18:00:00Z")

    def submit(n):
        conversation.post_poll(guest, party.event_id, when, f"Venue {n}")

    results = race(submit, 8, refused=ValidationError)
    assert results.count("ok") == 3
    assert len(_stored(Poll, "POLL#", party.event_id)) == 3


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"suggested_date": None}, {"body": ["This field is required."]}),
        ({"suggested_venue": ""}, {"body": ["This field is required."]}),
        ({"suggested_venue": "x" * 101}, {"suggested_venue": ["Ensure this field has no more than 100 characters."]}),
        ({"suggested_venue": 5}, {"suggested_venue": ["Not a valid string."]}),
        (
            {"suggested_date": "next week"},
            {
                "suggested_date": [
                    "Datetime has wrong format. Use one of these formats instead: "
                    "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
                ]
            },
        ),
    ],
)
def test_bad_poll_is_400_and_nothing_stored(client, party, fields, expected):
    response = _poll(client, party, **fields)
    assert response.status_code == 400 and body(response) == expected
    assert _stored(Poll, "POLL#", party.event_id) == []


@pytest.mark.parametrize("field", ["suggested_venue", "suggested_date"])
def test_a_blank_poll_field_is_the_specs_missing_field_body(client, field):
    # "" already gave the spec's quirk body; "   " gave {"<field>": ["This field may not be blank."]}
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    payload = {"suggested_date": "2030-06-01T12:00:00Z", "suggested_venue": "Park", field: "   "}
    response = post_json(client, f"/events/{event.id}/polls", payload, token=bob.token)
    assert response.status_code == 400 and body(response) == {"body": ["This field is required."]}
    assert _stored(Poll, "POLL#", event.id) == []


def test_polls_show_in_the_events_list(client, party):
    _poll(client, party)
    [event] = body(get(client, "/events", party.guest["auth_token"]))["results"]
    assert [p["suggested_venue"] for p in event["polls"]] == ["The Park"]


def test_poll_costs_one_dynamodb_call_beyond_authentication(client, party, aws):
    aws.reset()
    assert _poll(client, party).status_code == 201
    calls = aws.of("dynamodb")
    calls["BatchGetItem"] -= 1
    assert +calls == {"TransactWriteItems": 1}


# --- time suggestions -----------------------------------------------------------------------


def test_time_suggestion_is_204_and_listed(client, party):
    payload = {"suggested_time": "2030-06-01T15:00:00-03:00", "comment": "later?", "like_count": 2, "is_set": True}
    response = post_json(client, f"/events/{party.event_id}/time_suggestions", payload, party.guest["auth_token"])
    assert response.status_code == 204 and response.body == b""
    listed = body(get(client, f"/events/{party.event_id}/time_suggestions", party.owner["auth_token"]))
    assert len(listed) == 1
    assert listed[0]["suggested_time"] == "2030-06-01T18:00:00Z" and listed[0]["comment"] == "later?"
    assert listed[0]["like_count"] == 2 and listed[0]["is_set"] is True and listed[0]["user_id"] == party.guest["id"]


def test_time_suggestion_defaults(client, party):
    post_json(
        client,
        f"/events/{party.event_id}/time_suggestions",
        {"suggested_time": "2030-06-01T15:00:00Z"},
        party.guest["auth_token"],
    )
    [stored] = _stored(TimeSuggestion, "TS#", party.event_id)
    assert stored.comment == "" and stored.like_count == 0 and stored.is_set is False


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "suggested_time"),
        ({"suggested_time": "soon"}, "suggested_time"),
        ({"suggested_time": "2030-06-01T15:00:00Z", "comment": "x" * 501}, "comment"),
        ({"suggested_time": "2030-06-01T15:00:00Z", "like_count": -1}, "like_count"),
        ({"suggested_time": "2030-06-01T15:00:00Z", "like_count": "3"}, "like_count"),
        ({"suggested_time": "2030-06-01T15:00:00Z", "is_set": "yes"}, "is_set"),
    ],
)
def test_bad_time_suggestion_is_400_by_field_and_nothing_stored(client, party, payload, field):
    response = post_json(client, f"/events/{party.event_id}/time_suggestions", payload, party.guest["auth_token"])
    assert response.status_code == 400 and list(body(response)) == [field]
    assert _stored(TimeSuggestion, "TS#", party.event_id) == []


# --- who may post ---------------------------------------------------------------------------

POSTS = [
    ("messages", {"body": "hello"}),
    ("polls", {"suggested_date": "2030-06-02T18:00:00Z", "suggested_venue": "X"}),
    ("time_suggestions", {"suggested_time": "2030-06-02T18:00:00Z"}),
]


@pytest.mark.parametrize(("path", "payload"), POSTS)
def test_a_stranger_gets_404_and_nothing_is_stored(client, party, path, payload):
    response = post_json(client, f"/events/{party.event_id}/{path}", payload, party.stranger["auth_token"])
    assert response.status_code == 404 and body(response) == {"detail": "Not found."}
    assert _stored(Message, "MSG#", party.event_id) == [] and _stored(Poll, "POLL#", party.event_id) == []
    assert _stored(TimeSuggestion, "TS#", party.event_id) == []


@pytest.mark.parametrize(("path", "payload"), POSTS)
def test_unknown_event_is_404(client, party, path, payload):
    for event_id in ("999999", "abc"):
        response = post_json(client, f"/events/{event_id}/{path}", payload, party.owner["auth_token"])
        assert response.status_code == 404


@pytest.mark.parametrize(("path", "payload"), POSTS)
def test_cancelled_event_answers_409(client, party, path, payload):
    _cancel(client, party)
    response = post_json(client, f"/events/{party.event_id}/{path}", payload, party.guest["auth_token"])
    assert response.status_code == 409 and body(response) == {"detail": "This event has been cancelled."}


def test_stranger_cannot_list_time_suggestions(client, party):
    response = get(client, f"/events/{party.event_id}/time_suggestions", party.stranger["auth_token"])
    assert response.status_code == 404


def test_posts_need_a_token(client, party):
    for path, payload in POSTS:
        assert post_json(client, f"/events/{party.event_id}/{path}", payload).status_code == 401


# --- posts meeting parallel transactions ----------------------------------------------------


@pytest.fixture
def conflict_once(monkeypatch):
    """The next ``TransactWriteItems`` is cancelled as DynamoDB cancels one of two parallel
    transactions on one item: reason ``TransactionConflict`` on the event's META, nothing written."""
    from botocore.client import BaseClient

    original = BaseClient._make_api_call
    pending = {"count": 0}

    def patched(self, operation_name, api_params):
        if operation_name == "TransactWriteItems" and pending["count"]:
            pending["count"] -= 1
            reasons = ["TransactionConflict" if "META" in str(item) else "None" for item in api_params["TransactItems"]]
            raise transaction_cancelled(operation_name, reasons)
        return original(self, operation_name, api_params)

    monkeypatch.setattr(BaseClient, "_make_api_call", patched)

    def arm(times: int = 1) -> None:
        pending["count"] = times

    return arm


CONFLICTING_POSTS = [
    ("messages", {"body": "hello"}, 201, Message, "MSG#"),
    ("polls", {"suggested_date": "2030-06-01T12:00:00Z", "suggested_venue": "Park"}, 201, Poll, "POLL#"),
    ("time_suggestions", {"suggested_time": "2030-06-01T12:00:00Z"}, 204, TimeSuggestion, "TS#"),
]


@pytest.mark.parametrize(("path", "payload", "status", "model", "prefix"), CONFLICTING_POSTS)
def test_a_post_that_meets_a_parallel_transaction_is_retried_not_a_500(
    client, conflict_once, path, payload, status, model, prefix
):
    # GIVEN an event; its META is in another transaction (a parallel message, RSVP...) when the post is written
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    conflict_once()
    # WHEN bob posts
    response = post_json(client, f"/events/{event.id}/{path}", payload, token=bob.token)
    # THEN the post is stored once, as if no one else had written at the same time
    assert response.status_code == status, response.body
    assert len(_stored(model, prefix, event.id)) == 1
    if path == "messages":
        assert body(response)["number_messages"] == 1 and stored_event(event.id).message_count == 1


def test_a_post_that_keeps_meeting_parallel_transactions_is_a_503_and_stores_nothing(client, conflict_once):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    conflict_once(times=100)
    response = post_json(client, f"/events/{event.id}/messages", {"body": "hello"}, token=bob.token)
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert _stored(Message, "MSG#", event.id) == [] and stored_event(event.id).message_count == 0


def test_a_posted_message_answers_its_id_and_time_as_the_detail_shows_them(client, party):
    posted = body(post_json(client, f"/events/{party.event_id}/messages", {"body": "hi"}, party.guest["auth_token"]))
    detail = body(get(client, f"/events/{party.event_id}", party.owner["auth_token"]))
    (shown,) = detail["messages"]
    assert (posted["id"], posted["created"]) == (shown["id"], shown["created"])
