"""A deployed stage's pin key, kept in the emulated SSM as in AWS (``deployed_stage`` is a fixture for every test)."""

from __future__ import annotations

import boto3
import pytest

PARAMETER = "/invites/dev/pin-secret"
KEY = "0123456789abcdef" * 4


def put_pin_key(value: str) -> None:
    boto3.client("ssm", region_name="us-east-1").put_parameter(
        Name=PARAMETER, Type="SecureString", Value=value, Overwrite=True
    )


@pytest.fixture
def deployed_stage(aws, override_settings, monkeypatch):
    """Settings of a deployed stage (PIN_SECRET in the environment is not read there)."""
    from chalicelib import pinkey

    monkeypatch.setenv("PIN_SECRET", "an-environment-key-that-must-be-ignored-000000")
    override_settings(stage="dev", pin_key_parameter=PARAMETER)
    pinkey.forget()
    yield
    pinkey.forget()
