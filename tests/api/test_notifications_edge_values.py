"""No stored event crashes notification handling: dates at the edges of the allowed range, and titles,
names and replies of any Unicode at their longest. Each message the API queues is handled at the first
delivery (the queue would retry a failure, then park it in the dead-letter queue).

APNS takes at most 4 KB of payload and SNS refuses the publish beyond it; moto does not check, so the
size is asserted here."""

from __future__ import annotations

import json

import pytest

from tests.utils.api import body, post_json
from tests.utils.factories import make_person, put
from tests.utils.notifications import add_device, drain, raw_pushes, run_queue

TOKEN = "d4" * 32
LONG_TITLE = "\U0001f389" * 199 + "\u05d0"  # 200 characters of 4 bytes (and a right-to-left one)
LONG_NAME = "e\u0301" * 128  # 256 characters: combining accents
LONG_REPLY = "\U0001f600" * 60


def _handle(client, url: str) -> list[str]:
    """Deliver what the queue holds to the SQS handler once (it raises when a message failed); their types."""
    return [json.loads(b)["type"] for b in run_queue(client, url)]


def _apns_bytes(arn: str) -> list[int]:
    return [len(message["APNS"].encode()) for message in raw_pushes(arn)]


def test_a_far_date_is_refused_before_it_is_stored(client):
    owner = make_person("Owner")
    response = post_json(client, "/events", {"title": "Far", "event_date": "9999-12-31T23:59:59Z"}, owner.token)
    assert response.status_code == 400
    assert body(response) == {"event_date": ["Ensure the date is between 1970 and 2100."]}


@pytest.mark.parametrize("event_date", ["1970-01-01T00:00:00Z", "2100-12-31T23:59:59Z"])
def test_every_notification_of_an_edge_event_is_handled_at_the_first_delivery(client, queue, event_date):
    owner, guest = make_person("Owner"), make_person("Guest")
    assert post_json(client, "/users/me", {"full_name": LONG_NAME}, owner.token).status_code == 200
    assert post_json(client, "/users/me", {"full_name": LONG_NAME}, guest.token).status_code == 200
    owner_arn, guest_arn = add_device(owner, TOKEN), add_device(guest, "e5" * 32)
    drain(queue)

    created = post_json(
        client,
        "/events",
        {"title": LONG_TITLE, "event_date": event_date, "invite_phone_numbers": [guest.phone]},
        owner.token,
    )
    assert created.status_code == 201, created.body
    event_id = body(created)["id"]
    assert body(created)["event_date"] == event_date
    assert _handle(client, queue) == ["new_invite"]

    reply = post_json(client, f"/events/{event_id}/accept", {"rsvp_message": LONG_REPLY}, guest.token)
    assert reply.status_code == 200
    assert _handle(client, queue) == ["invite_rsvp"]
    assert (
        post_json(client, f"/events/{event_id}", {"venue_name": "Caf\u00e9 \U0001f375"}, owner.token).status_code == 200
    )
    assert _handle(client, queue) == ["event_changed"]
    assert put(client, f"/events/{event_id}/cancel_event", owner.token).status_code == 204
    assert _handle(client, queue) == ["event_cancelled"]

    # the guest got the invite, the change and the cancel; the owner the reply: each within APNS's 4 KB
    assert len(raw_pushes(guest_arn)) == 3 and len(raw_pushes(owner_arn)) == 1
    assert max(_apns_bytes(guest_arn) + _apns_bytes(owner_arn)) <= 4096
    [invite, _, _] = [json.loads(message["APNS"]) for message in raw_pushes(guest_arn)]
    assert invite["aps"]["alert"]["title"] == LONG_TITLE


def test_an_event_stored_before_the_date_limit_on_9999_12_31_is_still_handled(client, queue):
    from datetime import UTC, datetime

    from chalicelib.models.events import Event

    owner, guest = make_person("Owner"), make_person("Guest")
    guest_arn = add_device(guest, "f6" * 32)
    event_id = body(
        post_json(
            client,
            "/events",
            {"title": "Old", "event_date": "2030-01-01T00:00:00Z", "invite_phone_numbers": [guest.phone]},
            owner.token,
        )
    )["id"]
    _handle(client, queue)
    stored = Event.get(f"EVENT#{event_id}", "META")
    stored.update(actions=[Event.event_date.set(datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC))])  # as stored before
    assert put(client, f"/events/{event_id}/cancel_event", owner.token).status_code == 204
    assert _handle(client, queue) == ["event_cancelled"]
    assert len(raw_pushes(guest_arn)) == 2
