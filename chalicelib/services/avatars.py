"""Avatars: sniffed, resized and stripped by `images`, stored in S3 under unguessable keys."""

from __future__ import annotations

import logging
import re
import secrets

from pynamodb.exceptions import UpdateError

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.errors import Conflict, PayloadTooLarge, ServiceUnavailable, ValidationError
from chalicelib.models.users import User
from chalicelib.store.conditions import condition_failed
from chalicelib.timeutil import utcnow

log = logging.getLogger("invites")
PHOTO_FIELD = "photo"
NO_FILE = "No file was submitted."
SWAP_ATTEMPTS = 12  # parallel uploads of one user take turns; each turn lets one through
TOO_MANY_PARTS = "Too many parts."
NESTED_MULTIPART = "Nested multipart bodies are not accepted."
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_FOLDED = re.compile(rb"\r?\n[ \t]+")


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
    if _has_nested_multipart(body, boundary.encode("latin-1", "replace")):
        raise ValidationError({"non_field_errors": [NESTED_MULTIPART]})
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


def _has_nested_multipart(body: bytes, boundary: bytes) -> bool:
    """Whether a part of ``body`` (already known to have few) declares a ``multipart/*`` type of its own.

    The standard library's parser walks nested parts however many there are, and only the outer ones
    are counted, so such a part is refused from its headers alone, before anything is parsed."""
    for part in body.split(b"--" + boundary)[1:]:
        headers = _FOLDED.sub(b" ", _HEADER_END.split(part, maxsplit=1)[0])
        for line in headers.splitlines():
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-type" and value.strip().lower().startswith(b"multipart/"):
                return True
    return False


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
    """Store both sizes, point the profile at them, then delete every avatar object it replaced.

    Parallel uploads (and removals) take turns on the profile: each swap is conditional on the keys
    it replaces and records them as stale in the same write, so every replaced object is known, and
    each request deletes all the stale ones before it answers (its own upload's objects too, if it
    cannot get its turn). An upload of an earlier request still in flight may write its objects
    later; that request deletes them itself before answering."""
    from chalicelib.services.images import process_image

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


def _same_keys(user: User):
    condition = User.pk.exists()
    for attribute, value in ((User.big_photo_key, user.big_photo_key), (User.photo_key, user.photo_key)):
        condition &= attribute.does_not_exist() if value is None else attribute == value
    return condition


def _swap_keys(user: User, big_key: str, small_key: str) -> None:
    """Point the profile at the new keys, recording the replaced ones as stale, conditional on the
    keys read; another request's swap in between means: read and try again."""
    for attempt in range(SWAP_ATTEMPTS):
        if attempt:
            user.refresh(consistent_read=True)
        replaced = {key for key in (user.big_photo_key, user.photo_key) if key}
        actions = [User.big_photo_key.set(big_key), User.photo_key.set(small_key), User.modified.set(utcnow())]
        if replaced:
            actions.append(User.stale_photo_keys.add(replaced))
        try:
            user.update(actions=actions, condition=_same_keys(user))  # refreshes ``user`` from the answer
            return
        except UpdateError as exc:
            if not condition_failed(exc):
                raise
    raise Conflict("The avatar changed meanwhile, try again.")


def _delete_stale(user: User, *, strict: bool) -> None:
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
    user.update(actions=[User.stale_photo_keys.delete(set(stale))], condition=User.pk.exists())


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
    """Delete the objects first, then clear the profile's keys (conditional on the keys deleted): a
    failure in between is healed by a retry, whereas the other order would forget the keys of
    objects still public. An upload swapped in meanwhile: its objects go the same way. Last, the
    stale objects parallel uploads recorded; S3 down at any step: 503."""
    for attempt in range(SWAP_ATTEMPTS):
        if attempt:
            user.refresh(consistent_read=True)
        current = [key for key in (user.big_photo_key, user.photo_key) if key]
        if not current:
            break
        delete_images(current)
        actions = [User.big_photo_key.remove(), User.photo_key.remove(), User.modified.set(utcnow())]
        try:
            user.update(actions=actions, condition=_same_keys(user))
            break
        except UpdateError as exc:
            if not condition_failed(exc):
                raise
    else:
        raise Conflict("The avatar changed meanwhile, try again.")
    _delete_stale(user, strict=True)
    return user
