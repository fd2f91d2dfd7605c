"""The host speaks to the guests: POST/GET /events/{id}/announcements and POST /events/{id}/nudge.

Pushes are read from the SNS emulator's endpoints, texts from its SMS log."""

from __future__ import annotations

from chalicelib.jobs import queue_handler
from chalicelib.messaging import sms_segments
from chalicelib.services.replies import replies
from tests.utils.api import body, get, post_json, texts_to
from tests.utils.factories import future, make_event, make_person, put
from tests.utils.notifications import add_device, pushes


def _party():
    """Alice's event: Bob (app, going), Cara (app, declined), and two guests without the app, one silent
    and one declined."""
    alice, bob, cara = make_person("Alice"), make_person("Bob"), make_person("Cara")
    silent, declined = make_person("", active=False), make_person("", active=False)
    event = make_event(alice, bob, cara, silent, declined, title="Board games", when=future(days=5))
    replies.rsvp(bob.user, event.id, accept=True, message=None)
    replies.rsvp(cara.user, event.id, accept=False, message=None)
    replies.rsvp(declined.user, event.id, accept=False, message=None)
    arns = {person: add_device(person, hex_digit * 64) for person, hex_digit in ((bob, "b"), (cara, "c"))}
    return alice, bob, cara, silent, declined, event, arns


def _announce(client, owner, event, payload):
    return post_json(client, f"/events/{event.id}/announcements", payload, owner.token)


def _announcement_texts(person) -> list[str]:
    return [text for text in texts_to(person.phone) if " about " in text]


def _types(arn) -> list[str]:
    return [push["type"] for push in pushes(arn)]


def test_an_announcement_reaches_the_guests_by_their_answer_by_push_and_by_text(client):
    alice, bob, cara, silent, declined, event, arns = _party()
    response = _announce(client, alice, event, {"text": "Bring snacks \u2014 we start at 7!"})
    assert response.status_code == 201
    created = body(response)
    assert created["text"] == "Bring snacks \u2014 we start at 7!" and created["to"] == ["going", "waiting", "no_reply"]
    assert set(created) == {"id", "text", "to", "created_at"}
    assert _types(arns[bob]) == ["announcement"] and pushes(arns[bob])[0]["aps"]["alert"]["body"] == (
        "Alice: Bring snacks \u2014 we start at 7!"
    )
    assert "announcement" not in _types(arns[cara])  # declined: not in the default audience
    [text] = _announcement_texts(silent)
    assert text.startswith('Invites: Alice about "Board games": Bring snacks - we start at 7! https://')
    assert text.endswith(" Reply STOP to opt out.")
    assert _announcement_texts(declined) == []
    # the queue delivers the message again: nobody hears it twice
    queue_handler.process({"type": "announcement", "event_id": event.id, "announcement_id": created["id"]})
    assert _types(arns[bob]) == ["announcement"] and len(_announcement_texts(silent)) == 1


def test_an_announcement_to_those_who_declined_reaches_only_them(client):
    alice, bob, cara, silent, declined, event, arns = _party()
    assert _announce(client, alice, event, {"text": "We missed you", "to": ["declined"]}).status_code == 201
    assert _types(arns[cara]) == ["announcement"] and "announcement" not in _types(arns[bob])
    assert len(_announcement_texts(declined)) == 1 and _announcement_texts(silent) == []


def test_the_notify_announcements_preference_silences_the_push(client):
    alice, bob, _cara, _silent, _declined, event, arns = _party()
    response = post_json(client, "/users/me", {"notify_announcements": False}, bob.token, method="PATCH")
    assert response.status_code == 200 and body(response)["notify_announcements"] is False
    assert body(get(client, "/users/me", bob.token))["notify_announcements"] is False
    _announce(client, alice, event, {"text": "Hello"})
    assert "announcement" not in _types(arns[bob])


def test_bad_input_is_refused_by_field_and_nothing_is_stored(client):
    alice, _bob, _cara, _silent, _declined, event, _arns = _party()
    cases = [
        ({}, {"text": ["This field is required."]}),
        ({"text": "x" * 321}, {"text": ["Ensure this field has no more than 320 characters."]}),
        ({"text": "Hi", "to": ["everyone"]}, {"to": ['"everyone" is not a valid choice.']}),
        ({"text": "Hi", "to": []}, {"to": ["Choose one or more of: going, waiting, no_reply, declined."]}),
        ({"text": 5}, {"text": ["Not a valid string."]}),
        ({"text": None}, {"text": ["This field may not be null."]}),
        ({"text": "   "}, {"text": ["This field may not be blank."]}),
        ({"text": "Hi", "to": "going"}, {"to": ["Choose one or more of: going, waiting, no_reply, declined."]}),
        ({"text": "Hi", "to": None}, {"to": ["Choose one or more of: going, waiting, no_reply, declined."]}),
        ({"text": "Hi", "to": [5]}, {"to": ["Not a valid choice."]}),
        ({"text": "Hi", "to": ["going" * 1000]}, {"to": [f'"{"going" * 1000}" is not a valid choice.']}),
    ]
    for payload, errors in cases:
        response = _announce(client, alice, event, payload)
        assert (response.status_code, body(response)) == (400, errors)
    assert body(get(client, f"/events/{event.id}/announcements", alice.token))["count"] == 0


def test_only_the_owner_announces_and_a_stranger_never_reaches_the_event(client):
    _alice, bob, _cara, _silent, _declined, event, _arns = _party()
    assert _announce(client, bob, event, {"text": "Hi"}).status_code == 403
    stranger = make_person("Eve")
    assert _announce(client, stranger, event, {"text": "Hi"}).status_code == 404
    assert get(client, f"/events/{event.id}/announcements", stranger.token).status_code == 404


def test_at_most_five_a_day_and_none_once_the_event_is_over(client):
    alice, *_rest, event, _arns = _party()
    for n in range(5):
        assert _announce(client, alice, event, {"text": f"News {n}"}).status_code == 201
    refused = _announce(client, alice, event, {"text": "One more"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    other = make_event(alice, make_person("Dan"))
    assert put(client, f"/events/{other.id}/cancel_event", alice.token).status_code == 204
    over = _announce(client, alice, other, {"text": "Hi"})
    assert (over.status_code, body(over)) == (409, {"detail": "This event is over."})


def test_owner_and_invitees_read_them_newest_first_paged(client):
    alice, bob, *_rest, event, _arns = _party()
    for n in range(3):
        _announce(client, alice, event, {"text": f"News {n}"})
    for reader in (alice, bob):
        listed = body(get(client, f"/events/{event.id}/announcements?per_page=2", reader.token))
        assert listed["count"] == 3 and [a["text"] for a in listed["results"]] == ["News 2", "News 1"]
        assert listed["next"].endswith("page=2") and listed["previous"] is None
        second = body(get(client, f"/events/{event.id}/announcements?per_page=2&page=2", reader.token))
        assert [a["text"] for a in second["results"]] == ["News 0"] and second["next"] is None


def test_a_long_announcement_in_any_script_is_cut_to_three_segments(client):
    alice = make_person("\u05d3\u05e0\u05d4 \u05db\u05d4\u05df")
    guest = make_person("", active=False)
    event = make_event(alice, guest, title="\u0639\u064a\u062f \u0645\u064a\u0644\u0627\u062f \U0001f389 " * 5)
    _announce(client, alice, event, {"text": "\U0001f382 " * 150})
    [text] = _announcement_texts(guest)
    assert sms_segments.segments(text) <= 3 and text.endswith(" Reply STOP to opt out.")
    assert "\u0639\u064a\u062f \u0645\u064a\u0644\u0627\u062f" in text and "\u2026" in text


def test_a_nudge_reaches_everyone_who_has_not_answered_once_a_day(client):
    alice, bob, cara, silent, declined, event, arns = _party()
    dan = make_person("Dan")
    post_json(client, f"/events/{event.id}", {"invite_phone_numbers": [dan.phone]}, alice.token, method="PATCH")
    dan_arn = add_device(dan, "d" * 64)
    response = post_json(client, f"/events/{event.id}/nudge", {}, alice.token)
    assert (response.status_code, body(response)) == (200, {"nudged": 2})  # the silent guest and Dan
    assert _types(dan_arn)[-1] == "nudge" and "nudge" not in _types(arns[bob]) + _types(arns[cara])
    nudges = [text for text in texts_to(silent.phone) if "is waiting for your answer" in text]
    assert len(nudges) == 1 and nudges[0].startswith('Invites: Alice is waiting for your answer to "Board games", ')
    assert not [text for text in texts_to(declined.phone) if "waiting for your answer" in text]
    again = post_json(client, f"/events/{event.id}/nudge", {}, alice.token)
    assert again.status_code == 429
    assert post_json(client, f"/events/{event.id}/nudge", {}, bob.token).status_code == 403


def test_an_announcement_or_nudge_repeated_with_its_idempotency_key_is_answered_again_and_sent_once(client):
    alice, bob, _cara, silent, _declined, event, arns = _party()
    key = {"Idempotency-Key": "announce-1"}
    path = f"/events/{event.id}/announcements"
    first = post_json(client, path, {"text": "Hello"}, alice.token, headers=key)
    again = post_json(client, path, {"text": "Hello"}, alice.token, headers=key)
    assert (first.status_code, again.status_code) == (201, 201) and body(first) == body(again)
    assert _types(arns[bob]).count("announcement") == 1 and len(_announcement_texts(silent)) == 1
    assert body(get(client, path, alice.token))["count"] == 1
    nudge_key = {"Idempotency-Key": "nudge-1"}
    nudged = post_json(client, f"/events/{event.id}/nudge", {}, alice.token, headers=nudge_key)
    repeated = post_json(client, f"/events/{event.id}/nudge", {}, alice.token, headers=nudge_key)
    assert (nudged.status_code, repeated.status_code) == (200, 200) and body(nudged) == body(repeated)


def test_a_nameless_hosts_announcement_and_nudge_name_them_as_the_guest_page_does(client):
    host, guest = make_person(""), make_person("", active=False)
    event = make_event(host, guest, title="Board games", when=future(days=5))
    label = f"Your host (number ending {host.phone[-4:]})"
    assert _announce(client, host, event, {"text": "Bring dice"}).status_code == 201
    assert post_json(client, f"/events/{event.id}/nudge", {}, host.token).status_code == 200
    announcement, nudge = texts_to(guest.phone)[-2:]
    for text in (announcement, nudge):
        assert text.startswith(f"Invites: {label} ") and host.phone[2:] not in text
