"""Avatars: sniffed, resized and stripped by `images`, stored in S3 under unguessable keys."""

from __future__ import annotations

import logging
import secrets

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.errors import PayloadTooLarge, ServiceUnavailable, ValidationError
from chalicelib.models.users import User
from chalicelib.services.users import update_profile

log = logging.getLogger("invites")
PHOTO_FIELD = "photo"
NO_FILE = "No file was submitted."
TOO_MANY_PARTS = "Too many parts."


def photo_from_multipart(content_type: str, body: bytes | str) -> bytes:
    """The bytes of the ``photo`` part of a multipart/form-data body.

    The parts are counted (one C-speed scan for the boundary) before the body is parsed: the standard
    library's parser builds a message per part and parses its headers through the email header registry,
    about 0.1-0.4 ms a part, so 80,000 tiny parts took 10-30 s. More than ``MULTIPART_MAX_PARTS``: 400.
    """
    from email.message import Message
    from email.parser import BytesParser
    from email.policy import HTTP

    settings = get_settings()
    if isinstance(body, str):
        body = body.encode("latin-1")
    if len(body) > settings.avatar_max_bytes + 64 * 1024:
        raise PayloadTooLarge(f"File too large. Maximum size is {settings.avatar_max_bytes // (1024 * 1024)} MB.")
    header = Message()
    header["Content-Type"] = content_type
    boundary = header.get_param("boundary")
    if not isinstance(boundary, str) or not boundary:
        raise ValidationError.field(PHOTO_FIELD, NO_FILE)
    # Each part opens with "--boundary", and the body closes with "--boundary--" (RFC 2046, 5.1.1).
    if body.count(b"--" + boundary.encode("latin-1", "replace")) > settings.multipart_max_parts + 1:
        raise ValidationError({"non_field_errors": [TOO_MANY_PARTS]})
    message = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1", "replace") + b"\r\n\r\n" + body
    )
    if not message.is_multipart():
        raise ValidationError.field(PHOTO_FIELD, NO_FILE)
    for part in message.iter_parts():
        if part.get_param("name", header="content-disposition") == PHOTO_FIELD:
            data = part.get_payload(decode=True)
            if data:
                return data
    raise ValidationError.field(PHOTO_FIELD, NO_FILE)


def new_image_prefix(folder: str, owner_id: int) -> str:
    """An unguessable key prefix for ``owner_id``'s images: ``<folder>/<owner>/<128 random bits>``."""
    return f"{folder}/{owner_id}/{secrets.token_urlsafe(16)}"


def put_image(key: str, data: bytes, content_type: str) -> None:
    """Store one image object (immutable: every new image gets a new key)."""
    aws.s3().put_object(
        Bucket=get_settings().avatar_bucket,
        Key=key,
        Body=data,
        ContentType=content_type,
        CacheControl="public, max-age=31536000, immutable",
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


def change_avatar(user: User, data: bytes) -> User:
    """Store both sizes, then point the profile at them; the old images go last."""
    from chalicelib.services.images import process_image

    settings = get_settings()
    processed = process_image(
        data, field=PHOTO_FIELD, max_bytes=settings.avatar_max_bytes, max_pixels=settings.avatar_max_pixels
    )
    prefix = new_image_prefix("avatars", user.id)
    big_key, small_key = f"{prefix}/big.jpg", f"{prefix}/small.jpg"
    old_keys = [user.big_photo_key, user.photo_key]
    with aws.aws_unavailable_as_503("Image storage"):
        try:
            put_image(big_key, processed.big, processed.content_type)
            put_image(small_key, processed.small, processed.content_type)
            update_profile(user, {"big_photo_key": big_key, "photo_key": small_key})
        except Exception:
            delete_quietly([big_key, small_key])
            raise
    delete_quietly(old_keys)
    return user


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


def remove_avatar(user: User) -> User:
    """Delete the objects first, then clear the profile: a failure in between is healed by a retry,
    whereas the other order would forget the keys of objects still public."""
    old_keys = [user.big_photo_key, user.photo_key]
    if any(old_keys):
        delete_images(old_keys)
        update_profile(user, {"big_photo_key": None, "photo_key": None})
    return user
