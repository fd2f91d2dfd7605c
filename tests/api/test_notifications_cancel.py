"""Cancelling at scale: the request costs the same DynamoDB calls with 500 invitees as with 5; the
queue handler writes the invitations' flags and tells the invitees."""

from __future__ import annotations

from types import SimpleNamespace

from chalicelib.ids import new_id
from chalicelib.models.events import Invitation, event_pk
from chalicelib.models.users import PHONE_SK, PROFILE_SK, PhoneClaim, User, UsersTable, phone_pk, user_pk
from chalicelib.timeutil import utcnow
from tests.utils.api import body, get
from tests.utils.factories import make_event, make_person, phone, put
from tests.utils.notifications import add_device, drain, pushes, use_queue


def _guests(count: int) -> list:
    """Active users written in bulk (moto copies the table on every transaction, so 500 sign-ups one
    by one take a minute); make_event needs only ``.phone``."""
    now = utcnow()
    people = []
    with UsersTable.batch_write() as batch:
        for _ in range(count):
            user_id, number = new_id(), phone()
            batch.save(
                User(
                    user_pk(user_id),
                    PROFILE_SK,
                    id=user_id,
                    phone_number=number,
                    is_active=True,
                    created=now,
                    modified=now,
                )
            )
            batch.save(PhoneClaim(phone_pk(number), PHONE_SK, user_id=user_id))
            people.append(SimpleNamespace(phone=number))
    return people


def test_cancel_with_500_invitees_costs_what_cancel_with_5_does(client, aws, override_settings):
    # GIVEN the notifications queue and two events, of 5 and of 500 invitees
    queue = use_queue(override_settings)
    alice = make_person("Alice")
    small, large = make_event(alice, *_guests(5)), make_event(alice, *_guests(500))
    drain(queue)
    counts = []
    for event in (small, large):
        # WHEN the owner cancels
        aws.reset()
        assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
        counts.append(aws.of("dynamodb"))
        # THEN one message was queued, and nothing else written in the request
        assert aws.of("sqs") == {"SendMessage": 1}
    # auth BatchGetItem with the caller's own invitation (before any of the event's rows), the partition
    # Query, the META UpdateItem: the same for 5 and for 500
    assert counts[0] == counts[1] == {"BatchGetItem": 1, "Query": 1, "UpdateItem": 1}
    # the handler then flags all 501 invitations (6 transactions of up to 100)
    bodies = drain(queue)
    aws.reset()
    client.lambda_.invoke("send_notifications", client.events.generate_sqs_event(bodies))
    assert aws.of("dynamodb")["TransactWriteItems"] == 1 + 6
    flagged = list(Invitation.query(event_pk(large.id)))
    assert len(flagged) == 501 and all(inv.cancelled for inv in flagged)


def test_reads_never_show_a_cancelled_event_before_the_flags_land(client, override_settings):
    queue = use_queue(override_settings)
    alice, bob = make_person("Alice"), make_person("Bob")
    arn = add_device(bob, "d4" * 32)
    event = make_event(alice, bob)
    drain(queue)
    put(client, f"/events/{event.id}/cancel_event", alice.token)
    # the message is still in the queue: META alone hides the event
    assert body(get(client, "/events", token=bob.token))["results"] == []
    assert body(get(client, "/events/timeline?type=received", token=bob.token)) == []
    assert body(get(client, f"/events/{event.id}", token=bob.token))["is_cancelled"] is True
    bodies = drain(queue)
    client.lambda_.invoke("send_notifications", client.events.generate_sqs_event(bodies))
    assert [p["type"] for p in pushes(arn)] == ["event_cancelled"]
    assert body(get(client, "/events/stats", token=bob.token)) == {"unresponded_invite_count": 0}
