"""Idempotency records as stored: a claim another request cannot take while it runs, unless its lease ran out;
an answer kept only by the request that holds the claim."""

from __future__ import annotations

import pytest
from pynamodb.exceptions import UpdateError

from chalicelib.models.auth import IdempotentRequest, idempotency_pk
from chalicelib.store import idempotency

USER, KEY = 42, "key-1"


@pytest.fixture
def claimed(aws) -> IdempotentRequest:
    record = idempotency.claim(USER, KEY, "fingerprint")
    assert isinstance(record, IdempotentRequest)
    return record


def test_a_running_claim_is_not_taken_again(claimed):
    assert idempotency.claim(USER, KEY, "fingerprint") == idempotency.Earlier("fingerprint", None)


def test_a_claim_past_its_lease_is_taken_over_and_the_old_holder_cannot_keep_its_answer(claimed):
    stale = claimed.claimed_at - idempotency.LEASE_SECONDS - 1
    claimed.update(actions=[IdempotentRequest.claimed_at.set(stale)])
    taken = idempotency.claim(USER, KEY, "fingerprint")
    assert isinstance(taken, IdempotentRequest) and taken.nonce != claimed.nonce
    with pytest.raises(UpdateError):
        idempotency.keep_answer(claimed, idempotency.KeptAnswer(201, {}, "{}"))


def test_a_kept_answer_is_given_to_the_next_claim(claimed):
    idempotency.keep_answer(claimed, idempotency.KeptAnswer(201, {"Content-Type": "application/json"}, '{"id": 1}'))
    earlier = idempotency.claim(USER, KEY, "fingerprint")
    assert earlier == idempotency.Earlier(
        "fingerprint", idempotency.KeptAnswer(201, {"Content-Type": "application/json"}, '{"id": 1}'), claimed.nonce
    )


def test_a_released_claim_is_gone(claimed):
    idempotency.release(claimed)
    with pytest.raises(IdempotentRequest.DoesNotExist):
        IdempotentRequest.get(idempotency_pk(USER, KEY))


def test_a_claim_whose_answer_was_lost_is_still_this_requests_claim(aws):
    from tests.utils.aws_faults import LOSE_ANSWER, fail_first, on_the_wire

    with on_the_wire(fail_first("dynamodb", "PutItem", LOSE_ANSWER)) as wire:
        record = idempotency.claim(USER, KEY, "fingerprint")
    assert wire.faults and isinstance(record, IdempotentRequest)  # not "in progress" for its own claim
    idempotency.keep_answer(record, idempotency.KeptAnswer(201, {}, "{}"))
    assert idempotency.claim(USER, KEY, "fingerprint").answer == idempotency.KeptAnswer(201, {}, "{}")


def test_an_answer_of_any_size_is_kept_within_dynamodbs_item_limit(claimed):
    import random

    from tests.utils.aws_faults import dynamodb_item_limit, on_the_wire

    rng = random.Random(3)
    text = "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(700_000))  # about 2 MB, barely compressible
    with on_the_wire(dynamodb_item_limit) as wire:
        idempotency.keep_answer(claimed, idempotency.KeptAnswer(201, {}, text))
        earlier = idempotency.claim(USER, KEY, "fingerprint")
    assert wire.faults == [] and earlier.answer.body == text
