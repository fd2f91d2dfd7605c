"""End to end: `make run`'s local stack (scripts/local_stack.py) started for real, driven over HTTP.

One test, so that pytest-xdist never splits it across workers and starts the stack twice: log in
with the pin the emulator kept, read the profile, upload an avatar and open its URL as a browser
would, check the console showed the pin, then stop the stack with SIGTERM and check it all went away.
"""

from __future__ import annotations

import json
import re
import time

import pytest
import requests

from tests.infra.scripts import load
from tests.utils.images import png
from tests.utils.live_stack import HTTP_TIMEOUT_SECONDS, LocalStack, answers

PHONE = "+14155550123"
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def local_stack():
    stack = LocalStack()
    try:
        yield stack
    finally:
        stack.kill()


def echoed_notifications(stack: LocalStack) -> list[dict]:
    found = []
    for line in stack.lines:
        if line.startswith("{"):
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if record.get("msg") in ("sms", "push"):
                found.append(record)
    return found


def wait_for(condition, timeout: float = 5.0):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


@pytest.mark.e2e
def test_local_stack_logs_in_serves_avatars_and_stops_cleanly(local_stack):
    local_stack.wait_until_ready()
    api = local_stack.api
    assert f"API        {api}" in local_stack.console
    assert f"Emulator   {local_stack.emulator}" in local_stack.console

    # Ask for a pin: it is texted through the emulator, which keeps it, and echoed on the console.
    response = requests.post(f"{api}/auth", json={"phone_number": PHONE}, timeout=HTTP_TIMEOUT_SECONDS)
    assert response.status_code == 204, response.text
    # No body and no Content-Type, as API Gateway answers the app's 204 (scripts/chalice_cli.py).
    assert response.content == b"" and "Content-Type" not in response.headers, response.headers
    texts = local_stack.texts_to(PHONE)
    assert len(texts) == 1, texts
    pin = re.search(r"\b(\d{6})\b", texts[0]).group(1)
    echoed = wait_for(lambda: [r for r in echoed_notifications(local_stack) if r["to"] == PHONE])
    assert echoed == [{"msg": "sms", "to": PHONE, "text": texts[0]}], local_stack.console
    assert pin in echoed[0]["text"]

    # Log in with it.
    response = requests.post(
        f"{api}/auth/verify_pin", json={"phone_number": PHONE, "pin": pin}, timeout=HTTP_TIMEOUT_SECONDS
    )
    assert response.status_code == 200, response.text
    user = response.json()
    assert user["phone_number"] == PHONE
    assert isinstance(user["id"], int)
    token = user["auth_token"]
    assert token.startswith(f"{user['id']}.")

    # The token opens the profile; no token does not.
    bearer = {"Authorization": f"Bearer {token}"}
    response = requests.get(f"{api}/users/me", headers=bearer, timeout=HTTP_TIMEOUT_SECONDS)
    assert response.status_code == 200, response.text
    me = response.json()
    assert me["id"] == user["id"] and me["phone_number"] == PHONE
    assert me["photo"] is None and me["big_photo"] is None
    assert "auth_token" not in me and "notify_event_change" in me
    response = requests.get(f"{api}/users/me", timeout=HTTP_TIMEOUT_SECONDS)
    assert response.status_code == 401, response.text

    # The pin is single use.
    response = requests.post(
        f"{api}/auth/verify_pin", json={"phone_number": PHONE, "pin": pin}, timeout=HTTP_TIMEOUT_SECONDS
    )
    assert response.status_code == 400, response.text

    # An uploaded avatar's URL points at the emulator and opens without credentials, as in a browser.
    response = requests.post(
        f"{api}/users/change_avatar",
        headers=bearer,
        files={"photo": ("me.png", png(64, 48, (30, 120, 200)), "image/png")},
        timeout=HTTP_TIMEOUT_SECONDS,
    )
    assert response.status_code == 200, response.text
    for url in (response.json()["photo"], response.json()["big_photo"]):
        assert url.startswith(f"{local_stack.emulator}/"), url
        image = requests.get(url, timeout=HTTP_TIMEOUT_SECONDS)
        assert image.status_code == 200, url
        assert image.headers["Content-Type"] == "image/jpeg"
        assert image.content[:3] == b"\xff\xd8\xff"

    # A path the API lacks answers the contract's 404, as the deployed gateway does, never echoing the token.
    for method, path in (("GET", "/"), ("GET", "/nope"), ("DELETE", "/users"), ("POST", "/events/1/nope")):
        response = requests.request(method, f"{api}{path}", headers=bearer, timeout=HTTP_TIMEOUT_SECONDS)
        assert response.status_code == 404 and response.json() == {"detail": "Not found."}, (method, path)
        assert token not in response.text and not any(token in value for value in response.headers.values())
    # and `make deploy`'s smoke test passes against it
    assert load("deploy").smoke_test(api, attempts=1) == []

    # SIGTERM stops the API and the emulator, quietly.
    assert local_stack.stop() == 0, local_stack.console
    assert not answers(local_stack.api_port) and not answers(local_stack.moto_port)
    assert "Traceback" not in local_stack.console, local_stack.console
