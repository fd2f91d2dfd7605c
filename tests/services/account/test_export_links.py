"""The export's download link works for the hour it states, and only for its owner's current export: a link to the
service that signs a fresh S3 URL each time it is opened (the role's temporary credentials could die within the
hour), unguessable, dead after its time, after another export and after the account's deletion."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from chalicelib.services.account import export_links
from chalicelib.store import photos as photo_store
from chalicelib.timeutil import utcnow
from tests.utils import the_day
from tests.utils.api import body, get, login
from tests.utils.avatars import AVATAR_BUCKET
from tests.utils.aws_env import aws_client
from tests.utils.factories import make_event, make_person
from tests.utils.web import PUBLIC_BASE

ME, OTHER = "+14155550881", "+14155550882"


def _ready_link(client, token: str) -> dict:
    assert client.http.post("/users/me/export", headers={"Authorization": f"Bearer {token}"}).status_code == 202
    ready = body(get(client, "/users/me/export", token))
    assert ready["status"] == "ready", ready
    return ready


def _open(client, url: str):
    """Open the link as a browser does: no bearer token."""
    return client.http.get(urlsplit(url).path)


def _file_at(location: str) -> dict:
    key = "exports/" + unquote(urlsplit(location).path).split("/exports/", 1)[1]
    return json.loads(aws_client("s3").get_object(Bucket=AVATAR_BUCKET, Key=key)["Body"].read())


def _later(monkeypatch, seconds: float) -> None:
    moment = utcnow() + timedelta(seconds=seconds)
    monkeypatch.setattr(export_links, "utcnow", lambda: moment)


def test_the_link_names_the_service_and_each_opening_signs_a_fresh_short_download(client):
    me = login(client, ME, full_name="Mia Me")
    ready = _ready_link(client, me["auth_token"])
    assert ready["url"].startswith(f"{PUBLIC_BASE}/users/me/export/")
    opened = _open(client, ready["url"])
    assert opened.status_code == 303 and opened.headers["Cache-Control"] == "no-store"
    location = opened.headers["Location"]
    assert parse_qs(urlsplit(location).query)["X-Amz-Expires"] == [str(export_links.DOWNLOAD_SECONDS)]
    assert _file_at(location)["profile"]["full_name"] == "Mia Me"


def test_the_link_works_until_the_time_it_states_and_not_after(client, monkeypatch):
    me = login(client, ME)
    ready = _ready_link(client, me["auth_token"])
    stated = datetime.strptime(ready["expires_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert timedelta(minutes=59) < stated - utcnow() <= timedelta(hours=1)
    _later(monkeypatch, export_links.LINK_SECONDS - 5)  # the hour is nearly over: still a fresh download
    assert _open(client, ready["url"]).status_code == 303
    _later(monkeypatch, export_links.LINK_SECONDS + 1)
    expired = _open(client, ready["url"])
    assert expired.status_code == 404 and "Location" not in expired.headers


@pytest.mark.parametrize("spoil", ["signature", "user", "expiry", "garbage", "long"])
def test_a_changed_or_made_up_token_opens_nothing(client, spoil):
    me, other = login(client, ME), login(client, OTHER)
    _ready_link(client, other["auth_token"])
    url = _ready_link(client, me["auth_token"])["url"]
    user_id, nonce, expires, signature = url.rsplit("/", 1)[1].split(".")
    token = {
        "signature": f"{user_id}.{nonce}.{expires}.{'0' * 64}",
        "user": f"{other['id']}.{nonce}.{expires}.{signature}",  # my signature does not open someone else's
        "expiry": f"{user_id}.{nonce}.{int(expires) + 86400}.{signature}",
        "garbage": "not-a-token",
        "long": "1." * 400,
    }[spoil]
    refused = client.http.get(f"/users/me/export/{token}")
    assert refused.status_code == 404 and body(refused) == {"detail": "Not found."}
    assert "Location" not in refused.headers


def test_a_newer_export_retires_the_older_link(client):
    me = login(client, ME)
    first = _ready_link(client, me["auth_token"])["url"]
    second = _ready_link(client, me["auth_token"])["url"]
    assert _open(client, first).status_code == 404 and _open(client, second).status_code == 303


def test_the_link_dies_with_the_account(client):
    me = login(client, ME)
    url = _ready_link(client, me["auth_token"])["url"]
    assert (
        client.http.request("DELETE", "/users/me", headers={"Authorization": f"Bearer {me['auth_token']}"}).status_code
        == 204
    )
    assert _open(client, url).status_code == 404


def _file_with_a_photo(client) -> tuple[dict, object, str]:
    """A guest who added a photo to an album exports their data: (the file, the photo, the guest's token)."""
    owner, guest = make_person("Olive Owner"), make_person("Gus Guest")
    event = make_event(owner, guest)
    the_day.started(event.id)
    the_day.going(event.id, guest)
    photo = the_day.ready_photo(event.id, guest)
    ready = _ready_link(client, guest.token)
    return _file_at(_open(client, ready["url"]).headers["Location"]), photo, guest.token


def _query(url: str) -> dict:
    return parse_qs(urlsplit(url).query)


def test_the_photo_links_in_the_file_name_the_service_and_each_opening_signs_a_fresh_short_download(client):
    exported, photo, _ = _file_with_a_photo(client)
    [added] = exported["photos_added"]
    assert added["id"] == photo.id
    for field, key in (("thumb_url", photo.thumb_key), ("url", photo.big_key)):
        link = added[field]
        assert link.startswith(f"{PUBLIC_BASE}/users/me/export/photos/")
        assert _query(link) == {}  # no signature, expiry or session token: nothing in it can run out
        opened = _open(client, link)
        assert opened.status_code == 303 and opened.headers["Cache-Control"] == "no-store"
        location = opened.headers["Location"]
        assert unquote(urlsplit(location).path).endswith(key)
        assert _query(location)["X-Amz-Expires"] == [str(export_links.DOWNLOAD_SECONDS)]


def test_a_photo_link_still_opens_hours_later_while_the_file_is_kept(client, monkeypatch):
    exported, _, _ = _file_with_a_photo(client)
    link = exported["photos_added"][0]["url"]
    _later(monkeypatch, 6 * 3600)  # any credentials a worker signed with then are long gone
    assert _open(client, link).status_code == 303
    _later(monkeypatch, 86400 + 1)  # the file itself is gone (the bucket's lifecycle rule)
    assert _open(client, link).status_code == 404


def test_a_photo_link_dies_with_a_newer_export_a_removed_photo_or_a_changed_token(client):
    exported, photo, token = _file_with_a_photo(client)
    link = exported["photos_added"][0]["thumb_url"]
    user_id, nonce, event_id, photo_id, size, signature = link.rsplit("/", 1)[1].split(".")
    spoiled = [
        f"{user_id}.{nonce}.{event_id}.{photo_id}.big.{signature}",  # the signature names the size
        f"{user_id}.{nonce}.{event_id}.{int(photo_id) + 1}.{size}.{signature}",
        f"{user_id}.{nonce}.{event_id}.{photo_id}.{size}.{'0' * 64}",
        "not-a-token",
    ]
    for made_up in spoiled:
        refused = client.http.get(f"/users/me/export/photos/{made_up}")
        assert refused.status_code == 404 and "Location" not in refused.headers
    assert _open(client, link).status_code == 303
    photo_store.remove(photo)
    assert _open(client, link).status_code == 404


def test_a_newer_export_retires_the_photo_links_of_the_older_file(client):
    exported, _, token = _file_with_a_photo(client)
    _ready_link(client, token)
    assert _open(client, exported["photos_added"][0]["url"]).status_code == 404
