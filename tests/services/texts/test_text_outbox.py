"""The text outbox: every kind of text survives SNS's throttles and failures (tried again by the queue, sent
once), a text abandoned after the retry window gives back the owner's quota and the month's budget and reads
``failed``, a lost answer never sends a text twice, and two workers with one record send it once.

SNS's faults are injected into the texts' Publish calls with botocore's event hooks (tests/utils/sms_faults.py);
the in-process queue keeps each delayed retry until the test runs it (chalicelib/inline_queue.py)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from chalicelib import inline_queue
from chalicelib.jobs import queue_handler
from chalicelib.limits import INVITE_TEXTS_PER_OWNER
from chalicelib.messaging import sms_sender
from chalicelib.messaging.notifications import queueing
from chalicelib.models.auth import SentNotification
from chalicelib.services.guards.ratelimit import Limit
from chalicelib.services.texts import text_outbox
from chalicelib.services.texts.text_outbox import TEXT_RETRY
from chalicelib.store import counters
from chalicelib.store import join_links as store_links
from chalicelib.store import outbox as records
from chalicelib.timeutil import utcnow
from tests.utils import sms_faults
from tests.utils.api import body, get, post_json, texts_to
from tests.utils.factories import make_event, make_person, phone
from tests.utils.races import race, read_together
from tests.utils.web import answer, form_token, invite_by_text, link_texted_to, page, post_form, text_of

ZONE = "America/New_York"
WHEN = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)


@pytest.fixture
def faults(client):
    hooked, undo = sms_faults.install()
    yield hooked
    undo()


@pytest.fixture
def retried(monkeypatch) -> list[str]:
    """The record keys of every text retry the queue handled."""
    keys = []
    handler_of = queue_handler.handler_of
    handle = handler_of(TEXT_RETRY)

    def spy(message):
        keys.append(message["key"])
        return handle(message)

    monkeypatch.setattr(
        queue_handler, "handler_of", lambda kind: spy if kind == TEXT_RETRY else handler_of(kind)
    )
    return keys


def _run_retries() -> int:
    """Run every text retry the queue holds until none is left; how many runs."""
    runs = 0
    while inline_queue.run_put_off():
        runs += 1
        assert runs < 50, "the retries never end"
    return runs


def _edit(client, owner, event_id, **fields):
    response = post_json(client, f"/events/{event_id}", fields, owner.token, method="PATCH")
    assert response.status_code == 200, response.body


# --- each kind: set up, then a trigger whose one text is the one under test -----------------------------------


def _invitation(client, _due):
    alice, number = make_person("Alice"), phone()
    return number, " invited you to ", lambda: invite_by_text(client, alice, number)


def _join_approval(client, _due):
    alice, guest = make_person("Alice"), make_person("", active=False)
    event = make_event(alice, title="Picnic", when=WHEN)
    store_links.save_request(event.id, guest.id, utcnow(), 50)

    def trigger():
        path = f"/events/{event.id}/join_requests/{guest.id}/approve"
        assert post_json(client, path, None, alice.token).status_code == 204

    return guest.phone, " invited you to ", trigger


def _waiting_guest(client, **fields):
    """An event of one spot (or ``fields``) that Bob holds, and a texted guest waiting for it."""
    alice, bob, number = make_person("Alice"), make_person("Bob"), phone()
    event_id = invite_by_text(client, alice, number, waitlist=True, **fields)["id"]
    _edit(client, alice, event_id, invite_phone_numbers=[bob.phone])
    return alice, bob, number, event_id


def _promotion(client, _due):
    alice, bob, number, event_id = _waiting_guest(client, total_spots=1)
    assert post_json(client, f"/events/{event_id}/accept", {}, bob.token).status_code == 200
    assert answer(client, link_texted_to(number), "accept").status_code == 303  # in line

    def trigger():
        assert post_json(client, f"/events/{event_id}/reject", {}, bob.token).status_code == 200

    return number, "You're in!", trigger


def _drop(client, _due):
    alice, bob, number, event_id = _waiting_guest(client, total_spots=3, max_extra_guests=2)
    assert post_json(client, f"/events/{event_id}/accept", {"extra_guests": 1}, bob.token).status_code == 200
    path = link_texted_to(number)
    fields = {"csrf": form_token(text_of(page(client, path))), "message": "", "answer": "accept", "extra_guests": "2"}
    assert post_form(client, f"{path}/rsvp", fields).status_code == 303  # in line: a party of three
    return number, "off the waitlist", lambda: _edit(client, alice, event_id, total_spots=2)


def _party():
    alice, guest = make_person("Alice"), make_person("", active=False)
    event = make_event(alice, guest, title="Board games", when=WHEN, time_zone=ZONE)
    return alice, guest, event


def _change(client, due):
    alice, guest, event = _party()

    def trigger():
        _edit(client, alice, event.id, venue_name="Cafe Nord")
        queue_handler.process(due[-1])

    return guest.phone, " is now ", trigger


def _cancellation(client, _due):
    alice, guest, event = _party()

    def trigger():
        assert post_json(client, f"/events/{event.id}/cancel_event", None, alice.token, method="PUT").status_code == 204

    return guest.phone, " cancelled ", trigger


def _announcement(client, _due):
    alice, guest, event = _party()

    def trigger():
        path = f"/events/{event.id}/announcements"
        assert post_json(client, path, {"text": "Bring dice"}, alice.token).status_code == 201

    return guest.phone, " about ", trigger


def _nudge(client, _due):
    alice, guest, event = _party()

    def trigger():
        assert post_json(client, f"/events/{event.id}/nudge", {}, alice.token).status_code == 200

    return guest.phone, "is waiting for your answer", trigger


KINDS = {
    "invitation": _invitation,
    "join_approval": _join_approval,
    "promotion": _promotion,
    "change": _change,
    "cancellation": _cancellation,
    "drop": _drop,
    "announcement": _announcement,
    "nudge": _nudge,
}
FAULTS = {
    "throttled": [sms_faults.THROTTLED] * 3,
    "internal_error": [sms_faults.INTERNAL_ERROR, sms_faults.INTERNAL_ERROR],
    "mixed": [sms_faults.THROTTLED, sms_faults.KMS_THROTTLING, sms_faults.INTERNAL_ERROR],
}


def _texts(number: str, marker: str) -> list[str]:
    return [text for text in texts_to(number) if marker in text]


@pytest.mark.parametrize("fault", sorted(FAULTS))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_of_text_comes_through_sns_faults_exactly_once(client, faults, retried, clock, due, kind, fault):
    number, marker, trigger = KINDS[kind](client, due)
    before = len(_texts(number, marker))
    faults.throttle(*FAULTS[fault])
    trigger()
    assert len(_texts(number, marker)) == before  # SNS took nothing yet
    _run_retries()
    assert len(_texts(number, marker)) == before + 1
    assert faults.pending == [] and faults.tries == len(FAULTS[fault]) + 1
    # the queue delivers every retry again: nobody is texted twice
    assert retried
    for key in set(retried):
        queue_handler.process({"type": TEXT_RETRY, "id": "again", "key": key})
    assert len(_texts(number, marker)) == before + 1


def _budget_count() -> int:
    return counters.count_of(sms_sender.budget_key(datetime.now(UTC)))


def _status_of(client, owner, event_id: int, number: str) -> str | None:
    detail = body(get(client, f"/events/{event_id}", owner.token))
    [row] = [row for row in detail["invitees"] if row["phone_number"] == number]
    return row["text_status"]


def test_a_text_sns_keeps_refusing_is_tried_for_an_hour_then_abandoned_giving_back_quota_and_budget(
    client, faults, override_settings, monkeypatch
):
    override_settings(sms_monthly_segments=1000)
    alice, number = make_person("Alice"), phone()
    quota_key = Limit.of(INVITE_TEXTS_PER_OWNER, alice.id).key(time.time())
    now = [utcnow()]
    delays = []
    handed = queueing.enqueue

    def enqueue(message_type, *, delay_seconds=0, **fields):
        if message_type == TEXT_RETRY:
            delays.append(delay_seconds)
            now[0] += timedelta(seconds=delay_seconds)  # the queue hands it back after its delay
        return handed(message_type, delay_seconds=delay_seconds, **fields)

    monkeypatch.setattr(queueing, "enqueue", enqueue)
    monkeypatch.setattr(text_outbox, "utcnow", lambda: now[0])
    faults.throttle(*[sms_faults.THROTTLED] * 100)
    created = invite_by_text(client, alice, number)
    [row] = [row for row in created["invitees"] if row["phone_number"] == number]
    assert row["text_status"] == "queued"
    assert counters.count_of(quota_key) == 1 and _budget_count() == 0  # each failed try gives its segments back
    _run_retries()
    assert texts_to(number) == []
    assert _status_of(client, alice, created["id"], number) == "failed"
    assert counters.count_of(quota_key) == 0 and _budget_count() == 0
    # backed off, at most SQS's 15 minutes a hop, for at least an hour
    assert delays == sorted(delays) and max(delays) == 900 and sum(delays) >= 3600
    assert faults.tries == len(delays) + 1
    faults.pending.clear()
    _run_retries()
    queue_handler.process({"type": TEXT_RETRY, "id": "late", "key": _key(created["id"], number)})
    assert texts_to(number) == []  # abandoned for good


def _key(event_id: int, number: str) -> str:
    from chalicelib.services.identity.users import find_user_by_phone

    return text_outbox.Text(
        text_outbox.INVITATION, str(event_id), event_id, find_user_by_phone(number).id, "", "", utcnow()
    ).key


def test_a_text_whose_answer_was_lost_after_sns_took_it_is_never_sent_again(client, faults):
    alice, number = make_person("Alice"), phone()
    faults.lose_answers(1)
    created = invite_by_text(client, alice, number)
    assert len(texts_to(number)) == 1 and faults.tries == 1  # one Publish: the SDK did not try it again
    _run_retries()
    queue_handler.process({"type": TEXT_RETRY, "id": "again", "key": _key(created["id"], number)})
    assert len(texts_to(number)) == 1
    assert _status_of(client, alice, created["id"], number) == "sent"


def test_a_change_text_whose_answer_was_lost_is_never_sent_again(client, faults, clock, due):
    number, marker, trigger = _change(client, due)
    faults.lose_answers(1)
    trigger()
    queue_handler.process(due[-1])  # the burst's message delivered again
    _run_retries()
    assert len(_texts(number, marker)) == 1 and faults.tries == 1


def test_two_workers_with_the_same_queued_text_send_it_once(client, faults, monkeypatch):
    alice, number = make_person("Alice"), phone()
    faults.throttle(sms_faults.THROTTLED, sms_faults.THROTTLED)
    created = invite_by_text(client, alice, number)
    [message] = inline_queue.put_off()
    inline_queue.discard_put_off()
    read_together(monkeypatch, records, "take", 8)  # every worker asks for the record before any has it
    outcomes = race(lambda _n: queue_handler.process(message), 8, refused=())
    assert outcomes == ["ok"] * 8
    assert len(texts_to(number)) == 1
    assert _status_of(client, alice, created["id"], number) == "sent"
    assert SentNotification.get(message["key"], consistent_read=True).message_id  # SNS's MessageId is kept


@pytest.mark.parametrize("fault", [sms_faults.THROTTLED, sms_faults.INTERNAL_ERROR, sms_faults.KMS_THROTTLING])
def test_a_pin_sns_cannot_take_now_answers_503_with_retry_after_and_stays_out_of_the_outbox(client, faults, fault):
    number = phone()
    faults.throttle(fault)
    response = post_json(client, "/auth", {"phone_number": number})
    assert response.status_code == 503 and int(response.headers["Retry-After"]) >= 1
    assert inline_queue.put_off() == [] and texts_to(number) == []
    assert post_json(client, "/auth", {"phone_number": number}).status_code == 204  # SNS is back: the pin goes
    assert len(texts_to(number)) == 1


def test_a_claimed_text_abandoned_after_the_window_gives_the_owners_quota_back_and_is_never_sent(
    client, faults, monkeypatch
):
    alice, guest, event = _party()
    quota_key = Limit.of(INVITE_TEXTS_PER_OWNER, alice.id).key(time.time())
    charged = counters.count_of(quota_key)  # the invitation text
    later = [utcnow()]
    monkeypatch.setattr(text_outbox, "utcnow", lambda: later[0])
    faults.throttle(*[sms_faults.INTERNAL_ERROR] * 100)
    assert post_json(client, f"/events/{event.id}/cancel_event", None, alice.token, method="PUT").status_code == 204
    assert counters.count_of(quota_key) == charged + 1  # the cancellation text, waiting for its retry
    later[0] += timedelta(seconds=text_outbox.RETRY_WINDOW_SECONDS)
    _run_retries()
    assert _texts(guest.phone, " cancelled ") == []
    assert counters.count_of(quota_key) == charged
    faults.pending.clear()
    queue_handler.process({"type": "event_cancelled", "id": "again", "event_id": event.id, "actor_id": alice.id})
    assert _texts(guest.phone, " cancelled ") == []  # abandoned is settled: a redelivery sends nothing


def test_the_entry_point_sends_a_text_of_any_kind_once_and_tries_again_what_sns_throttled(client, faults):
    alice, guest, event = _party()
    words = "Invites: see you tomorrow at Board games. Reply STOP to opt out."
    text = text_outbox.Text("reminder", str(event.id), event.id, guest.id, guest.phone, words, WHEN)
    faults.throttle(sms_faults.THROTTLED, sms_faults.THROTTLED)
    assert text_outbox.send_text(text) == text_outbox.QUEUED
    assert text_outbox.send_text(text) == text_outbox.SENT  # handed over already: not claimed twice
    _run_retries()
    assert texts_to(guest.phone).count(words) == 1
    record = SentNotification.get(text.key, consistent_read=True)
    assert (record.state, record.attempts, record.phone_number) == ("sent", 2, None)  # the number forgotten
    assert text_outbox.send_text(text) == text_outbox.SENT and texts_to(guest.phone).count(words) == 1


def test_a_queued_invitation_text_is_not_sent_once_its_event_is_cancelled(client, faults):
    alice, number = make_person("Alice"), phone()
    faults.throttle(sms_faults.THROTTLED, sms_faults.THROTTLED)
    created = invite_by_text(client, alice, number)
    quota_key = Limit.of(INVITE_TEXTS_PER_OWNER, alice.id).key(time.time())
    assert counters.count_of(quota_key) == 1
    cancelled = post_json(client, f"/events/{created['id']}/cancel_event", None, alice.token, method="PUT")
    assert cancelled.status_code == 204
    _run_retries()
    assert [text for text in texts_to(number) if " invited you to " in text] == []
    assert _status_of(client, alice, created["id"], number) == "not_sent"
    assert counters.count_of(quota_key) == 1  # its quota back; the cancellation text took one
