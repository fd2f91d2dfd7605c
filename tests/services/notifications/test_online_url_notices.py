"""A change of an online event's link (``online_url``) is news only to those who may see the place: a text names
the event "online" (its link is on the page the text links), a push names the "online link"."""

from __future__ import annotations

import json

from chalicelib.jobs import queue_handler
from chalicelib.services.replies import replies
from tests.utils.api import post_json, texts_to
from tests.utils.factories import make_event, make_person
from tests.utils.notifications import add_device, pushes

LINK, OTHER_LINK = "https://meet.example.com/abc", "https://zoom.example.org/j/123456"


def _change_texts(person) -> list[str]:
    return [text for text in texts_to(person.phone) if " is now " in text]


def test_a_change_of_the_link_texts_and_pushes_only_those_who_may_see_the_place(client, clock, due):
    alice = make_person("Alice")
    silent, going = make_person("", active=False), make_person("", active=False)
    bob, dan = make_person("Bob"), make_person("Dan")
    event = make_event(alice, silent, going, bob, dan, title="Standup", online_url=LINK, place_visibility="accepted")
    for person in (going, dan):
        replies.rsvp(person.user, event.id, accept=True, message="")
    bob_device, dan_device = add_device(bob, "b1" * 32), add_device(dan, "d1" * 32)
    edited = post_json(client, f"/events/{event.id}", {"online_url": OTHER_LINK}, alice.token, method="PATCH")
    assert edited.status_code == 200, edited.body
    for message in due:
        queue_handler.process(message)
    assert _change_texts(silent) == []
    [told] = _change_texts(going)
    assert ", online. https://" in told and "zoom.example.org" not in told  # the word; the page holds the link
    assert pushes(bob_device) == []
    assert any("online link" in json.dumps(push) for push in pushes(dan_device))
