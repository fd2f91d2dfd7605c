"""Delivering pushes once: delivery claims, which endpoint errors mean gone, no claim without a device."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from chalicelib.aws_errors import endpoint_gone
from chalicelib.config import get_settings
from chalicelib.models.auth import SentNotification
from chalicelib.store.claims import claim_delivery, mark_claim_sent, release_claim
from tests.utils.factories import make_event, make_person


def _claim(key: str):
    return claim_delivery(key, None, get_settings().notification_lease_seconds)


def _error(code: str, message: str = "") -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": message}}, "Publish")


def test_a_claim_is_taken_once_and_a_stale_one_is_taken_over(aws, override_settings):
    first = _claim("SENT#k#1#2#t")
    assert first is not None and _claim("SENT#k#1#2#t") is None
    # a worker died after claiming: once the lease is over, the next delivery takes the key
    override_settings(notification_lease_seconds=-1)
    second = _claim("SENT#k#1#2#t")
    assert second is not None and second.nonce != first.nonce
    # the old worker can no longer release or mark the new claim
    release_claim(first)
    assert SentNotification.get("SENT#k#1#2#t").nonce == second.nonce
    mark_claim_sent(second)
    assert _claim("SENT#k#1#2#t") is None  # sent: never taken over


def test_a_released_claim_can_be_taken_again(aws):
    claim = _claim("SENT#k#1#2#u")
    release_claim(claim)
    assert _claim("SENT#k#1#2#u") is not None


@pytest.mark.parametrize(
    ("error", "gone"),
    [
        (_error("EndpointDisabled", "Endpoint is disabled"), True),
        (_error("NotFound", "Endpoint does not exist"), True),
        (_error("InvalidParameter", "Invalid parameter: TargetArn Reason: No endpoint found"), True),
        (_error("InvalidParameter", "Invalid parameter: Message too long"), False),
        (_error("InternalError"), False),
        (_error("Throttling"), False),
        (RuntimeError("boom"), False),
    ],
)
def test_which_errors_mean_the_endpoint_is_gone(error, gone):
    assert endpoint_gone(error) is gone


def test_flags_off_or_no_device_cost_no_claim(aws):
    alice, bob = make_person("Alice"), make_person("Bob")
    make_event(alice, bob)
    assert list(SentNotification.scan()) == []  # a test-only Scan: nobody has a device
