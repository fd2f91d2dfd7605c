"""iOS devices: one SNS platform endpoint per device token, remembered under the user."""

from __future__ import annotations

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.models.users import Device, device_sk, user_pk
from chalicelib.timeutil import utcnow


def _find(user, token: str) -> Device | None:
    try:
        return Device.get(user_pk(user.id), device_sk(token))
    except Device.DoesNotExist:
        return None


def add_device(user, token: str) -> None:
    """Register ``token`` for push; doing it again changes nothing."""
    if _find(user, token) is not None:
        return
    arn = get_settings().apns_platform_application_arn
    # Same token, same attributes: SNS hands back the existing endpoint, so a retry is safe.
    endpoint = aws.sns().create_platform_endpoint(PlatformApplicationArn=arn, Token=token)["EndpointArn"]
    Device(user_pk(user.id), device_sk(token), endpoint_arn=endpoint, created=utcnow()).save()


def remove_device(user, token: str) -> None:
    """Forget ``token`` and delete its endpoint; unknown tokens are fine."""
    device = _find(user, token)
    if device is None:
        return
    aws.sns().delete_endpoint(EndpointArn=device.endpoint_arn)
    device.delete()


def user_devices(user_id: int) -> list[Device]:
    return list(Device.query(user_pk(user_id), Device.sk.startswith("DEVICE#")))
