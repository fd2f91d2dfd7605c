"""Helpers that drive the API as a mobile client would."""

from __future__ import annotations

import json
import re

from moto.sns.models import sns_backends

ACCOUNT, REGION = "123456789012", "us-east-1"
JSON = {"Content-Type": "application/json"}


def post_json(client, path: str, body, token: str | None = None, method: str = "POST", headers=None):
    all_headers = {**JSON, **(headers or {})}
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    return client.http.request(method, path, body=json.dumps(body).encode(), headers=all_headers)


def post_event(client, owner, **fields):
    """POST /events as ``owner`` (anyone with a ``token``): a picnic on 2030-06-01 unless ``fields`` say otherwise."""
    payload = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", **fields}
    return post_json(client, "/events", payload, owner.token)


def get(client, path: str, token: str | None = None, headers=None):
    all_headers = dict(headers or {})
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    return client.http.get(path, headers=all_headers)


def texts_to(phone: str) -> list[str]:
    """Every SMS moto was asked to send to ``phone``, oldest first."""
    backend = sns_backends[ACCOUNT][REGION]
    return [message for number, message in backend.sms_messages.values() if number == phone]


def last_pin(phone: str) -> str:
    return re.search(r"\b(\d{6})\b", texts_to(phone)[-1]).group(1)


def login(client, phone: str, *, full_name: str | None = None, ip_headers=None) -> dict:
    """Log ``phone`` in through /auth and /auth/verify_pin; returns the User body with auth_token."""
    response = post_json(client, "/auth", {"phone_number": phone}, headers=ip_headers)
    assert response.status_code == 204, response.body
    response = post_json(client, "/auth/verify_pin", {"phone_number": phone, "pin": last_pin(phone)})
    assert response.status_code == 200, response.body
    user = json.loads(response.body)
    if full_name:
        response = post_json(
            client,
            "/auth/register",
            {"full_name": full_name, "email": "someone@example.com"},
            token=user["auth_token"],
        )
        assert response.status_code == 200, response.body
        user = json.loads(response.body)
    return user


def body(response):
    return json.loads(response.body) if response.body else None


def call_from(monkeypatch, address: str) -> None:
    """Make the test client's requests come from ``address`` (API Gateway's ``identity.sourceIp``)."""
    from chalice.local import LambdaEventConverter

    monkeypatch.setattr(LambdaEventConverter, "LOCAL_SOURCE_IP", address)


def asking_a_pin(client):
    """A request for a pin texted to a new number, ready to send (for the walks of every write)."""
    from tests.utils.factories import phone

    return lambda: post_json(client, "/auth", {"phone_number": phone()})


def verifying_a_pin(client):
    """A new number's pin asked for; the request verifying it, ready to send."""
    from tests.utils.factories import phone

    number = phone()
    assert post_json(client, "/auth", {"phone_number": number}).status_code == 204
    pin = last_pin(number)
    return lambda: post_json(client, "/auth/verify_pin", {"phone_number": number, "pin": pin})
