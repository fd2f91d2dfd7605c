"""DELETE /users/me: the account closes at once, and the cascade leaves nothing of the person."""

from __future__ import annotations

import base64
import json

from moto.sns.models import sns_backends

from chalicelib.models.events import EventsTable, event_pk
from chalicelib.models.users import PHONE_SK, PhoneClaim, UsersTable, phone_pk, user_pk
from chalicelib.store import account_deletion as store
from tests.utils.api import ACCOUNT, REGION, body, get, login, post_json
from tests.utils.avatars import stored_objects, upload_avatar
from tests.utils.factories import stored_event
from tests.utils.images import jpeg
from tests.utils.notifications import run_queue

ME, FRIEND, OTHER = "+14155550601", "+14155550602", "+14155550603"
DEVICE = "d4" * 32


def _delete(client, token: str):
    return client.http.request("DELETE", "/users/me", headers={"Authorization": f"Bearer {token}"})


def _endpoints() -> list[str]:
    backend = sns_backends[ACCOUNT][REGION]
    return list(backend.platform_endpoints)


def _everything_of(user_id: int, event_ids: list[int]) -> list[str]:
    """Every item still naming the user: their partition, their invitations and what they wrote."""
    left = [f"{item.pk} {item.sk}" for item in UsersTable.query(user_pk(user_id), consistent_read=True)]
    for event_id in event_ids:
        for item in EventsTable.query(event_pk(event_id), consistent_read=True):
            if getattr(item, "user_id", None) == user_id or getattr(item, "owner_id", None) == user_id:
                left.append(f"{item.pk} {item.sk}")
    return left


def _rich_account(client):
    """Me with an avatar, a device, a favorite with a photo, an event of mine with a guest who wrote in it,
    and an invitation to a friend's event that I accepted and wrote in."""
    me = login(client, ME, full_name="Mia Me")
    friend = login(client, FRIEND, full_name="Fred Friend")
    other = login(client, OTHER, full_name="Oscar Other")
    token = me["auth_token"]
    assert upload_avatar(client, token, jpeg()).status_code == 200
    assert post_json(client, "/notifications/add_ios_device", {"token": DEVICE}, token).status_code == 204
    photo = base64.b64encode(jpeg()).decode()
    favorites = [{"contact_name": "Fred", "phone_number": FRIEND, "photo": photo}]
    assert post_json(client, "/users/favorite_contacts", favorites, token).status_code == 200
    mine = {"title": "My party", "event_date": "2031-06-01T12:00:00Z", "invite_phone_numbers": [FRIEND]}
    my_event = body(post_json(client, "/events", mine, token))["id"]
    assert post_json(client, f"/events/{my_event}/accept", {}, friend["auth_token"]).status_code == 200
    assert post_json(client, f"/events/{my_event}/messages", {"body": "Yay"}, friend["auth_token"]).status_code == 201
    theirs = {
        "title": "Friend's dinner",
        "event_date": "2031-07-01T19:00:00Z",
        "total_spots": 5,
        "invite_phone_numbers": [ME, OTHER],
    }
    their_event = body(post_json(client, "/events", theirs, friend["auth_token"]))["id"]
    assert post_json(client, f"/events/{their_event}/accept", {}, token).status_code == 200
    assert post_json(client, f"/events/{their_event}/accept", {}, other["auth_token"]).status_code == 200
    assert post_json(client, f"/events/{their_event}/messages", {"body": "Hi"}, token).status_code == 201
    assert (
        post_json(client, f"/events/{their_event}/messages", {"body": "Hello"}, other["auth_token"]).status_code == 201
    )
    poll = {"suggested_date": "2031-07-02T19:00:00Z", "suggested_venue": "Bar"}
    assert post_json(client, f"/events/{their_event}/polls", poll, token).status_code == 201
    suggestion = {"suggested_time": "2031-07-01T20:00:00Z"}
    assert post_json(client, f"/events/{their_event}/time_suggestions", suggestion, token).status_code == 204
    return me, friend, other, my_event, their_event


def test_delete_closes_the_account_and_the_cascade_leaves_nothing(client):
    # GIVEN an account with something of every kind
    me, friend, other, my_event, their_event = _rich_account(client)
    assert any(key.startswith(f"avatars/{me['id']}/") for key in stored_objects())
    assert _endpoints()
    # WHEN it is deleted
    response = _delete(client, me["auth_token"])
    # THEN 204, the token is dead, and the number logs in as a new user with nothing of the old one
    assert response.status_code == 204
    assert get(client, "/users/me", me["auth_token"]).status_code == 401
    again = login(client, ME)
    assert again["id"] != me["id"] and again["full_name"] == "" and again["photo"] is None
    assert body(get(client, "/users/favorite_contacts", again["auth_token"])) == []
    assert body(get(client, "/events", again["auth_token"]))["count"] == 0
    # and nothing of the old account is left: items, objects, endpoints
    assert _everything_of(me["id"], [my_event, their_event]) == []
    assert not [key for key in stored_objects() if f"/{me['id']}/" in key]
    assert _endpoints() == []
    assert store.pending_jobs() == []
    # the owned event is gone for its guest; the friend's event counts as if I had declined
    assert get(client, f"/events/{my_event}", friend["auth_token"]).status_code == 404
    event = stored_event(their_event)
    assert (event.spots_filled, event.accepted_count) == (1, 1)
    assert (event.message_count, event.poll_count, event.suggestion_count) == (1, 0, 0)
    detail = body(get(client, f"/events/{their_event}", friend["auth_token"]))
    assert [invitee["user_id"] for invitee in detail["invitees"]] == [friend["id"], other["id"]]
    assert [message["user_id"] for message in detail["messages"]] == [other["id"]]
    assert detail["polls"] == [] and detail["attendees_count"] == 2
    suggestions = body(get(client, f"/events/{their_event}/time_suggestions", friend["auth_token"]))
    assert suggestions == []


def test_the_deleted_person_is_in_no_other_answer(client):
    me, friend, other, my_event, _ = _rich_account(client)
    assert [user["id"] for user in body(get(client, "/users/who_has_invited_me", friend["auth_token"]))] == [me["id"]]
    assert _delete(client, me["auth_token"]).status_code == 204
    assert body(get(client, "/users/who_has_invited_me", friend["auth_token"])) == []
    lookup = post_json(client, "/users/from_phone_numbers", {"phone_numbers": [ME]}, other["auth_token"])
    assert body(lookup) == []
    events = body(get(client, "/events", friend["auth_token"]))["results"]
    assert my_event not in [event["id"] for event in events]
    assert all(me["id"] not in [inv["user_id"] for inv in event["invitations"]] for event in events)


def test_through_the_queue_only_the_closing_happens_on_the_request(client, queue):
    me, friend, _, my_event, their_event = _rich_account(client)
    run_queue(client, queue)  # the notifications of the set-up
    # WHEN deleted with a queue in place
    assert _delete(client, me["auth_token"]).status_code == 204
    # THEN at once: tokens dead, claim free, profile gone; the rest waits for the queue
    assert get(client, "/users/me", me["auth_token"]).status_code == 401
    assert PhoneClaim.count(phone_pk(ME), PhoneClaim.sk == PHONE_SK) == 0
    assert [job.user_id for job in store.pending_jobs()] == [me["id"]]
    assert stored_event(my_event).cancelled is False
    # WHEN the queue runs: the job fans out one message per owned event, each one comes back to the job
    first = run_queue(client, queue)
    assert [json.loads(b)["type"] for b in first] == ["account_deletion"]
    fanned = run_queue(client, queue)
    assert [json.loads(b)["type"] for b in fanned] == ["owned_event_deletion"]
    run_queue(client, queue)
    # THEN everything is gone and the job is over
    assert _everything_of(me["id"], [my_event, their_event]) == []
    assert store.pending_jobs() == []
    assert get(client, f"/events/{my_event}", friend["auth_token"]).status_code == 404


def test_the_database_throttling_answers_503_and_nothing_is_closed(client, fail_aws):
    me = login(client, ME, full_name="Mia Me")
    fail_aws("dynamodb", "TransactWriteItems")
    response = _delete(client, me["auth_token"])
    assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
    fail_aws("dynamodb", "TransactWriteItems", code="")
    assert get(client, "/users/me", me["auth_token"]).status_code == 200
    assert store.pending_jobs() == []


def test_deleting_twice_is_401_the_second_time(client):
    me = login(client, ME)
    assert _delete(client, me["auth_token"]).status_code == 204
    response = _delete(client, me["auth_token"])
    assert response.status_code == 401 and body(response) == {"detail": "Invalid token."}
