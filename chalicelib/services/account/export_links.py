"""The download link of a data export: a link to the service that works for exactly the hour it states.

A presigned S3 URL made when the status is read is signed with the API function's temporary credentials, and
dies with them, possibly before the hour it promised. So the link the status answers names the service
(``GET /users/me/export/<token>``), and each opening signs a fresh, short-lived S3 URL and redirects to it.

The token, ``<user id>.<export nonce>.<expires, epoch seconds>.<HMAC>``, is the credential (a browser opens the link
without the app's bearer token): unguessable (an HMAC-SHA256 under a key derived from the stage's pin key), good
until the stated time, for that person's current export only. Another export asked for since, the file gone, the
account deleted, a changed or made-up token: 404, as for anything that is not there.

The album photos inside the file link to the service the same way (``GET /users/me/export/photos/<token>``,
``<user id>.<export nonce>.<event id>.<photo id>.<size>.<HMAC>`` under a key of their own): each opening signs a fresh
S3 URL of that JPEG, for as long as the file itself is there (the export still the person's current one, the photo
still theirs)."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime, timedelta

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.errors import NotFound
from chalicelib.pinkey import pin_key
from chalicelib.store import exports as store
from chalicelib.store import photos as photo_store
from chalicelib.store.photos import event_id_of_photo
from chalicelib.store.records import Photo
from chalicelib.timeutil import utcnow

LINK_SECONDS = 3600  # what the status answer states: the link works this long
DOWNLOAD_SECONDS = 300  # each opening's S3 URL: long enough to start the download, well within any credentials
MAX_TOKEN_LENGTH = 200


PHOTO_SIZES = ("thumb", "big")


def _signed(purpose: bytes, *parts) -> str:
    key = hmac.new(pin_key(), purpose, hashlib.sha256).digest()
    return hmac.new(key, ".".join(map(str, parts)).encode(), hashlib.sha256).hexdigest()


def _signature(user_id: int, nonce: str, expires: int) -> str:
    return _signed(b"invites export download link", user_id, nonce, expires)


def _photo_signature(user_id: int, nonce: str, event_id: int, photo_id: int, size: str) -> str:
    return _signed(b"invites export photo link", user_id, nonce, event_id, photo_id, size)


def _parts(token: str, count: int) -> list[str]:
    """The token's ``count`` dot-separated parts, each plain ASCII letters and digits; NotFound otherwise."""
    parts = token.split(".") if len(token) <= MAX_TOKEN_LENGTH else []
    if len(parts) != count or not all(part.isascii() and part.isalnum() for part in parts):
        raise NotFound()
    return parts


def _current_export(user_id: int, nonce: str, now: datetime):
    """The person's export record when ``nonce`` names their current, ready, unexpired export; NotFound otherwise."""
    record = store.get_record(user_id)
    live = record is not None and (record.expires_at is None or record.expires_at > now)
    if not live or record.state != store.READY or record.nonce != nonce or not record.object_key:
        raise NotFound()
    return record


def _fresh_download(key: str) -> str:
    return aws.s3().generate_presigned_url(
        "get_object", Params={"Bucket": get_settings().avatar_bucket, "Key": key}, ExpiresIn=DOWNLOAD_SECONDS
    )


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
    user_id, nonce, expires, signature = _parts(token, 4)
    if not user_id.isdigit() or not expires.isdigit():
        raise NotFound()
    if not hmac.compare_digest(signature, _signature(int(user_id), nonce, int(expires))):
        raise NotFound()
    if datetime.fromtimestamp(int(expires), UTC) <= now:
        raise NotFound()
    return _fresh_download(_current_export(int(user_id), nonce, now).object_key)


def photo_link_token(user_id: int, nonce: str, photo: Photo, size: str) -> str:
    """The token of the link, inside export ``nonce``, to one size (``thumb`` or ``big``) of a photo ``user_id``
    added."""
    event_id = event_id_of_photo(photo)
    signature = _photo_signature(user_id, nonce, event_id, photo.id, size)
    return f"{user_id}.{nonce}.{event_id}.{photo.id}.{size}.{signature}"


def photo_download_url(token: str) -> str:
    """A fresh S3 URL of the photo the token names, good for DOWNLOAD_SECONDS, while the export that holds the link
    is its owner's current one and the photo is still theirs; NotFound for anything else."""
    user_id, nonce, event_id, photo_id, size, signature = _parts(token, 6)
    if not (user_id.isdigit() and event_id.isdigit() and photo_id.isdigit()) or size not in PHOTO_SIZES:
        raise NotFound()
    expected = _photo_signature(int(user_id), nonce, int(event_id), int(photo_id), size)
    if not hmac.compare_digest(signature, expected):
        raise NotFound()
    _current_export(int(user_id), nonce, utcnow())
    photo = photo_store.find(int(event_id), int(photo_id))
    if photo is None or photo.user_id != int(user_id) or photo.state != photo_store.READY:
        raise NotFound()
    return _fresh_download(photo.thumb_key if size == "thumb" else photo.big_key)
