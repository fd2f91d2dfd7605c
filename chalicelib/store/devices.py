"""Push devices: ``Device`` under its user (``DEVICE#<token>``, the SNS endpoint it was given) and one
``DeviceOwner`` per token (who holds the phone now), in the users table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

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
from chalicelib.store import Contended, Refused, refusals
from chalicelib.store.batch import batch_get
from chalicelib.timeutil import utcnow


def device_token(device: Device) -> str:
    return device_token_of(device.sk)


def find_device(user_id: int, token: str) -> Device | None:
    try:
        return Device.get(user_pk(user_id), device_sk(token))
    except Device.DoesNotExist:
        return None


@dataclass(frozen=True)
class Holder:
    """Who owns a token now, and until when their removal of it holds it (None: no removal under way)."""

    user_id: int
    removing_until: datetime | None = None


def device_and_owner(user_id: int, token: str) -> tuple[Device | None, Holder | None]:
    """The user's device item for ``token`` and whoever owns the token now, read consistently in one
    BatchGetItem."""
    keys = [(user_pk(user_id), device_sk(token)), (device_owner_pk(token), OWNER_SK)]
    found = batch_get(UsersTable, keys, consistent_read=True)
    mine = next((item for item in found if isinstance(item, Device)), None)
    owner = next((item for item in found if isinstance(item, DeviceOwner)), None)
    return mine, (Holder(owner.user_id, owner.removing_until) if owner is not None else None)


def take_device(
    user_id: int, token: str, endpoint_arn: str, previous: Holder | None, language: str | None = None
) -> None:
    """Give ``token`` to ``user_id`` in one transaction, on condition its owner item is still as read in
    ``previous`` (None: nobody; no removal begun since, or the same outlived one); the previous owner's
    device item goes. ``language``: the one its pushes are written in. Raises Refused or Contended when another
    registration or a removal got there first."""
    if previous is None:
        unchanged = DeviceOwner.pk.does_not_exist()
    elif previous.removing_until is None:
        unchanged = (DeviceOwner.user_id == previous.user_id) & DeviceOwner.removing_until.does_not_exist()
    else:
        unchanged = (DeviceOwner.user_id == previous.user_id) & (DeviceOwner.removing_until == previous.removing_until)
    with refusals(), transact_write() as transaction:
        device = Device(user_pk(user_id), device_sk(token), endpoint_arn=endpoint_arn, created=utcnow())
        device.language = language
        transaction.save(device)
        transaction.save(DeviceOwner(device_owner_pk(token), OWNER_SK, user_id=user_id), condition=unchanged)
        if previous is not None and previous.user_id != user_id:
            transaction.delete(Device(user_pk(previous.user_id), device_sk(token)))


def set_language(device: Device, language: str | None) -> None:
    """Write the language of a device registered again with another one; nothing when the item is gone."""
    try:
        with refusals():
            action = Device.language.set(language) if language else Device.language.remove()
            device.update(actions=[action], condition=Device.pk.exists())
    except Refused:
        return


def begin_removal(user_id: int, device: Device, lease: datetime) -> bool:
    """Delete the device item and mark the token's owner item "removing until ``lease``", in one
    transaction, while the token is still ``user_id``'s. False when it is not (someone took it over,
    with its endpoint): then only this user's device item goes."""
    token = device_token(device)
    try:
        with refusals(), transact_write() as transaction:
            transaction.delete(device)
            transaction.save(
                DeviceOwner(device_owner_pk(token), OWNER_SK, user_id=user_id, removing_until=lease),
                condition=DeviceOwner.user_id == user_id,
            )
    except (Refused, Contended):
        delete_device_if_endpoint(device)
        return False
    return True


def end_removal(user_id: int, token: str, lease: datetime) -> None:
    """Delete the owner item marked by :func:`begin_removal` (unless a registration took over meanwhile)."""
    try:
        with refusals():
            DeviceOwner(device_owner_pk(token), OWNER_SK).delete(
                condition=(DeviceOwner.user_id == user_id) & (DeviceOwner.removing_until == lease)
            )
    except Refused:
        pass


def cancel_removal(user_id: int, device: Device, lease: datetime) -> None:
    """Put the device item back and clear the mark: the endpoint could not be deleted."""
    token = device_token(device)
    with transact_write() as transaction:
        transaction.save(device)
        transaction.save(
            DeviceOwner(device_owner_pk(token), OWNER_SK, user_id=user_id),
            condition=DeviceOwner.removing_until == lease,
        )


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
