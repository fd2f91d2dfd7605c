"""An event's shared album: granting an upload, the album's pages, removing a photo, and the album going with
its event. No chalice imports.

The bytes never pass through the API: ``POST /events/{id}/photos`` stores a pending photo (counted against
the event's PHOTOS_PER_EVENT and the uploader's PHOTOS_PER_PERSON in one transaction) and answers a
presigned S3 POST whose policy binds the key, the type and the size. The upload lands under
``photo-uploads/<uploader>/<event>/<photo>``; the ``process_photo_upload`` function (services/the_day/photo_uploads.py)
turns it into two JPEGs under ``photos/<uploader>/<event>/<photo>/`` and marks the photo ready, or deletes
it. Both folders start with the uploader's id, so deleting their account deletes every version of them
(services/account/account_deletion.py). The JPEGs are private: the album answers presigned GETs, valid one hour.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from chalicelib import aws, ids, store
from chalicelib.config import get_settings
from chalicelib.domain import the_day
from chalicelib.domain.roles import Action, is_host, role_of
from chalicelib.errors import Conflict, NotFound, PermissionDenied
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.services.participants.event_reads import permitted_view
from chalicelib.services.the_day.album_words import (
    ALBUM_CHANGED,
    ALBUM_WORDS,
    EVENT_FULL,
    NOT_GOING,
    PERSON_FULL,
    PHOTOS_PER_EVENT,
    PHOTOS_PER_PERSON,
)
from chalicelib.store import photos as photo_store
from chalicelib.store.records import Photo
from chalicelib.timeutil import format_datetime, utcnow

UPLOAD_FOLDER = "photo-uploads"
PHOTO_FOLDER = "photos"
PHOTO_TYPES = ("image/jpeg", "image/png", "image/webp")
MAX_UPLOAD_BYTES = 15 * 1024 * 1024
UPLOAD_SECONDS = 15 * 60  # a grant's presigned POST works this long; a pending photo older is given back
URL_SECONDS = 3600  # the album's presigned GETs
PAGE_SIZE = 30
THUMB_NAME, PHOTO_NAME = "thumb.jpg", "photo.jpg"  # the two JPEGs in a photo's folder
GRANT_ATTEMPTS = 4


@dataclass(frozen=True)
class UploadGrant:
    photo_id: int
    url: str  # where the form is posted
    fields: dict  # the form's fields, in this order, before the file (which comes last)
    expires_at: str


def upload_key(user_id: int, event_id: int, photo_id: int) -> str:
    return f"{UPLOAD_FOLDER}/{user_id}/{event_id}/{photo_id}"


def photo_folder(user_id: int, event_id: int, photo_id: int) -> str:
    return f"{PHOTO_FOLDER}/{user_id}/{event_id}/{photo_id}"


def _going_view(caller, event_id: int, action: Action):
    """The event, once the caller's role permits ``action`` and they are a host or going (a guest who is not: 403)."""
    view = permitted_view(caller, event_id, action)
    mine = view.invitation_of(caller.id)
    if not is_host(role_of(mine)) and not the_day.is_going(mine):
        raise PermissionDenied(NOT_GOING)
    return view


def grant_upload(caller, event_id: int, content_type: str, *, redirect: str | None = None) -> UploadGrant:
    """A pending photo and the presigned POST that uploads it (the album must be open: 409 otherwise; 409 at
    the event's or the person's limit). ``redirect``: where S3 sends a browser after the upload (the page form)."""
    view = _going_view(caller, event_id, Action.ADD_PHOTOS)
    now = utcnow()
    state = the_day.album_state(view.event, now)
    if state != "open":
        raise Conflict(ALBUM_WORDS[state])
    photo_id = ids.new_id()
    key = upload_key(caller.id, event_id, photo_id)

    def attempt(number: int) -> None:
        try:
            photo_store.grant(
                event_id,
                caller.id,
                photo_id,
                key,
                now=now,
                per_event=PHOTOS_PER_EVENT,
                per_person=PHOTOS_PER_PERSON,
            )
        except store.Contended:
            raise TryAgain() from None
        except store.Refused as refused:
            if refused.item_failed(photo_store.PERSON_POSITION):
                if number == 0 and _give_back_lapsed(caller.id, event_id):
                    raise TryAgain() from None
                raise Conflict(PERSON_FULL) from None
            raise Conflict(EVENT_FULL if not view.event.cancelled else ALBUM_WORDS["closed"]) from None

    try:
        retry(attempt, attempts=GRANT_ATTEMPTS)
    except AttemptsSpent:
        raise Conflict(ALBUM_CHANGED) from None
    return _presigned_post(key, content_type, redirect, now)


def _give_back_lapsed(user_id: int, event_id: int) -> bool:
    """Remove the person's pending photos whose upload window has passed; True when any went."""
    cutoff = utcnow() - timedelta(seconds=UPLOAD_SECONDS + 60)
    lapsed = [
        photo
        for photo in photo_store.of_event(event_id, user_id=user_id, state=photo_store.PENDING)
        if photo.created < cutoff
    ]
    return any([photo_store.remove(photo) for photo in lapsed])


def _presigned_post(key: str, content_type: str, redirect: str | None, now) -> UploadGrant:
    fields = {"Content-Type": content_type}
    conditions: list = [{"Content-Type": content_type}, ["content-length-range", 1, MAX_UPLOAD_BYTES]]
    if redirect:
        fields["success_action_redirect"] = redirect
        conditions.append({"success_action_redirect": redirect})
    with aws.aws_unavailable_as_503("Image storage"):
        signed = aws.s3().generate_presigned_post(
            Bucket=get_settings().avatar_bucket, Key=key, Fields=fields, Conditions=conditions, ExpiresIn=UPLOAD_SECONDS
        )
    photo_id = int(key.rsplit("/", 1)[1])
    expires = format_datetime(now + timedelta(seconds=UPLOAD_SECONDS))
    return UploadGrant(photo_id=photo_id, url=signed["url"], fields=signed["fields"], expires_at=expires)


def album_page(caller, event_id: int, before_id: int | None) -> tuple[list[Photo], int | None]:
    """Ready photos, newest first, PAGE_SIZE a page; and the next page's cursor."""
    _going_view(caller, event_id, Action.SEE_PHOTOS)
    return photo_store.page(event_id, before_id=before_id, size=PAGE_SIZE)


def photo_urls(photo: Photo) -> tuple[str, str]:
    """Presigned GETs of the photo's two JPEGs (signed here: no call to S3)."""
    s3, bucket = aws.s3(), get_settings().avatar_bucket
    return tuple(
        s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": key}, ExpiresIn=URL_SECONDS)
        for key in (photo.thumb_key, photo.big_key)
    )


def photo_json(photo: Photo) -> dict:
    thumb_url, url = photo_urls(photo)
    return {
        "id": photo.id,
        "user_id": photo.user_id,
        "thumb_url": thumb_url,
        "url": url,
        "created_at": format_datetime(photo.created),
    }


def remove_photo(caller, event_id: int, photo_id: int) -> None:
    """The uploader or a host (anyone else in the event: 403; no such photo: 404). Objects first, then the item."""
    view = permitted_view(caller, event_id, Action.REMOVE_PHOTO)
    photo = photo_store.find(event_id, photo_id)
    if photo is None or photo.state != photo_store.READY:
        raise NotFound()
    if photo.user_id != caller.id and not is_host(role_of(view.invitation_of(caller.id))):
        raise PermissionDenied()
    delete_photos([photo])


def delete_photos(photos: list[Photo]) -> None:
    """Delete the photos' objects (S3 down: 503, the items stay for a retry), then their items and counts."""
    from chalicelib.services.media.avatars import delete_images  # S3 deletion with its 503

    keys = [key for photo in photos for key in _object_keys(photo)]
    for start in range(0, len(keys), 1000):
        delete_images(keys[start : start + 1000])
    for photo in photos:
        photo_store.remove(photo)


def _object_keys(photo: Photo) -> list[str]:
    """Every object a photo may have: its upload, and its two JPEGs (named even while pending, so a processing
    that finishes after the removal began leaves nothing the removal missed but a race's last write)."""
    folder = photo_folder(photo.user_id, photo_store.event_id_of_photo(photo), photo.id)
    return [photo.upload_key, f"{folder}/{THUMB_NAME}", f"{folder}/{PHOTO_NAME}"]


@dataclass(frozen=True)
class PageGuest:
    """The guest of a page link, as the album's rules see a caller (the link is their credential)."""

    id: int


def page_album(event, invitation, now) -> tuple[list[dict], str] | None:
    """A going guest's page: the album's newest photos and its state (``open``, ...); None when the guest is
    not going or the event has no album."""
    if not the_day.is_going(invitation) or the_day.album_state(event, now) == "off":
        return None
    found, _ = photo_store.page(event.id, before_id=None, size=PAGE_SIZE)
    return [photo_json(photo) for photo in found], the_day.album_state(event, now)


def remove_album(event) -> None:
    """Every photo of the event, with the event's cancel (its album goes with it)."""
    if int(event.photo_count or 0) > 0:
        delete_photos(photo_store.of_event(event.id))
