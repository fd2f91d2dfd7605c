"""GET and PATCH /users/me (extension), and POST /users/fb_token."""

from __future__ import annotations

import pytest

from chalicelib.models.users import User, user_pk
from tests.utils.api import body, get, login, post_json

PHONE = "+14155550301"


def test_me_shows_the_profile_with_every_flag(client):
    user = login(client, PHONE, full_name="Ann Smith")
    me = body(get(client, "/users/me", user["auth_token"]))
    assert me["id"] == user["id"] and me["full_name"] == "Ann Smith" and me["phone_number"] == PHONE
    assert me["notify_event_change"] is True
    assert "auth_token" not in me


def test_patch_me_changes_only_the_fields_sent(client):
    token = login(client, PHONE, full_name="Ann Smith")["auth_token"]
    response = post_json(
        client, "/users/me", {"notify_new_invite": False, "email": "new@example.com"}, token, method="PATCH"
    )
    assert response.status_code == 200
    me = body(response)
    assert me["notify_new_invite"] is False and me["email"] == "new@example.com"
    assert me["full_name"] == "Ann Smith" and me["notify_invite_rsvp"] is True
    assert body(get(client, "/users/me", token))["notify_new_invite"] is False


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({"notify_new_invite": "no"}, {"notify_new_invite": ["Must be a valid boolean."]}),
        ({"notify_announcements": "nope"}, {"notify_announcements": ["Must be a valid boolean."]}),
        ({"notify_announcements": None}, {"notify_announcements": ["This field may not be null."]}),
        ({"notify_announcements": "false" * 300}, {"notify_announcements": ["Must be a valid boolean."]}),
        ({"notify_announcements": [False]}, {"notify_announcements": ["Must be a valid boolean."]}),
        ({"full_name": ""}, {"full_name": ["This field may not be blank."]}),
        ({"full_name": "x" * 257}, {"full_name": ["Ensure this field has no more than 256 characters."]}),
        ({"email": "nope"}, {"email": ["Enter a valid email address."]}),
        ({"email": " "}, {"email": ["This field may not be blank."]}),
        (
            {"full_name": 5, "notify_event_full": None},
            {"full_name": ["Not a valid string."], "notify_event_full": ["This field may not be null."]},
        ),
    ],
)
def test_patch_me_bad_input_is_400_by_field_and_nothing_stored(client, payload, expected):
    user = login(client, PHONE, full_name="Ann Smith")
    response = post_json(client, "/users/me", payload, user["auth_token"], method="PATCH")
    assert response.status_code == 400
    assert body(response) == expected
    stored = User.get(user_pk(user["id"]), "PROFILE")
    assert stored.full_name == "Ann Smith" and stored.notify_new_invite is True
    assert stored.notify_announcements is True


def test_patch_me_never_writes_other_fields(client):
    user = login(client, PHONE)
    post_json(
        client,
        "/users/me",
        {"is_active": False, "phone_number": "+14155559999", "id": 5},
        user["auth_token"],
        method="PATCH",
    )
    stored = User.get(user_pk(user["id"]), "PROFILE")
    assert stored.is_active is True and stored.phone_number == PHONE and stored.id == user["id"]


def test_fb_token_links_a_valid_token(client, graph):
    graph.add_user(token="good-token", id="1001", name="Ann", friends=[])
    user = login(client, PHONE)
    response = post_json(client, "/users/fb_token", {"fb_token": "good-token"}, user["auth_token"])
    assert response.status_code == 200
    assert body(response)["id"] == user["id"] and "auth_token" not in body(response)
    stored = User.get(user_pk(user["id"]), "PROFILE")
    assert stored.fb_token == "good-token" and stored.fb_id == "1001"


def test_fb_token_invalid_is_400_and_nothing_linked(client, graph):
    user = login(client, PHONE)
    response = post_json(client, "/users/fb_token", {"fb_token": "unknown"}, user["auth_token"])
    assert response.status_code == 400
    assert body(response) == {"fb_token": ["Invalid or expired token."]}
    assert User.get(user_pk(user["id"]), "PROFILE").fb_token is None


def test_fb_token_graph_down_is_503(client, graph):
    graph.add_user(token="good-token", id="1001", name="Ann", friends=[])
    graph.fail_with(503)
    user = login(client, PHONE)
    response = post_json(client, "/users/fb_token", {"fb_token": "good-token"}, user["auth_token"])
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert User.get(user_pk(user["id"]), "PROFILE").fb_token is None


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({}, {"fb_token": ["This field is required."]}),
        ({"fb_token": 3}, {"fb_token": ["Not a valid string."]}),
        ({"fb_token": "x" * 1025}, {"fb_token": ["Ensure this field has no more than 1024 characters."]}),
    ],
)
def test_fb_token_bad_input_is_400(client, graph, payload, expected):
    user = login(client, PHONE)
    response = post_json(client, "/users/fb_token", payload, user["auth_token"])
    assert response.status_code == 400 and body(response) == expected
    assert graph.requests == []
