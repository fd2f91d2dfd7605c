"""iOS devices: one SNS platform endpoint per device token, remembered under the user."""

from __future__ import annotations

import logging

from chalicelib import aws, store
from chalicelib.aws_errors import error_code, is_transient
from chalicelib.config import get_settings
from chalicelib.errors import ServiceUnavailable
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.store import devices as device_store

log = logging.getLogger("invites")
REGISTRATION_ATTEMPTS = 10  # parallel registrations of one token each lose only to one that landed


def add_device(user, token: str) -> None:
    """Register ``token`` for push to ``user``; doing it again changes nothing. A token another user
    registered before moves to this one: one phone, one owner, also when several users register it
    at once (the owner item changes only from the owner read, else read again and retry). A user
    keeps at most DEVICES_PER_USER devices: a further one drops those registered longest ago."""
    endpoint = None

    def register(_attempt: int) -> None:
        nonlocal endpoint
        mine, owner = device_store.device_and_owner(user.id, token)
        if mine is not None and owner == user.id:
            return
        if mine is not None:
            endpoint = mine.endpoint_arn
        elif endpoint is None:
            arn = get_settings().apns_platform_application_arn
            # Same token, same attributes: SNS hands back the existing endpoint, so a retry is safe.
            endpoint = aws.sns().create_platform_endpoint(PlatformApplicationArn=arn, Token=token)["EndpointArn"]
        try:
            device_store.take_device(user.id, token, endpoint, owner)
        except (store.Refused, store.Conflict):
            raise TryAgain() from None  # another registration of the token got there first: read its owner again
        _drop_oldest(user)

    try:
        retry(register, attempts=REGISTRATION_ATTEMPTS)
    except AttemptsSpent:
        raise ServiceUnavailable() from None


def _drop_oldest(user) -> None:
    """Forget the user's devices beyond the newest DEVICES_PER_USER (read after this request's write,
    so of parallel registrations the last to read sees them all and trims to the limit)."""
    devices = sorted(
        device_store.user_devices(user.id, consistent=True), key=lambda device: (device.created, device.sk)
    )
    surplus = devices[: max(0, len(devices) - get_settings().devices_per_user)]
    for device in surplus:
        if not device_store.drop_device(user.id, device):
            continue  # the phone is someone else's now, and so is its endpoint
        try:
            aws.sns().delete_endpoint(EndpointArn=device.endpoint_arn)
        except Exception:  # noqa: BLE001 - an endpoint left over costs nothing and gets no pushes from us
            log.warning("could not delete the endpoint of a dropped device")


def remove_device(user, token: str) -> None:
    """Forget ``token`` and delete its endpoint; unknown tokens are fine."""
    device = device_store.find_device(user.id, token)
    if device is None:
        return
    aws.sns().delete_endpoint(EndpointArn=device.endpoint_arn)
    device_store.delete_device(user.id, device)


def user_devices(user_id: int) -> list:
    return device_store.user_devices(user_id)


def forget_endpoint(device) -> None:
    """Delete an endpoint SNS reported disabled or gone, and the Device item that names it.

    The item is deleted only while it still names that endpoint, so a registration made meanwhile
    stands. Raises transient AWS faults (the caller retries); a missing endpoint is fine."""
    from botocore.exceptions import ClientError

    try:
        aws.sns().delete_endpoint(EndpointArn=device.endpoint_arn)
    except ClientError as exc:
        if is_transient(exc):
            raise
        log.warning("could not delete endpoint of a device: %s", error_code(exc))
    device_store.delete_device_if_endpoint(device)
