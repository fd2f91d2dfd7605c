"""Pushes for every trigger, through the API, the queue and the SQS and schedule handlers, on moto.

# GIVEN people with devices (SNS platform endpoints) and flags, and the notifications queue
# WHEN a request causes a trigger, and the queue handler runs what it queued
# THEN each device of each recipient whose flag is on got one push with the APNS payload;
#      flag off: none; no account: an SMS instead; a redelivery sends nothing new.
"""

from __future__ import annotations

import json
from datetime import timedelta

import boto3
import pytest

from chalicelib.models.users import Device, User, user_pk
from chalicelib.services.identity import users
from tests.utils.api import REGION, body, get, login, post_json, texts_to
from tests.utils.factories import future, make_event, make_person, phone, put
from tests.utils.notifications import add_device, drain, endpoints, pushes, raw_pushes, run_queue

TOKEN_A, TOKEN_B, TOKEN_C = "a1" * 32, "b2" * 32, "c3" * 32


def flags(person, **values) -> None:
    users.update_profile(person.user, values)


def alert(payload: dict) -> dict:
    return payload["aps"]["alert"]


def assert_push(payload: dict, kind: str, event_id, title: str, body_text: str) -> None:
    assert payload == {
        "aps": {"alert": {"title": title, "body": body_text}, "sound": "default"},
        "type": kind,
        "event_id": event_id,
    }


def all_pushes() -> int:
    return sum(len(endpoint.messages) for endpoint in endpoints().values())


# --------------------------------------------------------------------------- new invite


def test_new_invite_pushes_to_every_device_of_invitees_with_the_flag_and_texts_the_rest(client, queue):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    bob_phone_arn, bob_tablet_arn = add_device(bob, TOKEN_A), add_device(bob, TOKEN_B)
    carol_arn = add_device(carol, TOKEN_C)
    flags(carol, notify_new_invite=False)
    stranger = phone(7001)  # no account: an SMS invitation, no push
    when = future(5)
    response = post_json(
        client,
        "/events",
        {
            "title": "Dinner",
            "event_date": when.isoformat(),
            "invite_phone_numbers": [bob.phone, carol.phone, stranger],
        },
        token=alice.token,
    )
    assert response.status_code == 201, response.body
    event_id = body(response)["id"]
    # the request only queued one message, and texted the stranger
    assert all_pushes() == 0
    assert len(texts_to(stranger)) == 1
    bodies = run_queue(client, queue)
    assert [json.loads(b)["type"] for b in bodies] == ["new_invite"]
    text = f"Alice invited you: {when.strftime('%b %d, %Y at %H:%M UTC')}."
    for arn in (bob_phone_arn, bob_tablet_arn):
        [payload] = pushes(arn)
        assert_push(payload, "new_invite", event_id, "Dinner", text)
        assert "badge" not in payload["aps"]
    [raw] = raw_pushes(bob_phone_arn)
    assert set(raw) == {"default", "APNS", "APNS_SANDBOX", "GCM"} and raw["APNS"] == raw["APNS_SANDBOX"]
    assert pushes(carol_arn) == []
    assert len(texts_to(stranger)) == 1 and texts_to(bob.phone) == []
    # a redelivered message sends nothing new
    run_queue(client, queue, bodies)
    assert len(pushes(bob_phone_arn)) == 1 and len(pushes(bob_tablet_arn)) == 1


def test_inviting_more_pushes_only_to_the_new_invitee(client, queue):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    bob_arn, carol_arn = add_device(bob, TOKEN_A), add_device(carol, TOKEN_B)
    event = make_event(alice, bob)
    run_queue(client, queue)
    assert len(pushes(bob_arn)) == 1
    response = post_json(
        client, f"/events/{event.id}", {"invite_phone_numbers": [carol.phone, bob.phone]}, alice.token, method="PATCH"
    )
    assert response.status_code == 200
    assert [json.loads(b)["type"] for b in run_queue(client, queue)] == ["new_invite"]
    assert len(pushes(bob_arn)) == 1
    assert [p["type"] for p in pushes(carol_arn)] == ["new_invite"]


# --------------------------------------------------------------------------- RSVP and event full


def test_rsvp_pushes_to_the_owner_and_event_full_once(client, queue):
    alice, bob = make_person("Alice"), make_person("Bob")
    alice_arn = add_device(alice, TOKEN_A)
    event = make_event(alice, bob, total_spots=1)
    drain(queue)

    def reply(action: str, message: str | None = None):
        payload = {} if message is None else {"rsvp_message": message}
        assert post_json(client, f"/events/{event.id}/{action}", payload, bob.token).status_code == 200
        return run_queue(client, queue)

    reply("accept", "See you")
    first = pushes(alice_arn)
    assert_push(first[0], "invite_rsvp", event.id, "Dinner", "Bob is coming. \u201cSee you\u201d")
    assert_push(first[1], "event_full", event.id, "Dinner", "All 1 spots are taken.")
    assert reply("accept") == []  # the same reply again: nothing to tell
    reply("reject")
    assert alert(pushes(alice_arn)[2])["body"] == "Bob can't make it."
    bodies = reply("accept")  # full again: the owner already knows
    assert [p["type"] for p in pushes(alice_arn)] == ["invite_rsvp", "event_full", "invite_rsvp", "invite_rsvp"]
    run_queue(client, queue, bodies)
    assert len(pushes(alice_arn)) == 4


def test_rsvp_and_full_flags_off_send_nothing(client, queue):
    alice, bob = make_person("Alice"), make_person("Bob")
    alice_arn = add_device(alice, TOKEN_A)
    flags(alice, notify_invite_rsvp=False, notify_event_full=False)
    event = make_event(alice, bob, total_spots=1)
    assert post_json(client, f"/events/{event.id}/accept", {}, bob.token).status_code == 200
    run_queue(client, queue)
    assert pushes(alice_arn) == []


def test_event_full_flag_alone(client, queue):
    alice, bob = make_person("Alice"), make_person("Bob")
    alice_arn = add_device(alice, TOKEN_A)
    flags(alice, notify_invite_rsvp=False)
    event = make_event(alice, bob, total_spots=1)
    post_json(client, f"/events/{event.id}/accept", {}, bob.token)
    run_queue(client, queue)
    assert [p["type"] for p in pushes(alice_arn)] == ["event_full"]


# --------------------------------------------------------------------------- contact joined


def test_contact_joined_pushes_to_those_who_keep_the_number_on_first_login_only(client, queue):
    alice, carol, dan = make_person("Alice"), make_person("Carol"), make_person("Dan")
    alice_arn, carol_arn, dan_arn = add_device(alice, TOKEN_A), add_device(carol, TOKEN_B), add_device(dan, TOKEN_C)
    flags(carol, notify_contact_joined=False)
    newcomer = "+14155550777"
    for person, name in ((alice, "Bobby"), (carol, "Bob")):
        response = post_json(
            client, "/users/favorite_contacts", [{"contact_name": name, "phone_number": newcomer}], person.token
        )
        assert response.status_code == 200, response.body
    drain(queue)
    joined = login(client, newcomer)
    run_queue(client, queue)
    [payload] = pushes(alice_arn)
    assert payload == {
        "aps": {"alert": {"title": "Invites", "body": "Bobby joined Invites."}, "sound": "default"},
        "type": "contact_joined",
        "event_id": None,
        "user_id": joined["id"],
    }
    assert pushes(carol_arn) == [] and pushes(dan_arn) == []
    login(client, newcomer)  # not a first login any more
    assert run_queue(client, queue) == []


def test_an_invitee_logging_in_for_the_first_time_counts_as_joining(client, queue):
    alice, bob = make_person("Alice"), make_person("Bob")
    alice_arn = add_device(alice, TOKEN_A)
    newcomer = "+14155550778"
    post_json(client, "/users/favorite_contacts", [{"contact_name": "Cy", "phone_number": newcomer}], alice.token)
    make_event(bob, make_person("", newcomer, active=False))  # exists as an inactive invitee
    drain(queue)
    login(client, newcomer)
    run_queue(client, queue)
    assert [alert(p)["body"] for p in pushes(alice_arn)] == ["Cy joined Invites."]


# --------------------------------------------------------------------------- event changed or cancelled


def test_edits_push_to_invitees_with_the_flag_not_the_owner(client, queue):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    alice_arn, bob_arn, carol_arn = add_device(alice, TOKEN_A), add_device(bob, TOKEN_B), add_device(carol, TOKEN_C)
    flags(carol, notify_event_change=False)
    event = make_event(alice, bob, carol, total_spots=5)
    drain(queue)
    payload = {"title": "Supper", "venue_name": "Luigi's"}
    assert post_json(client, f"/events/{event.id}", payload, alice.token, method="PATCH").status_code == 200
    bodies = run_queue(client, queue)
    [push] = pushes(bob_arn)
    assert_push(push, "event_changed", event.id, "Supper", "Alice changed the title, venue.")
    assert pushes(carol_arn) == [] and pushes(alice_arn) == []
    run_queue(client, queue, bodies)
    assert len(pushes(bob_arn)) == 1
    # filling spots by hand is no change for the invitees
    assert post_json(client, f"/events/{event.id}", {"spot_filled": 1}, alice.token, method="PATCH").status_code == 200
    assert drain(queue) == []


def test_cancel_pushes_to_invitees_once_and_flags_their_invitations(client, queue):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    bob_arn, carol_arn = add_device(bob, TOKEN_A), add_device(carol, TOKEN_B)
    flags(carol, notify_event_change=False)
    event = make_event(alice, bob, carol)
    drain(queue)
    assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
    # before the handler runs: gone from the list already; stats count it until the flags land
    assert body(get(client, "/events", token=bob.token))["results"] == []
    assert body(get(client, "/events/stats", token=bob.token)) == {"unresponded_invite_count": 1}
    bodies = run_queue(client, queue)
    assert [json.loads(b)["type"] for b in bodies] == ["event_cancelled"]
    [push] = pushes(bob_arn)
    assert_push(push, "event_cancelled", event.id, "Dinner", "Alice cancelled the event.")
    assert pushes(carol_arn) == []
    assert body(get(client, "/events/stats", token=bob.token)) == {"unresponded_invite_count": 0}
    run_queue(client, queue, bodies)
    assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
    assert drain(queue) == []  # nothing left to do
    assert len(pushes(bob_arn)) == 1


# --------------------------------------------------------------------------- upcoming


def test_upcoming_reminder_reaches_attendees_once_through_the_index(client, queue, aws):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    arns = {p.id: add_device(p, token) for p, token in ((alice, TOKEN_A), (bob, TOKEN_B), (carol, TOKEN_C))}
    soon = make_event(alice, bob, carol, title="Brunch", when=_in_hours(5))
    later = make_event(alice, bob, title="Later", when=_in_hours(30))
    make_event(alice, bob, title="Gone", when=_in_hours(6))  # cancelled below
    gone = make_event(alice, carol, title="Off", when=_in_hours(7))
    post_json(client, f"/events/{soon.id}/accept", {}, bob.token)
    put(client, f"/events/{gone.id}/cancel_event", alice.token)
    drain(queue)
    before = {arn: len(pushes(arn)) for arn in arns.values()}
    aws.reset()
    client.lambda_.invoke("remind_upcoming_events", client.events.generate_cw_event("aws.events", "Scheduled", {}, []))
    assert "Scan" not in aws.of("dynamodb")
    bodies = run_queue(client, queue)
    reminded = {json.loads(b)["event_id"] for b in bodies}
    assert soon.id in reminded and later.id not in reminded and gone.id not in reminded
    new = {uid: pushes(arn)[before[arn] :] for uid, arn in arns.items()}
    brunch = [p for p in new[alice.id] if p["event_id"] == soon.id]
    assert [p["type"] for p in brunch] == ["upcoming_event"]
    assert alert(brunch[0]) == {"title": "Brunch", "body": f"Starts {_in_hours(5).strftime('%b %d, %Y at %H:%M UTC')}."}
    assert [p["event_id"] for p in new[bob.id] if p["type"] == "upcoming_event"].count(soon.id) == 1
    assert not [p for p in new[carol.id] if p["type"] == "upcoming_event"]  # never accepted
    # the next hourly run finds nothing new; a redelivery sends nothing new
    client.lambda_.invoke("remind_upcoming_events", client.events.generate_cw_event("aws.events", "Scheduled", {}, []))
    assert drain(queue) == []
    count = all_pushes()
    run_queue(client, queue, bodies)
    assert all_pushes() == count


def test_upcoming_flag_off(client, queue):
    alice = make_person("Alice")
    alice_arn = add_device(alice, TOKEN_A)
    flags(alice, notify_upcoming_event=False)
    make_event(alice, when=_in_hours(3))
    client.lambda_.invoke("remind_upcoming_events", client.events.generate_cw_event("aws.events", "Scheduled", {}, []))
    assert len(run_queue(client, queue)) == 1
    assert pushes(alice_arn) == []


def _in_hours(hours: float):
    from chalicelib.timeutil import utcnow

    return (utcnow() + timedelta(hours=hours)).replace(second=0, microsecond=0)


# --------------------------------------------------------------------------- endpoints and failures


def test_a_disabled_endpoint_is_deleted_and_forgotten(client, queue):
    alice, bob = make_person("Alice"), make_person("Bob")
    good, disabled = add_device(bob, TOKEN_A), add_device(bob, TOKEN_B)
    boto3.client("sns", region_name=REGION).set_endpoint_attributes(
        EndpointArn=disabled, Attributes={"Enabled": "false"}
    )
    make_event(alice, bob)
    run_queue(client, queue)
    assert len(pushes(good)) == 1
    assert disabled not in endpoints() and good in endpoints()
    assert [d.endpoint_arn for d in Device.query(user_pk(bob.id))] == [good]


def test_a_deleted_endpoint_is_forgotten(client, queue):
    alice, bob = make_person("Alice"), make_person("Bob")
    gone = add_device(bob, TOKEN_A)
    boto3.client("sns", region_name=REGION).delete_endpoint(EndpointArn=gone)
    make_event(alice, bob)
    run_queue(client, queue)
    assert list(Device.query(user_pk(bob.id))) == []


def test_sns_down_fails_the_message_and_the_retry_sends_each_push_once(client, queue, fail_aws):
    alice, bob = make_person("Alice"), make_person("Bob")
    arn = add_device(bob, TOKEN_A)
    make_event(alice, bob)
    bodies = drain(queue)
    fail_aws("sns", "Publish", "InternalError")
    with pytest.raises(Exception, match="failed"):
        run_queue(client, queue, bodies)
    assert pushes(arn) == []
    fail_aws("sns", "Publish", "")  # SNS is back
    run_queue(client, queue, bodies)
    run_queue(client, queue, bodies)
    assert len(pushes(arn)) == 1


def test_sqs_down_never_fails_the_request_and_cancel_still_lands(client, queue, fail_aws):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    drain(queue)
    fail_aws("sqs", "SendMessage", "InternalError")
    assert post_json(client, f"/events/{event.id}/accept", {}, bob.token).status_code == 200
    assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
    from chalicelib.models.events import Invitation, event_pk

    assert all(inv.cancelled for inv in Invitation.query(event_pk(event.id)))


def test_sns_down_never_fails_the_request_in_inline_mode(client, fail_aws):
    alice, bob = make_person("Alice"), make_person("Bob")
    add_device(alice, TOKEN_A)
    event = make_event(alice, bob)
    fail_aws("sns", "Publish", "InternalError")
    assert post_json(client, f"/events/{event.id}/accept", {}, bob.token).status_code == 200


# --------------------------------------------------------------------------- local mode


def test_without_a_queue_pushes_go_out_at_once_and_are_echoed(client, override_settings, capsys):
    override_settings(echo_notifications="true", stage="local")  # the echo is for local runs only
    alice, bob = make_person("Alice"), make_person("Bob")
    arn = add_device(bob, TOKEN_A)
    event = make_event(alice, bob, title="Picnic")
    [payload] = pushes(arn)
    assert payload["type"] == "new_invite" and payload["event_id"] == event.id
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"push"' in line]
    assert lines == [{"msg": "push", "to": bob.id, "text": f"Picnic: {alert(payload)['body']}"}]


def test_inactive_users_get_no_push(client, queue):
    alice = make_person("Alice")
    ghost = make_person("", phone(7050), active=False)
    add_device(ghost, TOKEN_A)  # cannot happen through the API; pushes skip them anyway
    assert User.get(user_pk(ghost.id), "PROFILE").is_active is False
    make_event(alice, ghost)
    run_queue(client, queue)
    assert all_pushes() == 0
