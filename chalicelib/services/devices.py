"""iOS devices: one SNS platform endpoint per device token, remembered under the user."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

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
_REMOVAL_LEASE_SECONDS = 30  # longer than a request may run (Lambda's timeout): a removal that died ends
_REMOVAL_WAIT_SECONDS = 0.05  # a registration meeting a removal in flight waits this, then longer


def _find(user, token: str) -> Device | None:
    try:
        return Device.get(user_pk(user.id), device_sk(token))
    except Device.DoesNotExist:
        return None


def add_device(user, token: str) -> None:
    """Register ``token`` for push to ``user``; doing it again changes nothing. A token another user
    registered before moves to this one: one phone, one owner, also when several users register it
    at once (the owner item changes only from the owner read, else read again and retry). While the
    owner is removing the token (deleting its endpoint) this waits for that to finish, then makes a
    new endpoint. A user keeps at most DEVICES_PER_USER devices: a further one drops those registered
    longest ago."""
    keys = [(user_pk(user.id), device_sk(token)), (device_owner_pk(token), OWNER_SK)]
    endpoint = None
    for attempt in range(_ATTEMPTS):
        found = batch_get(UsersTable, keys, consistent_read=True)
        mine = next((item for item in found if isinstance(item, Device)), None)
        owner = next((item for item in found if isinstance(item, DeviceOwner)), None)
        if owner is not None and _being_removed(owner):
            time.sleep(_REMOVAL_WAIT_SECONDS * (attempt + 1))
            endpoint = None  # the one SNS handed back before may be deleted now
            continue
        if mine is not None and owner is not None and owner.user_id == user.id:
            return
        if mine is not None:
            endpoint = mine.endpoint_arn
        elif endpoint is None:
            arn = get_settings().apns_platform_application_arn
            # Same token, same attributes: SNS hands back the existing endpoint, so a retry is safe.
            endpoint = aws.sns().create_platform_endpoint(PlatformApplicationArn=arn, Token=token)["EndpointArn"]
        previous = owner.user_id if owner is not None else None
        if previous is None:
            unchanged = DeviceOwner.pk.does_not_exist()
        else:  # read as it was: same owner, and no removal begun meanwhile
            unchanged = (DeviceOwner.user_id == previous) & DeviceOwner.removing_until.does_not_exist()
            if owner.removing_until is not None:  # a removal that outlived its lease
                unchanged = (DeviceOwner.user_id == previous) & (DeviceOwner.removing_until == owner.removing_until)
        try:
            with transact_write() as transaction:
                transaction.save(Device(user_pk(user.id), device_sk(token), endpoint_arn=endpoint, created=utcnow()))
                transaction.save(DeviceOwner(device_owner_pk(token), OWNER_SK, user_id=user.id), condition=unchanged)
                if previous is not None and previous != user.id:
                    transaction.delete(Device(user_pk(previous), device_sk(token)))
        except TransactWriteError as exc:
            if condition_failed(exc) or conflicted(exc):
                endpoint = None if mine is None else endpoint
                continue  # another registration or a removal of the token got there first: read again
            raise
        _drop_oldest(user)
        return
    raise ServiceUnavailable()


def _being_removed(owner: DeviceOwner) -> bool:
    return owner.removing_until is not None and owner.removing_until > utcnow()


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
    """Forget ``token`` and delete its endpoint; unknown tokens are fine.

    Three steps, so that a parallel registration of the token (by anyone) never ends up pointing at
    the endpoint deleted here: the Device item goes and the owner item is marked "removing" in one
    transaction (only while the token is still this user's: if someone took it over, the endpoint is
    theirs now and stays); then the endpoint is deleted; then the owner item. Registrations wait for
    the mark to go. SNS down: the Device item comes back, the mark goes, 503."""
    device = _find(user, token)
    if device is None:
        return
    lease = utcnow() + timedelta(seconds=_REMOVAL_LEASE_SECONDS)
    owner_key = DeviceOwner(device_owner_pk(token), OWNER_SK, user_id=user.id, removing_until=lease)
    try:
        with transact_write() as transaction:
            transaction.delete(device)
            transaction.save(owner_key, condition=DeviceOwner.user_id == user.id)
    except TransactWriteError as exc:
        if not (condition_failed(exc) or conflicted(exc)):
            raise
        _forget_own_item(device)  # the token is someone else's now (or no one's): its endpoint is not ours
        return
    try:
        aws.sns().delete_endpoint(EndpointArn=device.endpoint_arn)
    except Exception:
        with transact_write() as transaction:
            transaction.save(device)
            transaction.save(
                DeviceOwner(device_owner_pk(token), OWNER_SK, user_id=user.id),
                condition=DeviceOwner.removing_until == lease,
            )
        raise
    try:
        owner_key.delete(condition=(DeviceOwner.user_id == user.id) & (DeviceOwner.removing_until == lease))
    except DeleteError as exc:
        if not condition_failed(exc):
            raise


def _forget_own_item(device: Device) -> None:
    try:
        device.delete(condition=Device.endpoint_arn == device.endpoint_arn)
    except DeleteError as exc:
        if not condition_failed(exc):
            raise


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
