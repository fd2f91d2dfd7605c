"""Change and cancellation texts to guests without the app: wording, once only, bursts, quiet hours, limits.

Texts are read from the SNS emulator; the clock of the scheduled side is the test's."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from chalicelib import inline_queue
from chalicelib.jobs import queue_handler
from chalicelib.messaging import sms_segments
from chalicelib.services.replies import replies
from chalicelib.services.texts.guest_texts import CHANGE_TEXTS_DUE
from tests.utils.api import post_json, texts_to
from tests.utils.factories import make_event, make_person, phone, put
from tests.utils.notifications import drain, use_queue

ZONE = "America/New_York"  # UTC-5 in winter
WHEN = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)  # Fri, Jan 11 at 8:30 PM EST


def _change_texts(person) -> list[str]:
    return [text for text in texts_to(person.phone) if " is now " in text]


def _cancel_texts(person) -> list[str]:
    return [text for text in texts_to(person.phone) if " cancelled " in text]


def _edit(client, owner, event, **fields):
    response = post_json(client, f"/events/{event.id}", fields, owner.token, method="PATCH")
    assert response.status_code == 200, response.body


def _party(**extra):
    alice = make_person("Alice")
    guest, declined, app_user = make_person("", active=False), make_person("", active=False), make_person("Dan")
    event = make_event(alice, guest, declined, app_user, title="Board games", when=WHEN, time_zone=ZONE, **extra)
    replies.rsvp(declined.user, event.id, accept=False, message=None)
    return alice, guest, declined, app_user, event


def test_a_cancellation_texts_guests_without_the_app_who_have_not_declined_once(client):
    alice, guest, declined, app_user, event = _party()
    assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
    assert _cancel_texts(guest) == [
        'Invites: Alice cancelled "Board games" (Fri, Jan 11 at 8:30 PM EST). Reply STOP to opt out.'
    ]
    assert _cancel_texts(declined) == [] and _cancel_texts(app_user) == []
    # the queue delivers the cancel again: nobody is texted twice
    queue_handler.process({"type": "event_cancelled", "id": "again", "event_id": event.id, "actor_id": alice.id})
    assert len(_cancel_texts(guest)) == 1


def test_a_deleted_hosts_guests_are_texted_as_for_a_cancellation(client):
    alice, guest, _declined, _app_user, event = _party()
    deleted = client.http.request("DELETE", "/users/me", headers={"Authorization": f"Bearer {alice.token}"})
    assert deleted.status_code == 204
    assert _cancel_texts(guest) == [
        'Invites: Alice cancelled "Board games" (Fri, Jan 11 at 8:30 PM EST). Reply STOP to opt out.'
    ]


def test_a_burst_of_edits_gives_one_text_with_the_final_state_ten_minutes_after_the_first(client, clock, due):
    alice, guest, declined, app_user, event = _party()
    _edit(client, alice, event, venue_name="Cafe Nord")
    _edit(client, alice, event, event_date="2030-01-13T01:30:00Z", venue_name="Cafe Sud")
    assert _change_texts(guest) == []  # held
    assert len(due) == 1 and 0 < due[0]["delay"] <= 600
    queue_handler.process(due[0])
    [text] = _change_texts(guest)
    assert text.startswith('Invites: "Board games" is now Sat, Jan 12 at 8:30 PM EST, Cafe Sud. https://')
    assert text.endswith(" Reply STOP to opt out.")
    assert _change_texts(declined) == [] and _change_texts(app_user) == []
    # delivered again after a crash: sent once
    queue_handler.process(due[0])
    assert len(_change_texts(guest)) == 1
    # the link in the text opens the guest's page
    path = re.search(r"https://invites\.example\.test(/i/\S+)", text).group(1)
    assert client.http.get(path).status_code == 200


def test_an_edit_that_puts_back_what_the_guest_was_told_sends_nothing(client, clock, due):
    alice, guest, _declined, _app_user, event = _party()
    _edit(client, alice, event, venue_name="Cafe Nord")
    _edit(client, alice, event, venue_name="")
    queue_handler.process(due[0])
    assert _change_texts(guest) == []
    # a new burst after the first was sent starts its own text
    _edit(client, alice, event, venue_name="Cafe Nord")
    queue_handler.process(due[1])
    assert len(_change_texts(guest)) == 1


def test_a_cancellation_replaces_a_held_change_text(client, clock, due):
    alice, guest, _declined, _app_user, event = _party()
    _edit(client, alice, event, venue_name="Cafe Nord")
    assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
    queue_handler.process(due[0])
    assert _change_texts(guest) == [] and len(_cancel_texts(guest)) == 1


def test_without_a_queue_a_text_put_off_overnight_is_kept_not_handled_again_at_once(client, clock):
    """The in-process queue (tests, make run) cannot hold a message back: a handler putting its own kind off
    called itself without end. It keeps the message instead, until it is due."""
    alice, guest, _declined, _app_user, event = _party()
    clock.now = datetime(2030, 1, 6, 4, 0, tzinfo=UTC)  # 23:00 in New York
    _edit(client, alice, event, venue_name="Cafe Nord")
    kept = inline_queue.put_off()
    assert [message["type"] for message in kept] == [CHANGE_TEXTS_DUE]
    assert _change_texts(guest) == []
    clock.now = datetime(2030, 1, 6, 12, 59, tzinfo=UTC)  # 07:59: still quiet, kept again
    assert inline_queue.run_put_off() == 1
    assert _change_texts(guest) == [] and len(inline_queue.put_off()) == 1
    clock.now = datetime(2030, 1, 6, 13, 0, tzinfo=UTC)  # 08:00
    assert inline_queue.run_put_off() == 1
    assert len(_change_texts(guest)) == 1 and inline_queue.put_off() == []


def test_quiet_hours_hold_change_texts_until_eight_unless_the_event_is_close(client, clock, due):
    alice, guest, _declined, _app_user, event = _party()
    clock.now = datetime(2030, 1, 6, 4, 0, tzinfo=UTC)  # 23:00 in New York
    _edit(client, alice, event, venue_name="Cafe Nord")
    queue_handler.process(due[0])
    assert _change_texts(guest) == [] and due[1]["delay"] == 900  # put off, 15 minutes at a time
    clock.now = datetime(2030, 1, 6, 12, 59, tzinfo=UTC)  # 07:59
    queue_handler.process(due[1])
    assert _change_texts(guest) == [] and due[2]["delay"] == 60
    clock.now = datetime(2030, 1, 6, 13, 0, tzinfo=UTC)  # 08:00
    queue_handler.process(due[2])
    assert len(_change_texts(guest)) == 1
    # an event starting within 12 hours is texted at night too
    clock.now = datetime(2030, 1, 11, 4, 30, tzinfo=UTC)  # 23:30 on Jan 10, the event 21 h away: waits
    _edit(client, alice, event, venue_name="Cafe Sud")
    queue_handler.process(due[3])
    assert len(_change_texts(guest)) == 1
    clock.now = datetime(2030, 1, 11, 16, 0, tzinfo=UTC)  # 11:00, the event 9.5 h away
    queue_handler.process(due[4])
    assert len(_change_texts(guest)) == 2


def test_at_most_three_change_texts_per_guest_per_event_per_day(client, clock, due):
    alice, guest, _declined, _app_user, event = _party()
    for n in range(5):
        _edit(client, alice, event, venue_name=f"Cafe {n}")
        queue_handler.process(due[-1])
        clock.now += timedelta(minutes=11)
    assert len(_change_texts(guest)) == 3
    clock.now += timedelta(days=1)
    _edit(client, alice, event, venue_name="Cafe next day")
    queue_handler.process(due[-1])
    assert len(_change_texts(guest)) == 4


def test_the_stop_list_and_the_carrier_opt_out_apply_to_change_texts(client, clock, due):
    alice = make_person("Alice")
    opted_out = make_person("", phone(9099), active=False)  # the emulator: numbers ending in 99 opted out
    event = make_event(alice, opted_out, title="Board games", when=WHEN, time_zone=ZONE)
    _edit(client, alice, event, venue_name="Cafe Nord")
    queue_handler.process(due[0])
    assert _change_texts(opted_out) == []


def test_long_titles_in_any_script_keep_their_minimum_within_three_segments(client, clock, due):
    alice = make_person("Alice")
    guest = make_person("", active=False)
    title = "ערב משחקים 🎲 " * 20
    event = make_event(alice, guest, title=title, when=WHEN, time_zone=ZONE)
    _edit(client, alice, event, venue_name="مقهى الشمال " * 8)
    queue_handler.process(due[0])
    [text] = _change_texts(guest)
    assert sms_segments.segments(text) <= 3
    assert sms_segments.one_line(title)[:20] in text
    put(client, f"/events/{event.id}/cancel_event", alice.token)
    [cancelled] = _cancel_texts(guest)
    assert sms_segments.segments(cancelled) <= 3 and sms_segments.one_line(title)[:20] in cancelled


def test_the_edit_request_makes_no_more_calls(client, aws, override_settings):
    queue = use_queue(override_settings)
    alice, guest, _declined, _app_user, event = _party()
    drain(queue)
    aws.reset()
    _edit(client, alice, event, venue_name="Cafe Nord")
    assert aws.of("sqs") == {"SendMessage": 1}
    # as before change texts: the caller's token and invitation, the partition's reads, the edit; the burst is
    # the queue side's
    assert aws.of("dynamodb") == {"BatchGetItem": 2, "Query": 1, "UpdateItem": 1}


def test_the_owners_hourly_quota_applies_to_change_texts(client, clock, due, override_settings):
    alice = make_person("Alice")
    guests = [make_person("", active=False) for _ in range(3)]
    event = make_event(alice, *guests, title="Board games", when=WHEN, time_zone=ZONE)
    invitations_texted = sum(len(texts_to(guest.phone)) for guest in guests)
    override_settings(invite_sms_per_owner_per_hour=invitations_texted + 2)
    _edit(client, alice, event, venue_name="Cafe Nord")
    queue_handler.process(due[0])
    assert sum(len(_change_texts(guest)) for guest in guests) == 2


def test_a_deleted_hosts_guests_find_their_link_saying_the_event_was_cancelled(client, monkeypatch):
    from chalicelib.services.web import guest_answers
    from tests.utils.web import invite_by_text, link_texted_to, page, text_of

    alice = make_person("Alice")
    number = phone()
    invite_by_text(client, alice, number, title="Board games", event_date="2030-01-12T01:30:00Z")
    path = link_texted_to(number)
    deleted = client.http.request("DELETE", "/users/me", headers={"Authorization": f"Bearer {alice.token}"})
    assert deleted.status_code == 204
    shown = page(client, path)
    assert shown.status_code == 404
    assert "This event was cancelled" in text_of(shown) and "Board games" in text_of(shown)
    assert "link doesn" not in text_of(shown)
    # a made-up code for the same event learns nothing
    forged = path[:-6] + ("AAAAAA" if not path.endswith("AAAAAA") else "BBBBBB")
    assert "This event was cancelled" not in text_of(page(client, forged))
    # 7 days after the event's date the link is an ordinary dead link
    late = datetime(2030, 1, 19, 2, 0, tzinfo=UTC)
    monkeypatch.setattr(guest_answers, "utcnow", lambda: late)
    assert "This link doesn" in text_of(page(client, path))


def test_a_nameless_hosts_cancellation_names_them_as_the_guest_page_does(client):
    host, guest = make_person(""), make_person("", active=False)
    event = make_event(host, guest, title="Board games", when=WHEN, time_zone=ZONE)
    assert put(client, f"/events/{event.id}/cancel_event", host.token).status_code == 204
    assert _cancel_texts(guest) == [
        f'Invites: Your host (number ending {host.phone[-4:]}) cancelled "Board games" (Fri, Jan 11 at 8:30 PM EST).'
        " Reply STOP to opt out."
    ]
