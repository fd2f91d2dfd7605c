"""Review findings on the events and conversation side: each test failed before its fix."""

from __future__ import annotations

import pytest

from chalicelib.models.events import Message, Poll, TimeSuggestion, event_pk
from tests.utils.api import body, post_json
from tests.utils.factories import make_event, make_person, stored_event


@pytest.fixture
def conflict_once(monkeypatch):
    """The next ``TransactWriteItems`` is cancelled as DynamoDB cancels one of two parallel
    transactions on one item: reason ``TransactionConflict`` on the event's META, nothing written."""
    from botocore.client import BaseClient
    from botocore.exceptions import ClientError

    original = BaseClient._make_api_call
    pending = {"count": 0}

    def patched(self, operation_name, api_params):
        if operation_name == "TransactWriteItems" and pending["count"]:
            pending["count"] -= 1
            reasons = [
                {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}
                if "META" in str(item)
                else {"Code": "None"}
                for item in api_params["TransactItems"]
            ]
            raise ClientError(
                {
                    "Error": {"Code": "TransactionCanceledException", "Message": "Transaction cancelled"},
                    "CancellationReasons": reasons,
                    "ResponseMetadata": {"HTTPStatusCode": 400},
                },
                operation_name,
            )
        return original(self, operation_name, api_params)

    monkeypatch.setattr(BaseClient, "_make_api_call", patched)

    def arm(times: int = 1) -> None:
        pending["count"] = times

    return arm


def _stored(model, prefix: str, event_id: int) -> list:
    return list(model.query(event_pk(event_id), model.sk.startswith(prefix)))


POSTS = [
    ("messages", {"body": "hello"}, 201, Message, "MSG#"),
    ("polls", {"suggested_date": "2030-06-01T12:00:00Z", "suggested_venue": "Park"}, 201, Poll, "POLL#"),
    ("time_suggestions", {"suggested_time": "2030-06-01T12:00:00Z"}, 204, TimeSuggestion, "TS#"),
]


@pytest.mark.parametrize(("path", "payload", "status", "model", "prefix"), POSTS)
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


@pytest.mark.parametrize("field", ["suggested_venue", "suggested_date"])
def test_a_blank_poll_field_is_the_specs_missing_field_body(client, field):
    # "" already gave the spec's quirk body; "   " gave {"<field>": ["This field may not be blank."]}
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    payload = {"suggested_date": "2030-06-01T12:00:00Z", "suggested_venue": "Park", field: "   "}
    response = post_json(client, f"/events/{event.id}/polls", payload, token=bob.token)
    assert response.status_code == 400 and body(response) == {"body": ["This field is required."]}
    assert _stored(Poll, "POLL#", event.id) == []
