"""Inviting more numbers to an event (PATCH with invite_phone_numbers) when AWS fails partway: the 503 takes
back what the edit counted (the event's invitee_count) for invitations it could not store, and what it charged
(the owner's allowance of numbers new to them) unless the numbers were already marked as invited by the owner
(their marks are stored beside the invitations, and a marked number costs no allowance again), so the retry
charges and counts each number once."""

from __future__ import annotations

import pytest

from chalicelib.models.auth import RateLog
from chalicelib.services.contacts.contacts import contact_lookup_limit
from tests.utils.api import post_json, texts_to
from tests.utils.aws_faults import on_the_wire, wire_error
from tests.utils.effects import difference, stored_effects
from tests.utils.factories import make_event, make_person, phone, stored_event

THROTTLED = wire_error("dynamodb", "TransactWriteItems", "ThrottlingException")


def _storing_invitations(service: str, operation: str, body: bytes):
    """A rule: the transactions that store invitations (puts of ``INV#`` items) are throttled."""
    if operation == "TransactWriteItems" and b'"Put"' in body and b'"INV#' in body:
        return THROTTLED
    return None


def _opt_out_check(service: str, operation: str, body: bytes):
    """A rule: SNS's opt-out check of the numbers to text is throttled."""
    if operation == "CheckIfPhoneNumberIsOptedOut":
        return wire_error("sns", operation, "Throttled")
    return None


def _new_numbers_charged(owner) -> int:
    """What the owner's allowance of numbers new to them holds."""
    return int(RateLog.get(contact_lookup_limit(owner.user).key(), consistent_read=True).total)


def _what_a_503_kept(effects: dict) -> dict:
    """The counters a failed invite moved (the inactive accounts made for the numbers are kept for the retry)."""
    return {kind: n for kind, n in effects.items() if len(kind) == 4}


CHARGE_KEPT = {("test-auth", "RATELOG", "", "total"): 1}


@pytest.mark.parametrize(
    ("rule", "kept"), [(_storing_invitations, CHARGE_KEPT), (_opt_out_check, {})], ids=["invitations", "opt-out check"]
)
def test_an_invite_that_fails_partway_is_503_keeps_no_count_and_its_retry_charges_once(client, rule, kept):
    owner = make_person("Olive Owner")
    event = make_event(owner, make_person("Gus Guest"))
    number = phone()
    invite = {"invite_phone_numbers": [number]}
    before = stored_effects()
    with on_the_wire(rule) as wire:
        failed = post_json(client, f"/events/{event.id}", invite, owner.token, method="PATCH")
    assert wire.faults, "the fault was never reached"
    assert failed.status_code == 503 and int(failed.headers["Retry-After"]) >= 1, failed.body
    assert _what_a_503_kept(difference(before, stored_effects())) == kept
    assert stored_event(event.id).invitee_count == 1 and texts_to(number) == []

    retried = post_json(client, f"/events/{event.id}", invite, owner.token, method="PATCH")
    assert retried.status_code == 200, retried.body
    assert stored_event(event.id).invitee_count == 2 and len(texts_to(number)) == 1
    assert _new_numbers_charged(owner) == 2  # the guest of the event, then this number once
