"""Registering iOS devices for push: one SNS platform endpoint per device token, remembered under the user.

An endpoint SNS reports gone is forgotten where pushes are delivered (services/push/push_delivery.py)."""

from __future__ import annotations

import logging
from datetime import timedelta

from chalicelib import aws, store
from chalicelib.config import get_settings
from chalicelib.errors import ServiceUnavailable
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.services.push import push_endpoints
from chalicelib.store import devices as device_store
from chalicelib.timeutil import utcnow

log = logging.getLogger("invites")
# Parallel registrations of one token each lose only to one that landed (see add_device: why attempts)
REGISTRATION_ATTEMPTS = 10
REMOVAL_LEASE_SECONDS = 30  # longer than a request may run (Lambda's timeout): a removal that died ends
REMOVAL_WAIT_SECONDS = 0.05  # a registration meeting a removal in flight waits this, then longer


IOS, ANDROID = "ios", "android"


def add_device(user, token: str, platform: str = IOS, language: str | None = None) -> None:
    """Register ``token`` for push to ``user``, its pushes in ``language`` (a catalogue's tag; None: English);
    doing it again changes nothing but the language. A token another user
    registered before moves to this one: one phone, one owner, also when several users register it
    at once (the owner item changes only from the owner read, else read again and retry). While the
    owner is removing the token (deleting its endpoint) this waits for that to finish, then makes a
    new endpoint. A user keeps at most DEVICES_PER_USER devices: a further one drops those registered
    longest ago.

    Why attempts rather than a condition that cannot lose: who owns the token decides which SNS
    endpoint the device item names, and that endpoint is made or kept outside DynamoDB, so the owner
    item can only be written conditional on the owner read; parallel registrations take turns."""
    endpoint = None

    def register(attempt: int) -> None:
        nonlocal endpoint
        mine, owner = device_store.device_and_owner(user.id, token)
        if owner is not None and owner.removing_until is not None and owner.removing_until > utcnow():
            endpoint = None  # the one SNS handed back before may be deleted now
            raise TryAgain(pause=REMOVAL_WAIT_SECONDS * (attempt + 1))
        if mine is not None and owner is not None and owner.user_id == user.id:
            if push_endpoints.revive(mine.endpoint_arn, token):
                if mine.language != language:
                    device_store.set_language(mine, language)
                return  # registered already; its endpoint, disabled by a push that failed, takes pushes again
            endpoint = None  # its endpoint was deleted: a new one
        elif mine is not None:
            endpoint = mine.endpoint_arn if push_endpoints.revive(mine.endpoint_arn, token) else None
        if endpoint is None:
            settings = get_settings()
            arn = (
                settings.fcm_platform_application_arn if platform == ANDROID else settings.apns_platform_application_arn
            )
            if not arn:
                raise ServiceUnavailable()  # this stage has no platform application for it
            # Same token: SNS hands back the existing endpoint (enabled again here), so a retry is safe.
            endpoint = push_endpoints.endpoint_for(arn, token)
        try:
            device_store.take_device(user.id, token, endpoint, owner, language)
        except (store.Refused, store.Contended):
            endpoint = endpoint if mine is not None else None
            raise TryAgain() from None  # another registration or a removal got there first: read again
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
    """Forget ``token`` and delete its endpoint; unknown tokens are fine.

    Three steps, so that a parallel registration of the token (by anyone) never ends up pointing at
    the endpoint deleted here: the device item goes and the owner item is marked "removing" in one
    transaction (only while the token is still this user's: if someone took it over, the endpoint is
    theirs now and stays); then the endpoint is deleted; then the owner item. Registrations wait for
    the mark to go. SNS failing: the device item comes back, the mark goes, 503."""
    device = device_store.find_device(user.id, token)
    if device is None:
        return
    lease = utcnow() + timedelta(seconds=REMOVAL_LEASE_SECONDS)
    if not device_store.begin_removal(user.id, device, lease):
        return
    try:
        aws.sns().delete_endpoint(EndpointArn=device.endpoint_arn)
    except Exception:
        device_store.cancel_removal(user.id, device, lease)
        raise
    device_store.end_removal(user.id, token, lease)


def user_devices(user_id: int) -> list:
    return device_store.user_devices(user_id)
