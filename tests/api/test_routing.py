"""The plumbing every route shares: version header, HEAD, 405, content types, JSON, auth, 500s."""

from __future__ import annotations

import json

from tests.utils.api import body, get, login, post_json


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


def test_a_bug_is_500_without_traceback(client, monkeypatch):
    from chalicelib import representations

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


# --- body size (CONTRACT.md, "Abuse limits": Body size) -----------------------------------------------


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
