"""Idempotency-Key on the POSTs that create something or text someone: a retried request does its work once."""

from __future__ import annotations

import json
import threading
import time

import pytest

from chalicelib.models.auth import IdempotentRequest, idempotency_pk
from chalicelib.models.events import EventsTable
from chalicelib.store.idempotency import kept_body
from tests.utils.api import body, login, post_json, texts_to
from tests.utils.races import race

OWNER, FRIEND, OTHER = "+14155550901", "+14155550902", "+14155550903"
EVENT = {"title": "Picnic", "event_date": "2030-06-01T12:00:00Z", "invite_phone_numbers": [FRIEND]}


def _post(client, path, payload, token, key="retry-1"):
    return post_json(client, path, payload, token, headers={"Idempotency-Key": key} if key is not None else None)


def _events_of_owner() -> int:
    return sum(1 for item in EventsTable.scan() if item.pk.startswith("EVENT#") and item.sk == "META")


@pytest.fixture
def owner(client):
    return login(client, OWNER, full_name="Olive Owner")


def test_a_repeated_create_answers_the_first_answer_and_makes_no_second_event_or_text(client, owner):
    first = _post(client, "/events", EVENT, owner["auth_token"])
    assert first.status_code == 201
    texts = len(texts_to(FRIEND))

    again = _post(client, "/events", EVENT, owner["auth_token"])

    assert again.status_code == 201 and body(again) == body(first)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(texts_to(FRIEND)) == texts == 1
    listed = post_json(client, "/events", None, owner["auth_token"], method="GET")
    assert [event["id"] for event in body(listed)["results"]] == [body(first)["id"]]


def test_without_a_key_each_post_does_its_work(client, owner):
    assert _post(client, "/events", EVENT, owner["auth_token"], key=None).status_code == 201
    assert _post(client, "/events", EVENT, owner["auth_token"], key=None).status_code == 201
    listed = post_json(client, "/events", None, owner["auth_token"], method="GET")
    assert len(body(listed)["results"]) == 2


def test_the_same_key_with_another_body_is_422_and_does_nothing(client, owner):
    assert _post(client, "/events", EVENT, owner["auth_token"]).status_code == 201
    response = _post(client, "/events", {**EVENT, "title": "Barbecue"}, owner["auth_token"])
    assert response.status_code == 422
    assert body(response) == {"detail": "This Idempotency-Key was used with another request."}
    listed = post_json(client, "/events", None, owner["auth_token"], method="GET")
    assert [event["title"] for event in body(listed)["results"]] == ["Picnic"]


def test_key_order_and_spacing_of_the_body_do_not_make_another_request(client, owner):
    first = _post(client, "/events", EVENT, owner["auth_token"])
    reordered = json.dumps(dict(reversed(list(EVENT.items()))), indent=2).encode()
    again = client.http.post(
        "/events",
        body=reordered,
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Bearer {owner['auth_token']}",
            "Idempotency-Key": "retry-1",
        },
    )
    assert again.status_code == 201 and body(again)["id"] == body(first)["id"]


def test_keys_belong_to_their_user(client, owner):
    other = login(client, OTHER, full_name="Otto Other")
    first = _post(client, "/events", EVENT, owner["auth_token"])
    theirs = _post(client, "/events", EVENT, other["auth_token"])
    assert theirs.status_code == 201 and body(theirs)["id"] != body(first)["id"]


def test_a_repeat_while_the_first_runs_is_409(client, owner, monkeypatch):
    from chalicelib.services.hosting import events

    started, finish = threading.Event(), threading.Event()
    create = events.create_event

    def slow_create(*args, **kwargs):
        started.set()
        finish.wait(10)
        return create(*args, **kwargs)

    monkeypatch.setattr(events, "create_event", slow_create)
    answers = {}
    first = threading.Thread(target=lambda: answers.update(first=_post(client, "/events", EVENT, owner["auth_token"])))
    first.start()
    assert started.wait(10)
    answers["second"] = _post(client, "/events", EVENT, owner["auth_token"])
    finish.set()
    first.join(10)

    assert answers["second"].status_code == 409
    assert body(answers["second"]) == {"detail": "A request with this Idempotency-Key is in progress."}
    assert answers["first"].status_code == 201
    assert _events_of_owner() == 1


def test_parallel_repeats_do_the_work_once(client, owner):
    answers = []
    event_id = _event(client, owner)

    def send_message(_):
        response = _post(client, f"/events/{event_id}/messages", {"body": "On my way"}, owner["auth_token"], "m-1")
        answers.append(response.status_code)
        if response.status_code == 409:
            raise RuntimeError("in progress")

    outcome = race(send_message, 8, refused=RuntimeError)
    detail = post_json(client, f"/events/{event_id}", None, owner["auth_token"], method="GET")
    messages = [m for m in body(detail)["messages"] if m["body"] == "On my way"]
    assert len(messages) == 1
    assert set(answers) <= {201, 409} and outcome.count("ok") >= 1


def _event(client, owner) -> int:
    response = _post(client, "/events", EVENT, owner["auth_token"], key=None)
    assert response.status_code == 201
    return body(response)["id"]


def test_a_failed_first_attempt_gives_the_key_back(client, owner, fail_aws):
    fail_aws("dynamodb", "TransactWriteItems")
    failed = _post(client, "/events", EVENT, owner["auth_token"])
    assert failed.status_code == 503 and "Retry-After" in failed.headers
    fail_aws("dynamodb", "TransactWriteItems", code="")  # DynamoDB answers again

    retried = _post(client, "/events", EVENT, owner["auth_token"])

    assert retried.status_code == 201 and "Idempotent-Replayed" not in retried.headers
    assert _events_of_owner() == 1


def test_a_refused_request_is_not_kept(client, owner):
    refused = _post(client, "/events", {**EVENT, "title": ""}, owner["auth_token"])
    assert refused.status_code == 400
    again = _post(client, "/events", {**EVENT, "title": ""}, owner["auth_token"])
    assert again.status_code == 400 and "Idempotent-Replayed" not in again.headers


@pytest.mark.parametrize("key", ["", "x" * 256, "caf\u00e9", "tab\there"])
def test_a_bad_key_is_400_keyed_by_the_header_and_nothing_is_made(client, owner, key):
    response = _post(client, "/events", EVENT, owner["auth_token"], key=key)
    assert response.status_code == 400
    assert body(response) == {"Idempotency-Key": ["Must be 1 to 255 printable ASCII characters."]}
    assert _events_of_owner() == 0


def test_the_record_expires_after_24_hours(client, owner):
    first = _post(client, "/events", EVENT, owner["auth_token"])
    record = IdempotentRequest.get(idempotency_pk(owner["id"], "retry-1"))
    assert abs(record.expires_at.timestamp() - (time.time() + 24 * 3600)) < 60
    assert record.state == "done" and record.status == 201 and json.loads(kept_body(record)) == body(first)


def test_an_expired_record_counts_as_absent(client, owner):
    first = _post(client, "/events", EVENT, owner["auth_token"])
    record = IdempotentRequest.get(idempotency_pk(owner["id"], "retry-1"))
    record.update(actions=[IdempotentRequest.expires_at.set(record.expires_at.replace(year=2020))])
    again = _post(client, "/events", EVENT, owner["auth_token"])
    assert again.status_code == 201 and body(again)["id"] != body(first)["id"]


@pytest.mark.parametrize(
    ("path", "payload", "status"),
    [
        ("/events/{event}/messages", {"body": "hi"}, 201),
        ("/events/{event}/polls", {"suggested_date": "2030-06-02T18:00:00Z", "suggested_venue": "Park"}, 201),
        ("/events/{event}/time_suggestions", {"suggested_time": "2030-06-02T18:00:00Z"}, 204),
    ],
)
def test_conversation_posts_are_done_once(client, owner, path, payload, status):
    event_id = _event(client, owner)
    url = path.format(event=event_id)
    first = _post(client, url, payload, owner["auth_token"])
    again = _post(client, url, payload, owner["auth_token"])
    assert first.status_code == again.status_code == status
    assert body(again) == body(first) and again.headers["Idempotent-Replayed"] == "true"
    kinds = {"/messages": "MSG#", "/polls": "POLL#", "/time_suggestions": "TS#"}
    prefix = next(p for suffix, p in kinds.items() if url.endswith(suffix))
    stored = [i for i in EventsTable.query(f"EVENT#{event_id}") if i.sk.startswith(prefix)]
    assert len(stored) == 1


def test_export_is_requested_once(client, owner):
    headers = {"Authorization": f"Bearer {owner['auth_token']}", "Idempotency-Key": "export-1"}
    first = client.http.post("/users/me/export", headers=headers)
    again = client.http.post("/users/me/export", headers=headers)
    assert first.status_code == again.status_code == 202
    assert body(again) == body(first) and again.headers["Idempotent-Replayed"] == "true"


def test_costs_one_write_to_claim_and_one_to_keep_and_two_calls_to_replay(client, owner, aws):
    event_id = _event(client, owner)
    aws.reset()
    _post(client, f"/events/{event_id}/messages", {"body": "hi"}, owner["auth_token"])
    first = aws.of("dynamodb")
    aws.reset()
    _post(client, f"/events/{event_id}/messages", {"body": "hi"}, owner["auth_token"])
    again = aws.of("dynamodb")
    first["BatchGetItem"] -= 1  # authentication
    again["BatchGetItem"] -= 1
    assert +first == {"PutItem": 1, "TransactWriteItems": 1, "GetItem": 1, "UpdateItem": 1}
    assert +again == {"PutItem": 1, "GetItem": 1}
