"""Replying 3 (or MAYBE) to an invitation text: the answer becomes maybe, as the page's Maybe button makes it."""

from __future__ import annotations

import pytest

from tests.services.web.test_text_answers import invitation_of, two_way  # noqa: F401 (a fixture)
from tests.utils.api import texts_to
from tests.utils.factories import make_person, phone, stored_event
from tests.utils.inbound_sms import reply
from tests.utils.web import invite_by_text


@pytest.mark.parametrize("body", ["3", "maybe", " Maybe! "])
def test_reply_3_says_maybe_and_is_confirmed(client, two_way, body):  # noqa: F811
    number = phone()
    event = invite_by_text_going(client, number, body)
    stored = invitation_of(event["id"], number)
    assert stored.maybe is True and stored.has_accepted is None
    assert stored_event(event["id"]).spots_filled == 0
    assert texts_to(number)[-1] == 'Invites: You said maybe to "Rooftop dinner". Reply 1 if you\'re going, 2 if not.'
    reply(number, "1")  # and a later 1 makes it going
    stored = invitation_of(event["id"], number)
    assert stored.has_accepted is True and stored.maybe is None


def test_a_going_guest_replying_3_frees_the_spot_for_the_waitlist(client, two_way):  # noqa: F811
    first, second = phone(), phone()
    event = invite_by_text(client, make_person("Hana Host"), first, second, total_spots=1, waitlist=True)
    reply(first, "1")
    reply(second, "1")
    assert invitation_of(event["id"], second).wait_key
    reply(first, "3")
    assert invitation_of(event["id"], first).maybe is True
    seated = invitation_of(event["id"], second)
    assert seated.has_accepted is True and not seated.wait_key
    assert stored_event(event["id"]).spots_filled == 1


def invite_by_text_going(client, number: str, body: str) -> dict:
    """An event texted to ``number``, which was going and then replies ``body``."""
    event = invite_by_text(client, make_person("Hana Host"), number, title="Rooftop dinner")
    reply(number, "1")
    assert stored_event(event["id"]).spots_filled == 1
    reply(number, body)
    return event
