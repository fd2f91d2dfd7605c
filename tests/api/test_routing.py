"""The plumbing every route shares: version header, HEAD, 405, content types, JSON, auth, 500s."""

from __future__ import annotations

import json

import pytest

from tests.utils.api import body, get, login, post_json, texts_to


def test_version_1_or_none_is_served_and_others_get_406(client):
    # GIVEN a logged-in user
    token = login(client, "+14155550101")["auth_token"]
    # WHEN the client asks for version 1.0, for no version, and for version 2.0
    v1 = get(client, "/users/me", token, headers={"Accept": "application/json; version=1.0"})
    plain = get(client, "/users/me", token, headers={"Accept": "application/json"})
    v2 = get(client, "/users/me", token, headers={"Accept": "application/json; version=2.0"})
    # THEN 1.0 and no version are served, 2.0 is refused with DRF's body
    assert v1.status_code == 200 and plain.status_code == 200
    assert v2.status_code == 406
    assert body(v2) == {"detail": 'Invalid version in "Accept" header.'}


def test_head_answers_like_get_without_a_body(client):
    token = login(client, "+14155550102")["auth_token"]
    response = client.http.request("HEAD", "/users/me", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    assert response.body == b""
    assert response.headers["Content-Type"] == "application/json"


def test_undeclared_method_is_405_with_allow_header(client):
    response = client.http.request("DELETE", "/auth")
    assert response.status_code == 405
    assert body(response) == {"detail": 'Method "DELETE" not allowed.'}
    assert response.headers["Allow"] == "POST"


def test_patch_route_takes_post_with_the_same_meaning(client):
    token = login(client, "+14155550103")["auth_token"]
    response = post_json(client, "/users/me", {"full_name": "Posted Name"}, token=token, method="POST")
    assert response.status_code == 200
    assert body(get(client, "/users/me", token))["full_name"] == "Posted Name"


def test_other_content_type_is_415(client):
    response = client.http.post("/auth", body=b"phone_number=%2B14155550104", headers={"Content-Type": "text/plain"})
    assert response.status_code == 415
    assert body(response) == {"detail": 'Unsupported media type "text/plain" in request.'}


def test_malformed_json_is_400_with_parse_error(client):
    response = client.http.post("/auth", body=b'{"phone_number": ', headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert body(response)["detail"].startswith("JSON parse error - ")


def test_json_nested_too_deep_is_400_parse_error(client):
    response = client.http.post("/auth", body=b"[" * 100_000, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert body(response)["detail"].startswith("JSON parse error - ")


def test_json_that_is_not_an_object_is_400_non_field(client):
    response = post_json(client, "/auth", ["+14155550105"])
    assert response.status_code == 400
    assert body(response) == {"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}


def test_missing_token_is_401_with_www_authenticate(client):
    response = get(client, "/users/me")
    assert response.status_code == 401
    assert body(response) == {"detail": "Authentication credentials were not provided."}
    assert response.headers["WWW-Authenticate"] == "Bearer"


def test_unknown_or_malformed_token_is_401_invalid(client):
    login(client, "+14155550106")
    for token in ("123.not-a-real-secret", "garbage", "1.", "x" * 300):
        response = get(client, "/users/me", token)
        assert response.status_code == 401, token
        assert body(response) == {"detail": "Invalid token."}


@pytest.mark.parametrize("token", ["\u00b2.secret", "1\u00b9.secret"])
def test_token_with_a_non_ascii_digit_id_is_401(client, token):
    response = get(client, "/users/me", token)
    assert response.status_code == 401
    assert body(response) == {"detail": "Invalid token."}
    assert response.headers["WWW-Authenticate"] == "Bearer"


def test_a_bug_is_500_without_traceback(client, monkeypatch):
    from chalicelib.services.participants import representations

    def broken(user, with_event_change=False):
        raise KeyError("secret internals")

    token = login(client, "+14155550107")["auth_token"]
    monkeypatch.setattr(representations, "user_json", broken)
    response = get(client, "/users/me", token)
    assert response.status_code == 500
    assert body(response) == {"detail": "Internal server error."}
    assert b"secret internals" not in response.body


def test_each_request_logs_one_json_line_without_secrets(client, capsys):
    # GIVEN a login, which handles a phone number, a pin and a token
    user = login(client, "+14155550108")
    capsys.readouterr()
    # WHEN the token is used
    get(client, "/users/me", user["auth_token"])
    # THEN one JSON line describes the request, and it holds no token
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert len(lines) == 1
    assert lines[0]["route"] == "/users/me" and lines[0]["status"] == 200 and lines[0]["request_id"]
    assert user["auth_token"].split(".")[1] not in json.dumps(lines)


def test_login_logs_never_hold_pin_or_whole_number(client, capsys):
    from tests.utils.api import last_pin

    post_json(client, "/auth", {"phone_number": "+14155550109"})
    pin = last_pin("+14155550109")
    post_json(client, "/auth/verify_pin", {"phone_number": "+14155550109", "pin": pin})
    out = capsys.readouterr().out
    assert pin not in out
    assert "4155550109" not in out


def test_a_204_has_no_body_and_a_null_content_type_that_api_gateway_leaves_out(client):
    # WHEN a pin is asked for and the token is logged out (two 204 answers, without and with auth)
    asked = post_json(client, "/auth", {"phone_number": "+14155550106"})
    token = login(client, "+14155550107")["auth_token"]
    profile = get(client, "/users/me", token)
    logged_out = post_json(client, "/auth/logout", {}, token=token)
    # THEN neither has a body, and the Lambda response's Content-Type is null: API Gateway sends none
    # (a missing header would make it add `application/json`)
    for response in (asked, logged_out):
        assert response.status_code == 204
        assert response.body == b""
        assert "Content-Type" in response.headers and response.headers["Content-Type"] is None
    # AND an answer with a body keeps its JSON Content-Type
    assert profile.status_code == 200 and profile.headers["Content-Type"] == "application/json"


# --- content type (docs/api.md, conventions) ------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "media_type"),
    [
        ({}, ""),  # no Content-Type: DRF names it "" too
        ({"Content-Type": "application/jsonfoo"}, "application/jsonfoo"),
        ({"Content-Type": "application/json-patch+json"}, "application/json-patch+json"),
        ({"Content-Type": "text/plain; charset=utf-8"}, "text/plain"),
    ],
)
def test_json_body_without_the_json_media_type_is_415_and_not_parsed(client, headers, media_type):
    response = client.http.post("/auth", body=b'{"phone_number": "+14155550106"}', headers=headers)
    assert response.status_code == 415
    assert body(response) == {"detail": f'Unsupported media type "{media_type}" in request.'}
    assert texts_to("+14155550106") == []


@pytest.mark.parametrize(
    "content_type", ["application/json; charset=utf-8", "Application/JSON", "application/json ;x=1"]
)
def test_json_with_parameters_or_other_case_is_parsed(client, content_type):
    response = client.http.post(
        "/auth", body=b'{"phone_number": "+14155550107"}', headers={"Content-Type": content_type}
    )
    assert response.status_code == 204
    assert len(texts_to("+14155550107")) == 1


def test_json_route_without_a_body_needs_no_content_type(client):
    token = login(client, "+14155550108")["auth_token"]
    response = client.http.post("/users/me", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200


# --- links (docs/api.md, conventions) -------------------------------------------------------------


def _two_pages(client) -> str:
    from chalicelib.services.identity.users import get_user
    from tests.utils.factories import Person, make_event

    owner = login(client, "+14155550109")
    person = Person(get_user(owner["id"]), owner["auth_token"])
    make_event(person)
    make_event(person)
    return owner["auth_token"]


def test_page_links_ignore_host_and_forwarded_headers(client, override_settings):
    override_settings(public_base_url="")  # the fallback outside AWS, with no base configured
    token = _two_pages(client)
    forged = {"Host": "evil.example", "X-Forwarded-Proto": "javascript", "X-Forwarded-Host": "evil.example"}
    page = body(get(client, "/events?per_page=1", token, headers=forged))
    assert page["next"] == "http://localhost/events?per_page=1&page=2"
    second = body(get(client, "/events?per_page=1&page=2", token, headers=forged))
    assert second["previous"] == "http://localhost/events?per_page=1"


def test_page_links_use_the_configured_public_base(client, override_settings):
    override_settings(public_base_url="https://api.example.test/v1/")
    token = _two_pages(client)
    page = body(get(client, "/events?per_page=1", token, headers={"Host": "evil.example"}))
    assert page["next"] == "https://api.example.test/v1/events?per_page=1&page=2"


def test_deployed_links_use_the_stages_domain_over_https(override_settings):
    from chalicelib.api.request import public_url

    override_settings(public_base_url="")
    class Deployed:  # what API Gateway hands the function: the stage's domain and the path with the stage
        path = "/events"
        headers = {"host": "evil.example", "x-forwarded-proto": "javascript"}
        context = {"domainName": "abc123.execute-api.us-east-1.amazonaws.com", "path": "/api/events"}

    assert public_url(Deployed(), {}) == "https://abc123.execute-api.us-east-1.amazonaws.com/api/events"


def test_a_body_sent_with_a_get_is_ignored(client):
    token = login(client, "+14155550110")["auth_token"]
    response = client.http.request("GET", "/users/me", body=b"not json", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200


# --- body size (docs/api.md, "Limits") ------------------------------------------------------------------


def test_a_body_over_four_megabytes_is_413_before_it_is_parsed(client, aws):
    aws.reset()
    response = client.http.post(
        "/auth", body=b"[" * (4 * 1024 * 1024 + 1), headers={"Content-Type": "application/json"}
    )  # parsed, it would be a 400 JSON parse error
    assert response.status_code == 413
    assert json.loads(response.body) == {"detail": "Request body too large. Maximum size is 4 MB."}
    assert aws.total("dynamodb") == 0


def test_the_body_limit_is_a_setting_and_inclusive(client, override_settings):
    override_settings(request_max_bytes=64)
    exact = client.http.post("/auth", body=b" " * 64, headers={"Content-Type": "application/json"})
    over = client.http.post("/auth", body=b" " * 65, headers={"Content-Type": "application/json"})
    assert exact.status_code == 400  # an empty object: the phone number is missing
    assert over.status_code == 413


NO_DATA = {"non_field_errors": ["No data provided"]}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("PATCH", "/users/me"),
        ("POST", "/users/me"),
        ("POST", "/events"),
        ("PATCH", "/events/{event}"),
        ("POST", "/events/{event}"),
        ("POST", "/events/{event}/accept"),
        ("POST", "/events/{event}/reject"),
        ("POST", "/events/{event}/messages"),
        ("POST", "/events/{event}/polls"),
        ("POST", "/events/{event}/time_suggestions"),
        ("POST", "/auth/register"),
    ],
)
def test_a_null_body_is_400_no_data_and_changes_nothing(client, party, method, path):
    replying = path.endswith(("/accept", "/reject"))
    token = party.guest["auth_token"] if replying else party.owner["auth_token"]
    before = body(get(client, f"/events/{party.event_id}", party.owner["auth_token"]))
    me_before = body(get(client, "/users/me", token))

    response = post_json(client, path.format(event=party.event_id), None, token, method=method)

    assert response.status_code == 400 and body(response) == NO_DATA
    assert body(get(client, f"/events/{party.event_id}", party.owner["auth_token"])) == before
    assert body(get(client, "/users/me", token)) == me_before
