"""Why a write was refused, read the same way from PynamoDB's and botocore's errors."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError
from pynamodb.exceptions import PutError, TransactWriteError


def test_a_cancelled_transaction_names_the_item_whose_condition_failed(aws):
    from chalicelib.aws_errors import cancellation_codes, condition_failed, conflicted
    from chalicelib.models.base import transact_write
    from chalicelib.models.users import PHONE_SK, PhoneClaim, phone_pk

    PhoneClaim(phone_pk("+12025550102"), PHONE_SK, user_id=2).save()
    with pytest.raises(TransactWriteError) as refused:
        with transact_write() as transaction:
            transaction.save(
                PhoneClaim(phone_pk("+12025550101"), PHONE_SK, user_id=1), condition=PhoneClaim.pk.does_not_exist()
            )
            transaction.save(
                PhoneClaim(phone_pk("+12025550102"), PHONE_SK, user_id=9), condition=PhoneClaim.pk.does_not_exist()
            )

    assert cancellation_codes(refused.value) == [None, "ConditionalCheckFailed"]
    assert condition_failed(refused.value, 1) and condition_failed(refused.value, -1)
    assert not condition_failed(refused.value, 0) and not condition_failed(refused.value, 2)
    assert condition_failed(refused.value) and not conflicted(refused.value)
    assert PhoneClaim.count(phone_pk("+12025550101")) == 0  # nothing of it was written
    assert PhoneClaim.get(phone_pk("+12025550102"), PHONE_SK).user_id == 2


def test_a_single_write_refused_by_its_condition(aws):
    from chalicelib.aws_errors import cancellation_codes, condition_failed
    from chalicelib.models.users import PHONE_SK, PhoneClaim, phone_pk

    PhoneClaim(phone_pk("+12025550103"), PHONE_SK, user_id=3).save()
    with pytest.raises(PutError) as refused:
        PhoneClaim(phone_pk("+12025550103"), PHONE_SK, user_id=4).save(condition=PhoneClaim.pk.does_not_exist())

    assert condition_failed(refused.value)
    assert not condition_failed(refused.value, 0)  # not a transaction: no item positions
    assert cancellation_codes(refused.value) == []


def test_botocore_reasons_and_other_errors():
    from chalicelib.aws_errors import cancellation_codes, condition_failed, conflicted

    cancelled = ClientError(
        {
            "Error": {"Code": "TransactionCanceledException", "Message": "cancelled"},
            "CancellationReasons": [{"Code": "None"}, {"Code": "TransactionConflict"}],
        },
        "TransactWriteItems",
    )
    throttled = ClientError({"Error": {"Code": "ThrottlingException", "Message": "slow down"}}, "PutItem")

    assert cancellation_codes(cancelled) == ["None", "TransactionConflict"]
    assert conflicted(cancelled) and not condition_failed(cancelled)
    assert not condition_failed(throttled) and not conflicted(throttled) and cancellation_codes(throttled) == []


def test_sns_throttle_429_and_every_aws_error_are_classified():
    from chalicelib.aws_errors import aws_fault, is_transient

    throttled = ClientError(
        {"Error": {"Code": "Throttled", "Message": "slow"}, "ResponseMetadata": {"HTTPStatusCode": 429}},
        "CheckIfPhoneNumberIsOptedOut",
    )
    too_many = ClientError(
        {"Error": {"Code": "Anything", "Message": "slow"}, "ResponseMetadata": {"HTTPStatusCode": 429}}, "Publish"
    )
    missing_table = ClientError(
        {"Error": {"Code": "ResourceNotFoundException", "Message": "no"}, "ResponseMetadata": {"HTTPStatusCode": 400}},
        "GetItem",
    )
    assert is_transient(throttled) and is_transient(too_many)
    assert not is_transient(missing_table) and aws_fault(missing_table)
    wrapped = RuntimeError("store error")
    wrapped.__cause__ = PutError("put failed", cause=missing_table)
    assert aws_fault(wrapped) and not aws_fault(ValueError("ours"))
