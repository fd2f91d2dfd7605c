"""Requests sent with an ``Idempotency-Key`` and the check that a repeat was answered from the first answer."""

from __future__ import annotations

from tests.utils.api import post_json


def send_with_key(client, method: str, path: str, person, key: str, payload=None):
    """``method path`` as ``person`` with ``key``: a JSON body when ``payload`` is given, else an empty one."""
    if payload is None:
        headers = {"Authorization": f"Bearer {person.token}", "Idempotency-Key": key}
        return client.http.request(method, path, headers=headers, body=b"")
    return post_json(client, path, payload, person.token, method=method, headers={"Idempotency-Key": key})


def assert_replayed(first, again, status: int) -> None:
    """``again`` is ``first`` given again: the same status and body, marked ``Idempotent-Replayed``."""
    assert first.status_code == again.status_code == status, (first.body, again.body)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.body == first.body
