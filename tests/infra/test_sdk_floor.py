"""The declared floor of the AWS SDK (infra/sdk-floor.txt), and the SDK the tests actually run on."""

from __future__ import annotations

import os

import boto3
import botocore
import s3transfer

from tests.infra.scripts import load

sdk_floor = load("sdk_floor")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")[:3])


def test_the_floor_pins_one_release_of_each_sdk_part():
    floor = sdk_floor.pins()
    assert set(floor) == {"boto3", "botocore", "s3transfer"}
    assert floor["boto3"] == floor["botocore"]  # boto3 X.Y.Z needs botocore X.Y.Z or later in X.Y


def test_the_tests_run_on_the_floor_when_asked_and_never_below_it():
    floor = sdk_floor.pins()
    expected = os.environ.get("INVITES_SDK_FLOOR")
    if expected:  # scripts/sdk_floor.py: exactly the floor, not the environment's newer copy
        assert (botocore.__version__, boto3.__version__) == (expected, floor["boto3"])
        assert s3transfer.__version__ == floor["s3transfer"]
    else:
        assert _version(botocore.__version__) >= _version(floor["botocore"])
        assert _version(boto3.__version__) >= _version(floor["boto3"])
