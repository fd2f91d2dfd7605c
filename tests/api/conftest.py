"""Fixtures the API tests share: an event with its owner, a guest and a stranger; the fake Graph server;
the notifications queue."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.fakes.graph_server import FakeGraph
from tests.utils.api import body, login, post_json
from tests.utils.notifications import use_queue


@pytest.fixture
def graph(override_settings):
    """The fake Graph API on 127.0.0.1, with the settings pointing at it."""
    with FakeGraph() as fake:
        override_settings(fb_graph_url=fake.url)
        yield fake


@pytest.fixture
def queue(client, override_settings):
    """A moto SQS queue in place of the inline notifications mode; yields its URL."""
    return use_queue(override_settings)


OWNER, GUEST, STRANGER = "+14155550501", "+14155550502", "+14155550503"


@dataclass
class Party:
    event_id: int
    owner: dict
    guest: dict
    stranger: dict


@pytest.fixture
def party(client) -> Party:
    """An event of the owner's with one guest invited; the stranger is logged in and not invited."""
    owner = login(client, OWNER, full_name="Olive Owner")
    guest = login(client, GUEST, full_name="Gus Guest")
    stranger = login(client, STRANGER, full_name="Sam Stranger")
    response = post_json(
        client,
        "/events",
        {"title": "Picnic", "event_date": "2030-06-01T12:00:00Z", "invite_phone_numbers": [GUEST]},
        owner["auth_token"],
    )
    assert response.status_code == 201, response.body
    return Party(body(response)["id"], owner, guest, stranger)
