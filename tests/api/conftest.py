"""Fixtures the API tests share: the fake Graph server and the notifications queue."""

from __future__ import annotations

import pytest

from tests.fakes.graph_server import FakeGraph
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
