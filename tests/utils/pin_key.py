"""A deployed stage's pin key, kept in the emulated SSM as in AWS (``deployed_stage`` is a fixture for every test)."""

from __future__ import annotations

import boto3
import pytest

PARAMETER = "/invites/dev/pin-secret"
KEY = "0123456789abcdef" * 4
STOP_LIST_PARAMETER = "/invites/dev/stop-list-key"
STOP_LIST_KEY = "5" * 64


def put_pin_key(value: str) -> None:
    boto3.client("ssm", region_name="us-east-1").put_parameter(
        Name=PARAMETER, Type="SecureString", Value=value, Overwrite=True
    )


def put_stop_list_key(value: str = STOP_LIST_KEY) -> None:
    boto3.client("ssm", region_name="us-east-1").put_parameter(
        Name=STOP_LIST_PARAMETER, Type="SecureString", Value=value, Overwrite=True
    )


@pytest.fixture
def deployed_stage(aws, override_settings, monkeypatch):
    """Settings of a deployed stage (PIN_SECRET in the environment is not read there), its stop-list key in SSM."""
    from chalicelib import pinkey

    monkeypatch.setenv("PIN_SECRET", "an-environment-key-that-must-be-ignored-000000")
    put_stop_list_key()
    override_settings(stage="dev", pin_key_parameter=PARAMETER, stop_list_key_parameter=STOP_LIST_PARAMETER)
    pinkey.forget()
    yield
    pinkey.forget()
