"""iOS devices: one SNS platform endpoint per device token, remembered under the user."""

from __future__ import annotations

import logging

from pynamodb.exceptions import DeleteError

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.models.base import transact_write
from chalicelib.models.users import OWNER_SK, Device, DeviceOwner, UsersTable, device_owner_pk, device_sk, user_pk
from chalicelib.timeutil import utcnow

log = logging.getLogger("invites")


def _find(user, token: str) -> Device | None:
    try:
        return Device.get(user_pk(user.id), device_sk(token))
    except Device.DoesNotExist:
        return None


def add_device(user, token: str) -> None:
    """Register ``token`` for push to ``user``; doing it again changes nothing. A token another user
    registered before moves to this one: one phone, one owner."""
    keys = [(user_pk(user.id), device_sk(token)), (device_owner_pk(token), OWNER_SK)]
    found = list(UsersTable.batch_get(keys, consistent_read=True))
    mine = next((item for item in found if isinstance(item, Device)), None)
    owner = next((item for item in found if isinstance(item, DeviceOwner)), None)
    if mine is not None and owner is not None and owner.user_id == user.id:
        return
    if mine is not None:
        endpoint = mine.endpoint_arn
    else:
        arn = get_settings().apns_platform_application_arn
        # Same token, same attributes: SNS hands back the existing endpoint, so a retry is safe.
        endpoint = aws.sns().create_platform_endpoint(PlatformApplicationArn=arn, Token=token)["EndpointArn"]
    with transact_write() as transaction:
        transaction.save(Device(user_pk(user.id), device_sk(token), endpoint_arn=endpoint, created=utcnow()))
        transaction.save(DeviceOwner(device_owner_pk(token), OWNER_SK, user_id=user.id))
        if owner is not None and owner.user_id != user.id:
            transaction.delete(Device(user_pk(owner.user_id), device_sk(token)))


def remove_device(user, token: str) -> None:
    """Forget ``token`` and delete its endpoint; unknown tokens are fine."""
    device = _find(user, token)
    if device is None:
        return
    aws.sns().delete_endpoint(EndpointArn=device.endpoint_arn)
    with transact_write() as transaction:
        transaction.delete(device)
        transaction.delete(
            DeviceOwner(device_owner_pk(token), OWNER_SK),
            condition=DeviceOwner.user_id.does_not_exist() | (DeviceOwner.user_id == user.id),
        )


def user_devices(user_id: int) -> list[Device]:
    return list(Device.query(user_pk(user_id), Device.sk.startswith("DEVICE#")))


def forget_endpoint(device: Device) -> None:
    """Delete an endpoint SNS reported disabled or gone, and the Device item that names it.

    The item is deleted only while it still names that endpoint, so a registration made meanwhile
    stands. Raises transient AWS faults (the caller retries); a missing endpoint is fine."""
    from botocore.exceptions import ClientError

    try:
        aws.sns().delete_endpoint(EndpointArn=device.endpoint_arn)
    except ClientError as exc:
        if aws.is_transient(exc):
            raise
        log.warning("could not delete endpoint of a device: %s", exc.response.get("Error", {}).get("Code"))
    try:
        device.delete(condition=Device.endpoint_arn == device.endpoint_arn)
    except DeleteError as exc:
        if aws.error_code(exc) != "ConditionalCheckFailedException":
            raise
