"""The download link of a data export: a link to the service that works for exactly the hour it states.

A presigned S3 URL made when the status is read is signed with the API function's temporary credentials, and
dies with them, possibly before the hour it promised. So the link the status answers names the service
(``GET /users/me/export/<token>``), and each opening signs a fresh, short-lived S3 URL and redirects to it.

The token, ``<user id>.<export nonce>.<expires, epoch seconds>.<HMAC>``, is the credential (a browser opens the link
without the app's bearer token): unguessable (an HMAC-SHA256 under a key derived from the stage's pin key), good
until the stated time, for that person's current export only. Another export asked for since, the file gone, the
account deleted, a changed or made-up token: 404, as for anything that is not there."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime, timedelta

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.errors import NotFound
from chalicelib.pinkey import pin_key
from chalicelib.store import exports as store
from chalicelib.timeutil import utcnow

LINK_SECONDS = 3600  # what the status answer states: the link works this long
DOWNLOAD_SECONDS = 300  # each opening's S3 URL: long enough to start the download, well within any credentials
MAX_TOKEN_LENGTH = 200


def _key() -> bytes:
    return hmac.new(pin_key(), b"invites export download link", hashlib.sha256).digest()


def _signature(user_id: int, nonce: str, expires: int) -> str:
    return hmac.new(_key(), f"{user_id}.{nonce}.{expires}".encode(), hashlib.sha256).hexdigest()


def link_token(user_id: int, nonce: str, expires_at: datetime) -> str:
    """The token of the link to ``user_id``'s export ``nonce``, good until ``expires_at``."""
    expires = int(expires_at.timestamp())
    return f"{user_id}.{nonce}.{expires}.{_signature(user_id, nonce, expires)}"


def link_expiry(now: datetime) -> datetime:
    """When a link made ``now`` stops working (whole seconds, as the token carries it)."""
    return (now + timedelta(seconds=LINK_SECONDS)).replace(microsecond=0)


def download_url(token: str, now: datetime | None = None) -> str:
    """A fresh S3 URL of the file the token names, good for DOWNLOAD_SECONDS; NotFound for anything else."""
    now = now or utcnow()
    parts = token.split(".") if len(token) <= MAX_TOKEN_LENGTH else []
    if len(parts) != 4 or not all(part.isascii() and part.isalnum() for part in parts):
        raise NotFound()
    user_id, nonce, expires, signature = parts
    if not user_id.isdigit() or not expires.isdigit():
        raise NotFound()
    if not hmac.compare_digest(signature, _signature(int(user_id), nonce, int(expires))):
        raise NotFound()
    if datetime.fromtimestamp(int(expires), UTC) <= now:
        raise NotFound()
    record = store.get_record(int(user_id))
    live = record is not None and (record.expires_at is None or record.expires_at > now)
    if not live or record.state != store.READY or record.nonce != nonce or not record.object_key:
        raise NotFound()
    return aws.s3().generate_presigned_url(
        "get_object",
        Params={"Bucket": get_settings().avatar_bucket, "Key": record.object_key},
        ExpiresIn=DOWNLOAD_SECONDS,
    )
