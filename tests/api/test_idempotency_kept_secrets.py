"""A kept answer holds no secret the service stores only as a hash: the calendar feed token, the join code and
a plan page's code are kept sealed under the pin key, and a repeat with the key answers the very first body,
whose link still opens."""

from __future__ import annotations

import re
import zlib

from chalicelib.models.auth import IdempotentRequest, idempotency_pk
from chalicelib.store.idempotency import kept_body
from tests.utils.api import body, login, post_json
from tests.utils.factories import make_event, make_person
from tests.utils.idempotency import assert_replayed
from tests.utils.idempotency import send_with_key as _send
from tests.utils.pin_key import KEY, put_pin_key
from tests.utils.web import PUBLIC_BASE

PLAN = {
    "title": "Dinner",
    "time_zone": "America/New_York",
    "options": ["2030-06-05T18:00:00Z", "2030-06-06T18:00:00Z"],
    "invite_phone_numbers": ["+14155550702"],
}


def _stored_text(user_id: int, key: str) -> str:
    """Everything the idempotency item holds, as text: every attribute and the kept body unpacked."""
    record = IdempotentRequest.get(idempotency_pk(user_id, key), consistent_read=True)
    raw = repr(record.serialize())
    if record.packed_body is not None:
        raw += zlib.decompress(record.packed_body).decode("utf-8")
    return raw + kept_body(record)


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def test_a_kept_calendar_link_holds_no_token_and_its_repeat_answers_the_link_that_opens(client):
    person = make_person("Cal Endar")
    first = _send(client, "POST", "/users/me/calendar_feed", person, "feed-1")
    token = re.search(r"/c/([A-Za-z0-9_-]{32})\.ics$", body(first)["url"]).group(1)
    assert token not in _stored_text(person.user.id, "feed-1")
    again = _send(client, "POST", "/users/me/calendar_feed", person, "feed-1")
    assert_replayed(first, again, 200)
    assert client.http.get(_path(body(again)["url"])).status_code == 200
    assert token in body(again)["webcal"]


def test_a_calendar_link_asked_with_another_key_is_another_token_and_ends_the_first(client):
    person = make_person("Cal Endar")
    first = body(_send(client, "POST", "/users/me/calendar_feed", person, "feed-1"))["url"]
    second = body(_send(client, "POST", "/users/me/calendar_feed", person, "feed-2"))["url"]
    assert first != second
    assert client.http.get(_path(first)).status_code == 404
    assert client.http.get(_path(second)).status_code == 200
    assert _path(second).removeprefix("/c/").removesuffix(".ics") not in _stored_text(person.user.id, "feed-2")


def test_a_kept_join_link_holds_no_code_and_its_repeat_answers_the_code_that_joins(client):
    owner, friend = make_person("Owner"), make_person("Friend")
    event = make_event(owner, join_mode="open")
    path = f"/events/{event.id}/join_link"
    first = _send(client, "POST", path, owner, "link-1")
    code = body(first)["url"].rsplit("/j/", 1)[1]
    assert code not in _stored_text(owner.user.id, "link-1")
    again = _send(client, "POST", path, owner, "link-1")
    assert_replayed(first, again, 200)
    joined = post_json(client, "/events/join", {"code": body(again)["url"].rsplit("/j/", 1)[1]}, friend.token)
    assert joined.status_code == 200 and body(joined)["id"] == event.id


def test_a_join_link_asked_with_another_key_is_another_code_and_ends_the_first(client):
    owner, friend = make_person("Owner"), make_person("Friend")
    event = make_event(owner, join_mode="open")
    path = f"/events/{event.id}/join_link"
    first = body(_send(client, "POST", path, owner, "link-1"))["url"].rsplit("/j/", 1)[1]
    second = body(_send(client, "POST", path, owner, "link-2"))["url"].rsplit("/j/", 1)[1]
    assert first != second and second not in _stored_text(owner.user.id, "link-2")
    assert post_json(client, "/events/join", {"code": first}, friend.token).status_code == 404
    assert post_json(client, "/events/join", {"code": second}, friend.token).status_code == 200


def test_a_kept_plan_holds_no_page_code_and_its_repeat_answers_the_page_that_opens(client):
    owner = login(client, "+14155550701", full_name="Olive Owner")
    headers = {"Idempotency-Key": "plan-1"}
    first = post_json(client, "/plans", PLAN, owner["auth_token"], headers=headers)
    url = body(first)["url"]
    assert url.startswith(f"{PUBLIC_BASE}/p/")
    assert url.rsplit("/p/", 1)[1] not in _stored_text(owner["id"], "plan-1")
    again = post_json(client, "/plans", PLAN, owner["auth_token"], headers=headers)
    assert_replayed(first, again, 201)
    assert client.http.get(_path(url)).status_code == 200


def test_an_answer_without_a_secret_is_kept_as_it_was_given(client):
    owner = make_person("Owner")
    event = make_event(owner, total_spots=10)
    payload = {"name": "Grandpa Joe", "extra_guests": 0}
    first = _send(client, "POST", f"/events/{event.id}/offline_guests", owner, "offline-1", payload)
    record = IdempotentRequest.get(idempotency_pk(owner.user.id, "offline-1"), consistent_read=True)
    assert kept_body(record) == first.body.decode("utf-8")


def test_a_kept_link_without_a_readable_pin_key_is_a_503_that_changes_nothing(client, deployed_stage):
    person = make_person("Cal Endar")
    headers = {"Authorization": f"Bearer {person.token}"}
    before = body(client.http.request("POST", "/users/me/calendar_feed", headers=headers, body=b""))["url"]
    refused = _send(client, "POST", "/users/me/calendar_feed", person, "feed-1")  # SSM holds no pin key yet
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "30"
    assert client.http.get(_path(before)).status_code == 200
    put_pin_key(KEY)
    retried = _send(client, "POST", "/users/me/calendar_feed", person, "feed-1")
    assert retried.status_code == 200 and "Idempotent-Replayed" not in retried.headers
    assert client.http.get(_path(before)).status_code == 404
    again = _send(client, "POST", "/users/me/calendar_feed", person, "feed-1")
    assert_replayed(retried, again, 200)
    assert client.http.get(_path(body(again)["url"])).status_code == 200
