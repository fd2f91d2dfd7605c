"""iOS devices: one SNS platform endpoint per device token, remembered under the user."""

from __future__ import annotations

import logging

from pynamodb.exceptions import DeleteError, TransactWriteError

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.errors import ServiceUnavailable
from chalicelib.models.base import transact_write
from chalicelib.models.users import (
    DEVICE_PREFIX,
    OWNER_SK,
    Device,
    DeviceOwner,
    UsersTable,
    device_owner_pk,
    device_sk,
    device_token_of,
    user_pk,
)
from chalicelib.store.batch import batch_get
from chalicelib.store.conditions import condition_failed, conflicted
from chalicelib.timeutil import utcnow

log = logging.getLogger("invites")
_ATTEMPTS = 10


def _find(user, token: str) -> Device | None:
    try:
        return Device.get(user_pk(user.id), device_sk(token))
    except Device.DoesNotExist:
        return None


def add_device(user, token: str) -> None:
    """Register ``token`` for push to ``user``; doing it again changes nothing. A token another user
    registered before moves to this one: one phone, one owner, also when several users register it
    at once (the owner item changes only from the owner read, else read again and retry). A user
    keeps at most DEVICES_PER_USER devices: a further one drops those registered longest ago."""
    keys = [(user_pk(user.id), device_sk(token)), (device_owner_pk(token), OWNER_SK)]
    endpoint = None
    for _ in range(_ATTEMPTS):
        found = batch_get(UsersTable, keys, consistent_read=True)
        mine = next((item for item in found if isinstance(item, Device)), None)
        owner = next((item for item in found if isinstance(item, DeviceOwner)), None)
        if mine is not None and owner is not None and owner.user_id == user.id:
            return
        if mine is not None:
            endpoint = mine.endpoint_arn
        elif endpoint is None:
            arn = get_settings().apns_platform_application_arn
            # Same token, same attributes: SNS hands back the existing endpoint, so a retry is safe.
            endpoint = aws.sns().create_platform_endpoint(PlatformApplicationArn=arn, Token=token)["EndpointArn"]
        previous = owner.user_id if owner is not None else None
        unchanged = DeviceOwner.pk.does_not_exist() if previous is None else DeviceOwner.user_id == previous
        try:
            with transact_write() as transaction:
                transaction.save(Device(user_pk(user.id), device_sk(token), endpoint_arn=endpoint, created=utcnow()))
                transaction.save(DeviceOwner(device_owner_pk(token), OWNER_SK, user_id=user.id), condition=unchanged)
                if previous is not None and previous != user.id:
                    transaction.delete(Device(user_pk(previous), device_sk(token)))
        except TransactWriteError as exc:
            if condition_failed(exc) or conflicted(exc):
                continue  # another registration of the token got there first: read its owner again
            raise
        _drop_oldest(user)
        return
    raise ServiceUnavailable()


def _drop_oldest(user) -> None:
    """Forget the user's devices beyond the newest DEVICES_PER_USER (read after this request's write,
    so of parallel registrations the last to read sees them all and trims to the limit)."""
    devices = sorted(
        Device.query(user_pk(user.id), Device.sk.startswith(DEVICE_PREFIX), consistent_read=True),
        key=lambda device: (device.created, device.sk),
    )
    surplus = devices[: max(0, len(devices) - get_settings().devices_per_user)]
    for device in surplus:
        token = device_token_of(device.sk)
        device.delete()
        try:
            DeviceOwner(device_owner_pk(token), OWNER_SK).delete(condition=DeviceOwner.user_id == user.id)
        except DeleteError as exc:
            if not condition_failed(exc):
                raise
            continue  # the phone is someone else's now, and so is its endpoint
        try:
            aws.sns().delete_endpoint(EndpointArn=device.endpoint_arn)
        except Exception:  # noqa: BLE001 - an endpoint left over costs nothing and gets no pushes from us
            log.warning("could not delete the endpoint of a dropped device")


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
    return list(Device.query(user_pk(user_id), Device.sk.startswith(DEVICE_PREFIX)))


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
        if not condition_failed(exc):
            raise
