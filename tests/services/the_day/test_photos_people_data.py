"""Album photos follow people's data rights: they are in the uploader's export, and go with their account
(every S3 version) and with the event."""

from __future__ import annotations

import pytest

from chalicelib.config import get_settings
from chalicelib.models.events import META_SK, Event, event_pk
from chalicelib.services.account import account_deletion, data_export
from chalicelib.timeutil import utcnow
from tests.utils import the_day
from tests.utils.aws_env import aws_client
from tests.utils.factories import make_event, make_person


@pytest.fixture
def album(aws):
    owner, guest = make_person("Olive Owner"), make_person("Gus Guest")
    event = make_event(owner, guest)
    the_day.started(event.id)
    the_day.going(event.id, guest)
    return event.id, owner, guest


def test_the_export_lists_the_photos_the_person_added_newest_first(album):
    event_id, owner, guest = album
    first, second = the_day.ready_photo(event_id, guest), the_day.ready_photo(event_id, guest)
    the_day.ready_photo(event_id, owner)  # someone else's
    the_day.upload(guest, event_id, b"not processed yet")  # pending: not a photo yet
    link = lambda photo, size: f"https://invites.example/users/me/export/photos/{photo.id}-{size}"  # noqa: E731
    exported = data_export.collect(guest.user, utcnow(), link)["photos_added"]
    assert [(item["event_id"], item["id"]) for item in exported] == [(event_id, second.id), (event_id, first.id)]
    assert (exported[0]["url"], exported[0]["thumb_url"]) == (link(second, "big"), link(second, "thumb"))
    assert data_export.collect(make_person("Nobody").user, utcnow())["photos_added"] == []


def test_deleting_the_uploader_s_account_removes_their_photos_and_every_version(album):
    event_id, owner, guest = album
    s3, bucket = aws_client("s3"), get_settings().avatar_bucket
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    kept = the_day.ready_photo(event_id, guest)
    for key in (kept.thumb_key, kept.big_key, kept.big_key):  # the last: a second version
        s3.put_object(Bucket=bucket, Key=key, Body=b"jpeg")
    the_day.upload(guest, event_id, b"never processed")
    owners_photo = the_day.ready_photo(event_id, owner)
    account_deletion.delete_account(guest.user)

    def versions(user_id: int) -> int:
        pages = [s3.list_object_versions(Bucket=bucket, Prefix=f"{f}/{user_id}/") for f in the_day.FOLDERS]
        return sum(len(page.get("Versions", [])) + len(page.get("DeleteMarkers", [])) for page in pages)

    assert versions(guest.id) == 0
    assert [photo.id for photo in the_day.stored_photos(event_id)] == [owners_photo.id]
    assert Event.get(event_pk(event_id), META_SK).photo_count == 1


def test_deleting_the_owner_s_account_takes_the_album_of_their_events_everyone_s_photos(album):
    event_id, owner, guest = album
    s3, bucket = aws_client("s3"), get_settings().avatar_bucket
    photo = the_day.ready_photo(event_id, guest)
    for key in (photo.thumb_key, photo.big_key):
        s3.put_object(Bucket=bucket, Key=key, Body=b"jpeg")
    account_deletion.delete_account(owner.user)
    assert s3.list_objects_v2(Bucket=bucket, Prefix=f"photos/{guest.id}/").get("Contents", []) == []
    assert the_day.stored_photos(event_id) == []
