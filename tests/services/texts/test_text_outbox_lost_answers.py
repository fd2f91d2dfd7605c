"""The text outbox when DynamoDB's answer to one of its own writes is lost (applied, then a read timeout, and the
SDK sends it again): the claim that opens a text's record, and the take of a queued record by the queue's retry.
Either way the text goes out once, by the try that wrote it, and its record reads ``sent``."""

from __future__ import annotations

from chalicelib import inline_queue
from chalicelib.jobs import queue_handler
from chalicelib.models.auth import SentNotification
from chalicelib.services.texts import text_outbox
from chalicelib.timeutil import utcnow
from tests.api.test_lost_answers import lose_first_answer_of_every_write
from tests.utils.api import texts_to
from tests.utils.aws_faults import LOSE_ANSWER, always, on_the_wire, wire_error
from tests.utils.factories import make_event, make_person, phone
from tests.utils.web import invite_by_text

WORDS = "Invites: see you tomorrow at Board games. Reply STOP to opt out."


def _lost(wire, operation: str) -> bool:
    return ("dynamodb", operation, LOSE_ANSWER) in wire.faults


def test_a_text_whose_claim_answer_was_lost_is_sent_by_the_call_that_claimed_it(client):
    alice, guest = make_person("Alice"), make_person("", active=False)
    event = make_event(alice, guest, title="Board games")
    text = text_outbox.Text("reminder", str(event.id), event.id, guest.id, guest.phone, WORDS, utcnow())
    with on_the_wire(lose_first_answer_of_every_write()) as wire:
        assert text_outbox.send_text(text) == text_outbox.SENT
    assert _lost(wire, "PutItem")
    assert texts_to(guest.phone).count(WORDS) == 1
    assert text_outbox.send_text(text) == text_outbox.SENT  # a repeat finds it sent
    assert texts_to(guest.phone).count(WORDS) == 1
    assert SentNotification.get(text.key, consistent_read=True).state == "sent"


def test_a_queued_text_whose_take_answer_was_lost_is_sent_by_that_retry(client):
    alice, number = make_person("Alice"), phone()
    with on_the_wire(always("sns", "Publish", wire_error("sns", "Publish", "Throttled"))):
        invite_by_text(client, alice, number)
    assert texts_to(number) == []
    [retry] = inline_queue.put_off()
    inline_queue.discard_put_off()
    with on_the_wire(lose_first_answer_of_every_write()) as wire:
        queue_handler.process(retry)
    assert _lost(wire, "UpdateItem")
    assert len(texts_to(number)) == 1
    assert SentNotification.get(retry["key"], consistent_read=True).state == "sent"
    queue_handler.process(retry)  # the queue's message delivered again
    assert len(texts_to(number)) == 1
