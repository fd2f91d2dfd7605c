"""Avatars: sniffed, resized and stripped by `images`, stored in S3 under unguessable keys."""

from __future__ import annotations

import logging
import secrets

from chalicelib import aws, store
from chalicelib.config import get_settings
from chalicelib.errors import Conflict, ServiceUnavailable
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.services.media.images import process_image
from chalicelib.store import users as user_store
from chalicelib.timeutil import utcnow

log = logging.getLogger("invites")
PHOTO_FIELD = "photo"
SWAP_ATTEMPTS = 12  # parallel uploads of one user take turns; each turn lets one through
# How long a browser or the CDN may keep a photo once fetched. Short and never "immutable": a replaced, removed
# or deleted person's photo stops resolving within this time (the object itself is deleted at once).
IMAGE_CACHE_SECONDS = 600
IMAGE_CACHE_CONTROL = f"public, max-age={IMAGE_CACHE_SECONDS}"


def new_image_prefix(folder: str, owner_id: int) -> str:
    """An unguessable key prefix for ``owner_id``'s images: ``<folder>/<owner>/<128 random bits>``."""
    return f"{folder}/{owner_id}/{secrets.token_urlsafe(16)}"


def put_image(key: str, data: bytes, content_type: str) -> None:
    """Store one image object (every new image gets a new key; caches keep it IMAGE_CACHE_SECONDS at most)."""
    aws.s3().put_object(
        Bucket=get_settings().avatar_bucket,
        Key=key,
        Body=data,
        ContentType=content_type,
        CacheControl=IMAGE_CACHE_CONTROL,
    )


def delete_quietly(keys: list[str | None]) -> None:
    """Delete objects nobody points at any more; a failure leaves garbage, never a broken profile."""
    keys = [key for key in keys if key]
    for start in range(0, len(keys), 1000):  # DeleteObjects takes at most 1,000 keys
        chunk = keys[start : start + 1000]
        try:
            answer = aws.s3().delete_objects(
                Bucket=get_settings().avatar_bucket, Delete={"Objects": [{"Key": k} for k in chunk], "Quiet": True}
            )
        except Exception:  # noqa: BLE001
            log.warning("could not delete %d stale image objects", len(chunk))
            continue
        if answer.get("Errors"):  # DeleteObjects answers 200 and lists the keys it could not delete
            log.warning("could not delete %d stale image objects", len(answer["Errors"]))


def change_avatar(user, data: bytes):
    """Store both sizes, point the profile at them, then delete every avatar object it replaced.

    Parallel uploads (and removals) take turns on the profile: each swap is conditional on the keys
    it replaces and records them as stale in the same write, so every replaced object is known, and
    each request deletes all the stale ones before it answers (its own upload's objects too, if it
    cannot get its turn). An upload of an earlier request still in flight may write its objects
    later; that request deletes them itself before answering."""
    settings = get_settings()
    processed = process_image(
        data, field=PHOTO_FIELD, max_bytes=settings.avatar_max_bytes, max_pixels=settings.avatar_max_pixels
    )
    prefix = new_image_prefix("avatars", user.id)
    big_key, small_key = f"{prefix}/big.jpg", f"{prefix}/small.jpg"
    with aws.aws_unavailable_as_503("Image storage"):
        try:
            put_image(big_key, processed.big, processed.content_type)
            put_image(small_key, processed.small, processed.content_type)
            _swap_keys(user, big_key, small_key)
        except Exception:
            delete_quietly([big_key, small_key])
            raise
    _delete_stale(user, strict=False)
    return user


def _swap_keys(user, big_key: str, small_key: str) -> None:
    """Point the profile at the new keys, recording the replaced ones as stale, conditional on the
    keys read; another request's swap in between means: read and try again."""

    def swap(attempt: int) -> None:
        if attempt:
            user_store.reread(user)
        try:
            user_store.set_avatar_keys(user, big_key, small_key, utcnow())
        except store.Refused:
            raise TryAgain() from None

    try:
        retry(swap, attempts=SWAP_ATTEMPTS)
    except AttemptsSpent:
        raise Conflict("The avatar changed meanwhile, try again.") from None


def _delete_stale(user, *, strict: bool) -> None:
    """Delete the objects the profile recorded as replaced, then forget them. ``strict``: S3 trouble
    is a 503 (the keys stay recorded, so a retry deletes them); else it is logged, and the next
    change or removal of the avatar deletes them."""
    stale = sorted(user.stale_photo_keys or [])
    if not stale:
        return
    try:
        delete_images(stale)
    except Exception:
        if strict:
            raise
        log.warning("could not delete %d replaced avatar objects", len(stale))
        return
    user_store.forget_stale_avatar_keys(user, set(stale))


def delete_images(keys: list[str | None]) -> None:
    """Delete objects that must go (a removed avatar stays public at its URL otherwise).

    S3 down, or refusing some keys (DeleteObjects reports them in ``Errors``): 503."""
    keys = [key for key in keys if key]
    if not keys:
        return
    with aws.aws_unavailable_as_503("Image storage"):
        answer = aws.s3().delete_objects(
            Bucket=get_settings().avatar_bucket, Delete={"Objects": [{"Key": k} for k in keys], "Quiet": True}
        )
    codes = sorted({error.get("Code") or "unknown" for error in answer.get("Errors") or []})
    if codes:
        log.warning("could not delete %d image objects: %s", len(answer["Errors"]), ", ".join(codes))
        raise ServiceUnavailable("Image storage is unavailable, try again later.")


def remove_avatar(user):
    """Delete the objects first, then clear the profile's keys (conditional on the keys deleted): a
    failure in between is healed by a retry, whereas the other order would forget the keys of
    objects still public. An upload swapped in meanwhile: its objects go the same way. Last, the
    stale objects parallel uploads recorded; S3 down at any step: 503."""

    def clear(attempt: int) -> None:
        if attempt:
            user_store.reread(user)
        current = [key for key in (user.big_photo_key, user.photo_key) if key]
        if not current:
            return
        delete_images(current)
        try:
            user_store.clear_avatar_keys(user, utcnow())
        except store.Refused:
            raise TryAgain() from None

    try:
        retry(clear, attempts=SWAP_ATTEMPTS)
    except AttemptsSpent:
        raise Conflict("The avatar changed meanwhile, try again.") from None
    _delete_stale(user, strict=True)
    return user
