"""DELETE /events/{id}/invitees/{user_id}?notify=true: the removed person is told once (a push to an app user, a
text to someone without the app), however the request is repeated; by default nobody is told."""

from __future__ import annotations

import json

from chalicelib.config import get_settings
from chalicelib.messaging import sms_segments
from chalicelib.services.texts import stop_list
from tests.api.test_guest_removal import invited, remove
from tests.utils.api import body, post_json, texts_to
from tests.utils.aws_faults import LOSE_ANSWER, TIME_OUT, always, fail_first, on_the_wire
from tests.utils.factories import make_event, make_person, phone
from tests.utils.notifications import add_device, drain, pushes, run_queue, use_queue
from tests.utils.web import invite_by_text

NOTIFY = "?notify=true"


def _texted_guest(client, host, **fields) -> tuple[int, int, str]:
    """An event of ``host`` inviting a number without the app: (event id, the guest's user id, the number)."""
    number = phone()
    created = invite_by_text(client, host, number, **fields)
    guest_id = next(row["user_id"] for row in created["invitees"] if row["user_id"] != host.id)
    return created["id"], guest_id, number


def _picnic_on_a_queue(client, override_settings):
    """Olive's "Picnic" inviting a number without the app, its queue made and emptied of the invitation's
    messages: (the queue's URL, Olive, (event id, the guest's user id, the number))."""
    url = use_queue(override_settings)
    olive = make_person("Olive")
    texted = _texted_guest(client, olive, title="Picnic")
    drain(url)
    return url, olive, texted


def test_an_app_user_removed_with_notify_gets_one_push_even_when_the_request_is_repeated(client, override_settings):
    url = use_queue(override_settings)
    olive, gus = make_person("Olive"), make_person("Gus")
    event = make_event(olive, gus, title="Garden party")
    arn = add_device(gus, "a" * 64)
    drain(url)

    assert remove(client, olive, event.id, gus.id, query=NOTIFY).status_code == 204
    assert remove(client, olive, event.id, gus.id, query=NOTIFY).status_code == 204  # a repeat without a key
    run_queue(client, url)

    sent = pushes(arn)
    assert len(sent) == 1
    assert "Olive removed you from the event." in json.dumps(sent[0]) and "Garden party" in json.dumps(sent[0])


def test_a_guest_without_the_app_removed_with_notify_is_texted_once(client):
    olive = make_person("Olive")
    event_id, guest_id, number = _texted_guest(client, olive, title="Picnic")
    before = len(texts_to(number))
    key = {"Idempotency-Key": "remove-and-tell"}

    assert remove(client, olive, event_id, guest_id, key, query=NOTIFY).status_code == 204
    replayed = remove(client, olive, event_id, guest_id, key, query=NOTIFY)
    assert replayed.status_code == 204 and replayed.headers.get("Idempotent-Replayed") == "true"
    assert remove(client, olive, event_id, guest_id, query=NOTIFY).status_code == 204  # lost answer, no key

    texts = texts_to(number)[before:]
    assert texts == ['Invites: Olive removed you from "Picnic". Reply STOP to opt out.']


def test_nobody_is_told_by_default_or_with_notify_false(client, override_settings):
    url = use_queue(override_settings)
    olive, gus = make_person("Olive"), make_person("Gus")
    event = make_event(olive, gus)
    arn = add_device(gus, "b" * 64)
    event_id, guest_id, number = _texted_guest(client, olive)
    drain(url)
    before = len(texts_to(number))

    assert remove(client, olive, event.id, gus.id).status_code == 204
    assert remove(client, olive, event_id, guest_id, query="?notify=false").status_code == 204
    assert drain(url) == []
    assert pushes(arn) == [] and len(texts_to(number)) == before


def test_a_bad_notify_is_a_400_keyed_by_notify_and_removes_nobody(client):
    olive, gus = make_person("Olive"), make_person("Gus")
    event = make_event(olive, gus)
    for value in ("yes", "1", "TRUE", ""):
        response = remove(client, olive, event.id, gus.id, query=f"?notify={value}")
        assert response.status_code == 400, value
        assert body(response) == {"notify": ["Must be true or false."]}
    assert invited(event.id) == {olive.id, gus.id}


def test_the_same_key_with_another_notify_is_refused(client):
    olive, gus = make_person("Olive"), make_person("Gus")
    event = make_event(olive, gus)
    key = {"Idempotency-Key": "remove-gus-quietly"}
    assert remove(client, olive, event.id, gus.id, key).status_code == 204
    assert remove(client, olive, event.id, gus.id, key, query=NOTIFY).status_code == 422
    assert remove(client, olive, event.id, gus.id, key, query="?notify=false").status_code == 422


def test_lost_answers_of_the_removal_and_of_the_queue_text_the_guest_once(client, override_settings):
    url, olive, (event_id, guest_id, number) = _picnic_on_a_queue(client, override_settings)
    before = len(texts_to(number))

    rule_write = fail_first("dynamodb", "TransactWriteItems", LOSE_ANSWER)
    rule_queue = fail_first("sqs", "SendMessage", LOSE_ANSWER)
    with on_the_wire(lambda *seen: rule_write(*seen) or rule_queue(*seen)) as wire:
        assert remove(client, olive, event_id, guest_id, query=NOTIFY).status_code == 204
    assert {fault[1] for fault in wire.faults} == {"TransactWriteItems", "SendMessage"}
    bodies = run_queue(client, url)
    assert len(bodies) == 2  # the message went twice: its claim lets one through
    run_queue(client, url, bodies)  # and the queue delivers them again

    assert texts_to(number)[before:] == ['Invites: Olive removed you from "Picnic". Reply STOP to opt out.']
    assert guest_id not in invited(event_id)


HEBREW_NAME = "אוליביה בת-שבע כהן-לוי " * 3
HEBREW_TITLE = "ארוחת שבת משפחתית 🕯️🍷 “family” " * 4


def test_the_text_in_hebrew_with_emoji_keeps_within_its_segments(client):
    host = make_person(HEBREW_NAME)
    event_id, guest_id, number = _texted_guest(client, host, title=HEBREW_TITLE.strip()[:100])
    before = len(texts_to(number))

    assert remove(client, host, event_id, guest_id, query=NOTIFY).status_code == 204

    [text] = texts_to(number)[before:]
    assert sms_segments.encoding(text) == "ucs2"
    assert sms_segments.segments(text) <= get_settings().invite_sms_max_segments_ucs2
    assert text.startswith("Invites: אוליביה") and ' removed you from "' in text
    assert "ארוחת שבת משפחתית" in text and text.endswith('". Reply STOP to opt out.')


def test_a_long_latin_text_keeps_within_two_gsm_segments(client):
    host = make_person("Bartholomew Fitzwilliam-Montgomery the Third of Westmoreland")
    event_id, guest_id, number = _texted_guest(client, host, title="Summer " * 14)
    before = len(texts_to(number))

    assert remove(client, host, event_id, guest_id, query=NOTIFY).status_code == 204

    [text] = texts_to(number)[before:]
    assert sms_segments.encoding(text) == "gsm" and sms_segments.segments(text) <= 2
    assert text.startswith("Invites: Bartholomew") and text.endswith('". Reply STOP to opt out.')


def test_a_number_on_the_stop_list_is_not_texted(client):
    olive = make_person("Olive")
    event_id, guest_id, number = _texted_guest(client, olive)
    stop_list.stop(number, "test")
    before = len(texts_to(number))

    assert remove(client, olive, event_id, guest_id, query=NOTIFY).status_code == 204
    assert len(texts_to(number)) == before and guest_id not in invited(event_id)


def test_someone_removed_again_after_a_new_invitation_is_told_again(client, override_settings):
    override_settings(invite_sms_per_stranger_per_day=10)  # four texts today: above the strangers' usual cap
    olive = make_person("Olive")
    event_id, guest_id, number = _texted_guest(client, olive, title="Picnic")
    before = len(texts_to(number))
    assert remove(client, olive, event_id, guest_id, query=NOTIFY).status_code == 204
    invite = {"invite_phone_numbers": [number]}
    assert post_json(client, f"/events/{event_id}", invite, token=olive.token, method="PATCH").status_code == 200
    invited_again = len(texts_to(number))
    assert invited_again == before + 2

    assert remove(client, olive, event_id, guest_id, query=NOTIFY).status_code == 204
    assert texts_to(number)[invited_again:] == ['Invites: Olive removed you from "Picnic". Reply STOP to opt out.']


def test_removal_texts_count_against_the_strangers_daily_cap(client):
    olive = make_person("Olive")
    event_id, guest_id, number = _texted_guest(client, olive, title="Picnic")
    invite = {"invite_phone_numbers": [number]}
    assert remove(client, olive, event_id, guest_id, query=NOTIFY).status_code == 204
    assert post_json(client, f"/events/{event_id}", invite, token=olive.token, method="PATCH").status_code == 200
    assert len(texts_to(number)) == 3  # the cap of the day is spent

    assert remove(client, olive, event_id, guest_id, query=NOTIFY).status_code == 204
    assert len(texts_to(number)) == 3 and guest_id not in invited(event_id)


def test_a_notice_the_queue_would_not_take_is_a_503_and_the_retry_texts_once(client, override_settings):
    url, olive, (event_id, guest_id, number) = _picnic_on_a_queue(client, override_settings)
    before = len(texts_to(number))

    with on_the_wire(always("sqs", "SendMessage", TIME_OUT)):
        refused = remove(client, olive, event_id, guest_id, query=NOTIFY)
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    assert guest_id not in invited(event_id)  # the removal stands
    assert drain(url) == []

    assert remove(client, olive, event_id, guest_id, query=NOTIFY).status_code == 204
    run_queue(client, url)
    assert texts_to(number)[before:] == ['Invites: Olive removed you from "Picnic". Reply STOP to opt out.']
