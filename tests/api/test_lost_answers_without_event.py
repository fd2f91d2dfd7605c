"""A write whose answer was lost, on the routes and page forms without an event id: logging in, the account,
devices, creating events, plans, the calendar feed and the pages of people without the app.

As tests/api/test_lost_answers.py does for the routes with an event id: each request runs twice on like worlds,
once plainly and once with the first answer of every write it makes dropped after the emulator applied it (the
SDK then sends it again). Both must answer the same status and store the same (items of each kind, counters,
texts).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.api.test_lost_answers import lose_first_answer_of_every_write
from tests.utils import the_day
from tests.utils.api import asking_a_pin, last_pin, post_json, verifying_a_pin
from tests.utils.avatars import multipart, upload_avatar
from tests.utils.aws_env import fresh_world
from tests.utils.aws_faults import on_the_wire
from tests.utils.effects import difference, stored_effects
from tests.utils.factories import make_event, make_person, phone, stored_pin
from tests.utils.images import jpeg
from tests.utils.page_forms import submit
from tests.utils.web import answer, form_token, link_texted_to, page, post_form, text_of

PLAN = {"title": "Dinner", "time_zone": "America/New_York", "options": ["2030-06-05T18:00:00Z", "2030-06-06T18:00:00Z"]}
NEW_EVENT = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z"}
SERIES = {"repeat": {"freq": "weekly", "count": 3}}
FAVORITES = "/users/favorite_contacts"
IOS_DEVICE = "c3" * 32
ANDROID_DEVICE = "fcm-token_" + "Cd7:" * 30


@dataclass(frozen=True)
class Write:
    """One request: ``prepare(client)`` builds its world and returns the request to make."""

    name: str
    prepare: Callable


def _headers(person, **more) -> dict:
    return {"Authorization": f"Bearer {person.token}", "Content-Type": "application/json", **more}


def _as_person(method: str, path: str, payload=None, **headers) -> Callable:
    def prepare(client):
        person = make_person("Pat Person")
        data = json.dumps(payload(person) if callable(payload) else payload).encode() if payload is not None else b""
        return lambda: client.http.request(method, path, body=data, headers=_headers(person, **headers))

    return prepare



def _verify_pin_of_an_invitee(client):
    """The number was invited before it had the app: verifying activates its account."""
    owner, number = make_person("Olive Owner"), phone()
    assert post_json(client, "/events", {**NEW_EVENT, "invite_phone_numbers": [number]}, owner.token).status_code == 201
    return _verify_pin_after_asking(client, number)


def _verify_pin_after_asking(client, number):
    assert post_json(client, "/auth", {"phone_number": number}).status_code == 204
    pin = last_pin(number)
    return lambda: post_json(client, "/auth/verify_pin", {"phone_number": number, "pin": pin})


def _remove_avatar(client):
    person = make_person("Pat Person")
    assert upload_avatar(client, person.token, jpeg()).status_code == 200
    return lambda: client.http.post("/users/remove_avatar", headers=_headers(person))


def _change_avatar(client):
    person = make_person("Pat Person")
    data, part_headers = multipart(jpeg())
    headers = {"Authorization": f"Bearer {person.token}", **part_headers}
    return lambda: client.http.post("/users/change_avatar", body=data, headers=headers)


def _delete_account(client):
    """An owner with an event, a guest and a device."""
    person, guest = make_person("Pat Person"), make_person("Gus Guest")
    make_event(person, guest)
    assert post_json(client, "/notifications/add_ios_device", {"token": IOS_DEVICE}, person.token).status_code < 300
    return lambda: client.http.delete("/users/me", headers=_headers(person))


def _device(kind: str, field: str, value: str, remove: bool) -> Callable:
    def prepare(client):
        person = make_person("Pat Person")
        if not remove:
            return lambda: post_json(client, f"/notifications/add_{kind}_device", {field: value}, person.token)
        add = post_json(client, f"/notifications/add_{kind}_device", {field: value}, person.token)
        assert add.status_code < 300, add.body
        return lambda: post_json(client, f"/notifications/remove_{kind}_device", {field: value}, person.token)

    return prepare


def _new_plan(client, owner, *numbers) -> dict:
    response = post_json(client, "/plans", {**PLAN, "invite_phone_numbers": list(numbers)}, owner.token)
    assert response.status_code == 201, response.body
    return response.json_body


def _plan_route(action: str) -> Callable:
    def prepare(client):
        owner, friend = make_person("Olive Owner"), make_person("Fay Friend")
        plan = _new_plan(client, owner, friend.phone)
        path = f"/plans/{plan['id']}"
        if action == "vote":
            return lambda: post_json(client, f"{path}/votes", {"1": "yes", "2": "no"}, friend.token, method="PUT")
        if action == "decide":
            return lambda: post_json(client, f"{path}/decide", {"option": 1}, owner.token)
        return lambda: client.http.delete(path, headers=_headers(owner))

    return prepare


def _vote_on_the_plan_page(client):
    owner, number = make_person("Olive Owner"), phone()
    _new_plan(client, owner, number)
    path = _plan_link(number)
    opened = page(client, path)
    return lambda: submit(client, path, opened, "vote_1", {"vote_1": "yes", "vote_2": "if_need_be"})[1]


def _plan_link(number: str) -> str:
    from tests.api.test_plan_page import plan_link_of

    return plan_link_of(number)


def _invited_page(client):
    owner, number = make_person("Olive Owner"), phone()
    assert post_json(client, "/events", {**NEW_EVENT, "invite_phone_numbers": [number]}, owner.token).status_code == 201
    path = link_texted_to(number)
    return path, page(client, path)


def _guest_page_form(field: str, typed: dict) -> Callable:
    def prepare(client):
        path, opened = _invited_page(client)
        return lambda: submit(client, path, opened, field, typed)[1]

    return prepare


def _stop_texts(client):
    path, opened = _invited_page(client)
    return lambda: post_form(client, f"{path}/stop", {"csrf": form_token(text_of(opened))})


def _start_texts_again(client):
    path, opened = _invited_page(client)
    stopped = post_form(client, f"{path}/stop", {"csrf": form_token(text_of(opened))})
    assert stopped.status_code < 400, text_of(stopped)
    return lambda: post_form(client, f"{path}/start", {"csrf": form_token(text_of(page(client, path)))})


def _join_page(step: str) -> Callable:
    def prepare(client):
        from tests.api.test_join_page import NAME, _code, _event

        owner, number = make_person("Alice Host"), phone()
        code = _code(client, owner, _event(owner))
        opened = page(client, f"/j/{code}")
        typed = {"phone_number": number, "full_name": NAME}
        if step == "pin":
            return lambda: submit(client, f"/j/{code}", opened, "phone_number", typed)[1]
        where, pin_page = submit(client, f"/j/{code}", opened, "phone_number", typed)
        assert pin_page.status_code == 200, text_of(pin_page)
        return lambda: submit(client, where, pin_page, "pin", {"pin": last_pin(number)})[1]

    return prepare


def _account_deletion_page(step: str) -> Callable:
    def prepare(client):
        person = make_person("Pat Person")
        make_event(person, make_person("Gus Guest"))
        opened = page(client, "/account/delete")
        typed = {"phone_number": person.phone}
        if step == "pin":
            return lambda: submit(client, "/account/delete", opened, "phone_number", typed)[1]
        where, pin_page = submit(client, "/account/delete", opened, "phone_number", typed)
        assert pin_page.status_code == 200, text_of(pin_page)
        if step == "verify":
            return lambda: submit(client, where, pin_page, "pin", {"pin": last_pin(person.phone)})[1]
        _, confirm = submit(client, where, pin_page, "pin", {"pin": last_pin(person.phone)})
        assert confirm.status_code == 200, text_of(confirm)
        return lambda: submit(client, "/account/delete/confirm", confirm, "grant", {})[1]

    return prepare


def _event_inviting_a_number(person) -> dict:
    return {**NEW_EVENT, "invite_phone_numbers": [phone()]}


def _series_inviting_a_number(person) -> dict:
    return {**_event_inviting_a_number(person), **SERIES}


def _post_event_with_key(client):
    person = make_person("Pat Person")
    payload = json.dumps({**NEW_EVENT, "invite_phone_numbers": [phone()]}).encode()
    headers = _headers(person, **{"Idempotency-Key": "one-picnic"})
    return lambda: client.http.post("/events", body=payload, headers=headers)


def _favorites(method: str) -> Callable:
    """Two contacts saved (one with a photo), or named to go once saved."""

    def prepare(client):
        person = make_person("Pat Person")
        saved = [
            {"contact_name": "Ann", "phone_number": phone(), "photo": base64.b64encode(jpeg()).decode()},
            {"contact_name": "Bob", "phone_number": phone()},
        ]
        if method == "POST":
            return lambda: post_json(client, FAVORITES, saved, person.token)
        assert post_json(client, FAVORITES, saved, person.token).status_code == 200
        named = {"phone_numbers": [entry["phone_number"] for entry in saved]}
        return lambda: post_json(client, FAVORITES, named, person.token, method="DELETE")

    return prepare


def _series_date_answer(client):
    """A number invited to a weekly series answers its third date on the series page."""
    owner, number = make_person("Olive Owner"), phone()
    created = post_json(client, "/events", {**NEW_EVENT, **SERIES, "invite_phone_numbers": [number]}, owner.token)
    assert created.status_code == 201, created.body
    third = created.json_body["series"]["dates"][2]["id"]
    path = link_texted_to(number)
    token = form_token(text_of(page(client, path)))
    return lambda: post_form(client, f"{path}/dates/{third}/rsvp", {"csrf": token, "answer": "accept"})


def _album_upload_form(client):
    """A guest invited by text, going, asks the started event's album for an upload form."""
    owner, number = make_person("Olive Owner"), phone()
    created = post_json(client, "/events", {**NEW_EVENT, "invite_phone_numbers": [number]}, owner.token)
    assert created.status_code == 201, created.body
    path = link_texted_to(number)
    assert answer(client, path, "accept").status_code == 303
    the_day.started(created.json_body["id"])
    return lambda: post_form(client, f"{path}/photos", {"csrf": form_token(text_of(page(client, path)))})


WRITES = [
    Write("POST /auth", asking_a_pin),
    Write("POST /auth/verify_pin", verifying_a_pin),
    Write("POST /auth/verify_pin of an invitee", _verify_pin_of_an_invitee),
    Write("POST /auth/register", _as_person("POST", "/auth/register", {"full_name": "Pat P", "email": "p@ex.test"})),
    Write("POST /auth/logout", _as_person("POST", "/auth/logout")),
    Write("PATCH /users/me", _as_person("PATCH", "/users/me", {"full_name": "New Name"})),
    Write("DELETE /users/me", _delete_account),
    Write("POST /users/change_avatar", _change_avatar),
    Write("POST /users/remove_avatar", _remove_avatar),
    Write("POST /events", _as_person("POST", "/events", _event_inviting_a_number)),
    Write("POST /events with Idempotency-Key", _post_event_with_key),
    Write("POST /notifications/add_ios_device", _device("ios", "token", IOS_DEVICE, remove=False)),
    Write("POST /notifications/remove_ios_device", _device("ios", "token", IOS_DEVICE, remove=True)),
    Write("POST /notifications/add_android_device", _device("android", "device_token", ANDROID_DEVICE, remove=False)),
    Write("POST /notifications/remove_android_device", _device("android", "device_token", ANDROID_DEVICE, remove=True)),
    Write("POST /users/favorite_contacts", _favorites("POST")),
    Write("DELETE /users/favorite_contacts", _favorites("DELETE")),
    Write("POST /events with repeat", _as_person("POST", "/events", _series_inviting_a_number)),
    Write("POST /i/{code}/dates/{date_id}/rsvp", _series_date_answer),
    Write("POST /i/{code}/photos", _album_upload_form),
    Write("POST /users/me/calendar_feed", _as_person("POST", "/users/me/calendar_feed")),
    Write("POST /users/me/export", _as_person("POST", "/users/me/export")),
    Write("POST /plans", _as_person("POST", "/plans", lambda person: {**PLAN, "invite_phone_numbers": [phone()]})),
    Write("PUT /plans/{plan_id}/votes", _plan_route("vote")),
    Write("POST /plans/{plan_id}/decide", _plan_route("decide")),
    Write("DELETE /plans/{plan_id}", _plan_route("drop")),
    Write("POST /p/{code}/votes", _vote_on_the_plan_page),
    Write("POST /i/{code}/rsvp", _guest_page_form("answer", {"answer": "accept", "message": "See you"})),
    Write("POST /i/{code}/stop", _stop_texts),
    Write("POST /i/{code}/start", _start_texts_again),
    Write("POST /j/{code}/pin", _join_page("pin")),
    Write("POST /j/{code}/verify", _join_page("verify")),
    Write("POST /account/delete/pin", _account_deletion_page("pin")),
    Write("POST /account/delete/verify", _account_deletion_page("verify")),
    Write("POST /account/delete/confirm", _account_deletion_page("confirm")),
]


def _run(client, write: Write, lose: bool):
    fresh_world()
    request = write.prepare(client)
    before = stored_effects()
    if lose:
        with on_the_wire(lose_first_answer_of_every_write()) as wire:
            response = request()
        lost = len(wire.faults)
    else:
        response, lost = request(), 0
    return response, difference(before, stored_effects()), lost


@pytest.mark.parametrize("write", WRITES, ids=lambda write: write.name)
def test_a_request_whose_write_answers_were_lost_answers_success_and_acts_once(client, write):
    plain, plain_effect, _ = _run(client, write, lose=False)
    assert plain.status_code < 400, plain.body
    lossy, lossy_effect, lost = _run(client, write, lose=True)
    assert lost >= 1, "the request wrote nothing: it belongs to no table of this file"
    assert lossy.status_code == plain.status_code, lossy.body
    assert lossy_effect == plain_effect


def _pin_asked(client) -> tuple[str, str]:
    number = phone()
    assert post_json(client, "/auth", {"phone_number": number}).status_code == 204
    return number, last_pin(number)


def _wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10**6:06d}"


def test_the_right_pin_on_its_last_try_logs_in_when_the_tries_answer_was_lost(client):
    from chalicelib.config import get_settings

    number, pin = _pin_asked(client)
    for _ in range(get_settings().pin_max_attempts - 1):
        wrong = post_json(client, "/auth/verify_pin", {"phone_number": number, "pin": _wrong(pin)})
        assert wrong.status_code == 400, wrong.body
    with on_the_wire(lose_first_answer_of_every_write()) as wire:
        response = post_json(client, "/auth/verify_pin", {"phone_number": number, "pin": pin})
    assert wire.faults, "no write answer was lost"
    assert response.status_code == 200, response.body
    assert response.json_body["auth_token"]


def test_a_wrong_try_whose_answer_was_lost_counts_once(client):
    number, pin = _pin_asked(client)
    with on_the_wire(lose_first_answer_of_every_write()) as wire:
        response = post_json(client, "/auth/verify_pin", {"phone_number": number, "pin": _wrong(pin)})
    assert wire.faults and response.status_code == 400
    assert stored_pin(number).attempts == 1


def test_linking_a_facebook_account_whose_write_answer_was_lost_answers_the_profile_once(client, graph):
    graph.add_user(token="fb-token", id="1001", name="Pat", friends=[])
    link = Write("POST /users/fb_token", _as_person("POST", "/users/fb_token", {"fb_token": "fb-token"}))
    plain, plain_effect, _ = _run(client, link, lose=False)
    assert plain.status_code == 200, plain.body
    lossy, lossy_effect, lost = _run(client, link, lose=True)
    assert lost >= 1
    assert lossy.status_code == plain.status_code, lossy.body
    assert lossy_effect == plain_effect
