"""Processing an album upload once it lands in S3 (the ``process_photo_upload`` function, on the bucket's
``photo-uploads/`` events). No chalice imports.

Each object is processed once: a photo still pending is decoded within the image budget (services/media/images.py:
bytes, pixels, inflated PNG data), stripped of every metadata block (the location with the rest), turned
upright, and written as two JPEGs; then marked ready on condition it is still pending, and the original is
deleted. A redelivered event finds no original, or a photo no longer pending, and does nothing more. A file
that fails (no image, truncated, past the budget) is deleted with its pending photo, so it is never listed
and the uploader's count is given back. AWS faults raise: Lambda tries the event again, then hands it to the
function's failure destination.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.errors import PayloadTooLarge, ValidationError
from chalicelib.services.media.avatars import delete_quietly
from chalicelib.services.the_day.photos import (
    MAX_UPLOAD_BYTES,
    PHOTO_NAME,
    THUMB_NAME,
    UPLOAD_FOLDER,
    delete_photos,
    photo_folder,
)
from chalicelib.store import photos as photo_store

log = logging.getLogger("invites")

_UPLOAD_KEY = re.compile(rf"^{UPLOAD_FOLDER}/(\d{{1,16}})/(\d{{1,16}})/(\d{{1,16}})$")
PROCESSED, REJECTED, SKIPPED = "processed", "rejected", "skipped"


def handle_s3_event(key: str) -> str:
    """Process the upload at ``key`` (as S3's event names it, URL-encoded); what was done."""
    key = unquote_plus(key)
    match = _UPLOAD_KEY.match(key)
    if match is None:
        log.warning("an object outside the uploads' layout was left alone")
        return SKIPPED
    user_id, event_id, photo_id = (int(part) for part in match.groups())
    photo = photo_store.find(event_id, photo_id)
    if photo is None or photo.user_id != user_id or photo.state != photo_store.PENDING:
        delete_quietly([key])  # processed already, removed meanwhile, or never granted
        return SKIPPED
    event = photo_store.event_of(event_id)
    if event is None or event.cancelled:
        delete_photos([photo])
        return REJECTED
    data = _read(key)
    if data is None:
        return SKIPPED  # deleted meanwhile (a redelivery after the original went)
    return _store_sizes(photo, data, user_id, event_id)


def _read(key: str) -> bytes | None:
    """The upload's bytes, at most MAX_UPLOAD_BYTES + 1 read (the POST policy bounds it; this holds without it)."""
    s3 = aws.s3()
    try:
        answer = s3.get_object(Bucket=get_settings().avatar_bucket, Key=key, Range=f"bytes=0-{MAX_UPLOAD_BYTES}")
    except s3.exceptions.NoSuchKey:
        return None
    return answer["Body"].read(MAX_UPLOAD_BYTES + 1)


def _store_sizes(photo, data: bytes, user_id: int, event_id: int) -> str:
    from chalicelib.services.media.images import process_photo  # Pillow: only in this function

    settings = get_settings()
    try:
        thumb, big = process_photo(data, max_bytes=MAX_UPLOAD_BYTES, max_pixels=settings.avatar_max_pixels)
    except (ValidationError, PayloadTooLarge):
        delete_photos([photo])
        return REJECTED
    folder = photo_folder(user_id, event_id, photo.id)
    thumb_key, big_key = f"{folder}/{THUMB_NAME}", f"{folder}/{PHOTO_NAME}"
    bucket, s3 = settings.avatar_bucket, aws.s3()
    for key, body in ((thumb_key, thumb), (big_key, big)):
        s3.put_object(Bucket=bucket, Key=key, Body=body, ContentType="image/jpeg", CacheControl="private, max-age=3600")
    if not photo_store.mark_ready(photo, thumb_key, big_key):
        # Processed by a parallel delivery (the same keys), or removed meanwhile: the removal deleted these
        # keys too (services/the_day/photos.py), and the uploader's account deletion takes any left over.
        return SKIPPED
    delete_quietly([photo.upload_key])
    return PROCESSED
