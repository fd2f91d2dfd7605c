"""POST/GET /users/me/export: the person's data as one JSON file behind a presigned URL."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, unquote, urlsplit

from chalicelib.services.replies import replies
from tests.utils.api import body, get, login, post_json
from tests.utils.avatars import AVATAR_BUCKET
from tests.utils.aws_env import aws_client
from tests.utils.exports import download_location, exported_file
from tests.utils.factories import make_event, make_person
from tests.utils.notifications import drain, run_queue

ME, FRIEND = "+14155550701", "+14155550702"
DEVICE = "e5" * 32


def _export(client, token: str):
    return client.http.post("/users/me/export", headers={"Authorization": f"Bearer {token}"})


def _file_of(url: str) -> tuple[dict, dict]:
    """The object a presigned URL names (its JSON and its head)."""
    key = "exports/" + unquote(urlsplit(url).path).split("/exports/", 1)[1]
    s3 = aws_client("s3")
    stored = s3.get_object(Bucket=AVATAR_BUCKET, Key=key)
    return json.loads(stored["Body"].read()), stored


def test_never_asked_is_404(client):
    me = login(client, ME)
    response = get(client, "/users/me/export", me["auth_token"])
    assert response.status_code == 404 and body(response) == {"detail": "Not found."}


def test_the_file_holds_everything_of_the_person_and_is_private(client):
    # GIVEN a person with a device, a favorite, an event of their own, and an invitation they answered
    me = login(client, ME, full_name="Mia Me")
    friend = login(client, FRIEND, full_name="Fred Friend")
    token = me["auth_token"]
    post_json(client, "/notifications/add_ios_device", {"token": DEVICE}, token)
    post_json(client, "/users/favorite_contacts", [{"contact_name": "Fred", "phone_number": FRIEND}], token)
    mine = {"title": "Mine", "event_date": "2031-06-01T12:00:00Z", "invite_phone_numbers": [FRIEND]}
    my_event = body(post_json(client, "/events", mine, token))["id"]
    post_json(client, f"/events/{my_event}/messages", {"body": "Welcome"}, token)
    theirs = {"title": "Theirs", "event_date": "2031-07-01T12:00:00Z", "invite_phone_numbers": [ME]}
    their_event = body(post_json(client, "/events", theirs, friend["auth_token"]))["id"]
    post_json(client, f"/events/{their_event}/reject", {"rsvp_message": "Away"}, token)
    post_json(client, f"/events/{their_event}/messages", {"body": "Sorry!"}, token)
    # WHEN an export is asked for
    response = _export(client, token)
    assert response.status_code == 202 and body(response) == {"status": "pending"}
    ready = body(get(client, "/users/me/export", token))
    # THEN (processed at once without a queue) it is ready, with a link valid for an hour, which signs a short
    # download of the file each time it is opened
    assert ready["status"] == "ready" and ready["expires_at"].endswith("Z")
    download = download_location(client, ready["url"])
    assert parse_qs(urlsplit(download).query)["X-Amz-Expires"] == ["300"]
    data, head = _file_of(download)
    assert head["ServerSideEncryption"] == "AES256"
    assert f"/exports/{me['id']}/" in urlsplit(download).path
    assert data["profile"]["full_name"] == "Mia Me" and data["profile"]["phone_number"] == ME
    assert data["devices"][0]["token"] == DEVICE
    assert [f["phone_number"] for f in data["favorites"]] == [FRIEND]
    owned = data["events_owned"][0]
    assert owned["title"] == "Mine" and [i["user_id"] for i in owned["invitees"]] == [me["id"], friend["id"]]
    assert [m["body"] for m in owned["messages"]] == ["Welcome"]
    received = data["invitations_received"][0]
    assert (received["title"], received["has_accepted_invite"], received["rsvp_message"]) == ("Theirs", False, "Away")
    assert [m["body"] for m in received["messages_written"]] == ["Sorry!"]


def test_one_export_at_a_time(client, queue):
    me = login(client, ME)
    drain(queue)
    # WHEN asked twice before the first is made
    assert body(_export(client, me["auth_token"])) == {"status": "pending"}
    assert body(_export(client, me["auth_token"])) == {"status": "pending"}
    # THEN one export is made
    bodies = run_queue(client, queue)
    assert [json.loads(b)["type"] for b in bodies] == ["data_export"]
    assert body(get(client, "/users/me/export", me["auth_token"]))["status"] == "ready"


def test_three_exports_a_day(client):
    me = login(client, ME)
    for _ in range(3):
        assert _export(client, me["auth_token"]).status_code == 202
    response = _export(client, me["auth_token"])
    assert response.status_code == 429
    assert body(response)["detail"].startswith("Request was throttled.")
    assert int(response.headers["Retry-After"]) > 0


def test_the_file_holds_the_party_the_place_in_line_and_the_numbers_invited(client):
    # GIVEN a person waiting with two guests in line for a friend's full event, who invited two numbers
    me = login(client, ME, full_name="Mia Me")
    friend = login(client, FRIEND, full_name="Fred Friend")
    token = me["auth_token"]
    other, unknown = "+14155550703", "+14155550704"
    login(client, other, full_name="Olga Other")
    full = {
        "title": "Full",
        "event_date": "2031-07-01T12:00:00Z",
        "invite_phone_numbers": [other, ME],
        "total_spots": 3,
        "max_extra_guests": 2,
        "waitlist": True,
        "questions": [{"text": "Main course", "kind": "choice", "choices": ["Fish", "Veggie"], "required": True}],
    }
    their_event = body(post_json(client, "/events", full, friend["auth_token"]))["id"]
    olga = login(client, other)
    post_json(
        client, f"/events/{their_event}/accept", {"extra_guests": 1, "answers": {"q1": "Fish"}}, olga["auth_token"]
    )
    joined = body(
        post_json(client, f"/events/{their_event}/accept", {"extra_guests": 2, "answers": {"q1": "Veggie"}}, token)
    )
    assert joined["waitlist_position"] == 1
    mine = {"title": "Mine", "event_date": "2031-06-01T12:00:00Z", "invite_phone_numbers": [FRIEND, unknown]}
    my_event = body(post_json(client, "/events", mine, token))["id"]
    post_json(client, f"/events/{my_event}/offline_guests", {"name": "Grandpa Joe"}, token)
    # WHEN an export is made
    assert _export(client, token).status_code == 202
    data, _ = _file_of(download_location(client, body(get(client, "/users/me/export", token))["url"]))
    # THEN it holds the party, the place in line, and each number invited
    received = data["invitations_received"][0]
    assert (received["extra_guests"], received["waitlist_position"], received["has_accepted_invite"]) == (2, 1, None)
    assert received["answers"] == [{"question_id": "q1", "question": "Main course", "answer": "Veggie"}]
    (owned,) = data["events_owned"]
    assert [guest["name"] for guest in owned["offline_guests"]] == ["Grandpa Joe"]
    assert data["numbers_invited"] == [
        {"phone_number": FRIEND, "event_ids": [my_event]},
        {"phone_number": unknown, "event_ids": [my_event]},
    ]


def test_numbers_invited_hold_those_invited_as_guest_and_as_cohost(client):
    # GIVEN a person who invited a number to their own event, one as a guest and one as a co-host
    me = login(client, ME, full_name="Mia Me")
    friend = login(client, FRIEND, full_name="Fred Friend")
    token, friends = me["auth_token"], friend["auth_token"]
    own_pick, as_guest, as_cohost = "+14155550711", "+14155550712", "+14155550713"
    fields = {"event_date": "2031-07-01T12:00:00Z", "invite_phone_numbers": [ME]}
    guest_event = body(post_json(client, "/events", {"title": "Open", "guest_invites": 2, **fields}, friends))["id"]
    cohost_event = body(post_json(client, "/events", {"title": "Shared", **fields}, friends))["id"]
    assert client.http.put(f"/events/{cohost_event}/cohosts/{me['id']}",
                           headers={"Authorization": f"Bearer {friends}"}).status_code == 200  # fmt: skip
    for event_id, number in ((guest_event, as_guest), (cohost_event, as_cohost)):
        invited = post_json(client, f"/events/{event_id}", {"invite_phone_numbers": [number]}, token, method="PATCH")
        assert invited.status_code == 200, invited.body
    mine = body(post_json(client, "/events", {"title": "Mine", **fields, "invite_phone_numbers": [own_pick]}, token))
    # WHEN an export is made
    assert _export(client, token).status_code == 202
    data, _ = _file_of(download_location(client, body(get(client, "/users/me/export", token))["url"]))
    # THEN every number the person invited is there, whoever's event it was; the host's own invitees are not
    assert data["numbers_invited"] == [
        {"phone_number": own_pick, "event_ids": [mine["id"]]},
        {"phone_number": as_guest, "event_ids": [guest_event]},
        {"phone_number": as_cohost, "event_ids": [cohost_event]},
    ]


def test_each_invitation_received_says_its_answer_in_one_word(client):
    me, host, seated = make_person("Mia Me"), make_person("Hal Host"), make_person("Sam Seated")
    going, declined, maybe, silent = (make_event(host, me, title=title) for title in ("Go", "No", "Perhaps", "Quiet"))
    full = make_event(host, seated, me, title="Full", total_spots=1, waitlist=True)
    replies.rsvp(me.user, going.id, accept=True, message=None)
    replies.rsvp(me.user, declined.id, accept=False, message=None)
    replies.say_maybe(me.user, maybe.id, message=None)
    replies.rsvp(seated.user, full.id, accept=True, message=None)
    assert replies.rsvp(me.user, full.id, accept=True, message=None).waitlist_position == 1
    assert _export(client, me.token).status_code == 202
    data = exported_file(client, body(get(client, "/users/me/export", me.token))["url"])
    answers = {received["title"]: received["answer"] for received in data["invitations_received"]}
    assert answers == {"Go": "going", "No": "declined", "Perhaps": "maybe", "Quiet": "no_reply", "Full": "waiting"}
    perhaps = next(received for received in data["invitations_received"] if received["title"] == "Perhaps")
    assert perhaps["has_accepted_invite"] is None  # the field old readers know keeps its meaning
