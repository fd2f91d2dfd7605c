"""The day itself in tests: an event that has started with its album on, guests who are going, photos as the
processing function leaves them, and S3's side of a presigned POST."""

from __future__ import annotations

from datetime import timedelta

from chalicelib import ids
from chalicelib.models.events import META_SK, Event, event_pk
from chalicelib.services.replies import replies
from chalicelib.services.the_day import photos
from chalicelib.store import photos as photo_store
from chalicelib.timeutil import utcnow


def started(event_id: int, *, hours_ago: float = 1, album: str = "guests") -> None:
    """Move the event's start ``hours_ago`` into the past and set its album (as an edit before would)."""
    Event(event_pk(event_id), META_SK).update(
        actions=[Event.event_date.set(utcnow() - timedelta(hours=hours_ago)), Event.album.set(album)]
    )


def going(event_id: int, *people) -> None:
    for person in people:
        replies.rsvp(person.user, event_id, accept=True, message=None)


def ready_photo(event_id: int, person, *, when=None):
    """A photo of ``person`` as processing leaves it (its objects are not written)."""
    photo_id = ids.new_id()
    key = photos.upload_key(person.user.id, event_id, photo_id)
    photo = photo_store.grant(
        event_id, person.user.id, photo_id, key, now=when or utcnow(), per_event=10_000, per_person=10_000
    )
    folder = photos.photo_folder(person.user.id, event_id, photo_id)
    photo_store.mark_ready(photo, f"{folder}/thumb.jpg", f"{folder}/photo.jpg")
    return photo_store.find(event_id, photo_id)


def going_after_invite(client, owner, event_id: int, person) -> None:
    """Invite ``person`` by the owner's edit and have them accept."""
    from tests.utils.api import post_json

    response = post_json(
        client, f"/events/{event_id}", {"invite_phone_numbers": [person.phone]}, owner.token, method="PATCH"
    )
    assert response.status_code == 200, response.body
    going(event_id, person)


def s3_event(*keys: str) -> dict:
    """S3's ObjectCreated notification of ``keys`` in the bucket, as Lambda hands it (keys URL-encoded)."""
    from urllib.parse import quote_plus

    from chalicelib.config import get_settings

    bucket = get_settings().avatar_bucket
    return {
        "Records": [
            {
                "eventSource": "aws:s3",
                "eventName": "ObjectCreated:Post",
                "s3": {"bucket": {"name": bucket}, "object": {"key": quote_plus(key, safe="/")}},
            }
            for key in keys
        ]
    }


def upload(person, event_id: int, data: bytes) -> str:
    """Grant ``person`` an upload and put ``data`` where its form would; the key."""
    from tests.utils.aws_env import aws_client

    grant = photos.grant_upload(person.user, event_id, "image/jpeg")
    key = grant.fields["key"]
    aws_client("s3").put_object(Bucket=photos.get_settings().avatar_bucket, Key=key, Body=data)
    return key


FOLDERS = (photos.PHOTO_FOLDER, photos.UPLOAD_FOLDER)  # a person's album objects, under their id


def stored_photos(event_id: int) -> list:
    """Every photo item of the event as stored (pending and ready), oldest first."""
    from chalicelib.models.events import PHOTO_PREFIX, Photo, event_pk

    return list(Photo.query(event_pk(event_id), Photo.sk.startswith(PHOTO_PREFIX), consistent_read=True))


def bucket_keys() -> set[str]:
    """The keys of every object in the bucket now."""
    from tests.utils.aws_env import aws_client

    answer = aws_client("s3").list_objects_v2(Bucket=photos.get_settings().avatar_bucket)
    return {item["Key"] for item in answer.get("Contents", [])}
