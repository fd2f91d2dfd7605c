"""Push devices: ``Device`` under its user (``DEVICE#<token>``, the SNS endpoint it was given) and one
``DeviceOwner`` per token (who holds the phone now), in the users table."""

from __future__ import annotations

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
from chalicelib.store import Refused, refusals
from chalicelib.store.batch import batch_get
from chalicelib.timeutil import utcnow


def device_token(device: Device) -> str:
    return device_token_of(device.sk)


def find_device(user_id: int, token: str) -> Device | None:
    try:
        return Device.get(user_pk(user_id), device_sk(token))
    except Device.DoesNotExist:
        return None


def device_and_owner(user_id: int, token: str) -> tuple[Device | None, int | None]:
    """The user's device item for ``token`` and the id of whoever owns the token now, read consistently
    in one BatchGetItem."""
    keys = [(user_pk(user_id), device_sk(token)), (device_owner_pk(token), OWNER_SK)]
    found = batch_get(UsersTable, keys, consistent_read=True)
    mine = next((item for item in found if isinstance(item, Device)), None)
    owner = next((item for item in found if isinstance(item, DeviceOwner)), None)
    return mine, (owner.user_id if owner is not None else None)


def take_device(user_id: int, token: str, endpoint_arn: str, previous_owner: int | None) -> None:
    """Give ``token`` to ``user_id`` in one transaction, on condition its owner is still
    ``previous_owner`` (None: nobody); the previous owner's device item goes. Raises Refused or
    Conflict when another registration of the token got there first."""
    unchanged = DeviceOwner.pk.does_not_exist() if previous_owner is None else DeviceOwner.user_id == previous_owner
    with refusals(), transact_write() as transaction:
        transaction.save(Device(user_pk(user_id), device_sk(token), endpoint_arn=endpoint_arn, created=utcnow()))
        transaction.save(DeviceOwner(device_owner_pk(token), OWNER_SK, user_id=user_id), condition=unchanged)
        if previous_owner is not None and previous_owner != user_id:
            transaction.delete(Device(user_pk(previous_owner), device_sk(token)))


def user_devices(user_id: int, *, consistent: bool = False) -> list[Device]:
    return list(Device.query(user_pk(user_id), Device.sk.startswith(DEVICE_PREFIX), consistent_read=consistent))


def drop_device(user_id: int, device: Device) -> bool:
    """Delete the device item, then its owner item while it is still ``user_id``'s. False when the phone is
    someone else's now (their endpoint too, then)."""
    device.delete()
    try:
        with refusals():
            DeviceOwner(device_owner_pk(device_token(device)), OWNER_SK).delete(
                condition=DeviceOwner.user_id == user_id
            )
    except Refused:
        return False
    return True


def delete_device(user_id: int, device: Device) -> None:
    """The device item and its owner item (unless another user owns the token now), in one transaction."""
    with transact_write() as transaction:
        transaction.delete(device)
        transaction.delete(
            DeviceOwner(device_owner_pk(device_token(device)), OWNER_SK),
            condition=DeviceOwner.user_id.does_not_exist() | (DeviceOwner.user_id == user_id),
        )


def delete_device_if_endpoint(device: Device) -> None:
    """Delete the device item while it still names its endpoint (a registration made meanwhile stands)."""
    try:
        with refusals():
            device.delete(condition=Device.endpoint_arn == device.endpoint_arn)
    except Refused:
        pass
