"""PUT and DELETE /events/{id}/cover: the event's picture through the avatars' pipeline, shown as cover_url and
on the guest page (og:image: its link-preview card), gone with the event and with the owner's account."""

from __future__ import annotations

import io
import re

import boto3
import pytest

from chalicelib.models.events import Invitation
from chalicelib.services.media.avatars import IMAGE_CACHE_CONTROL
from tests.utils.api import body, get, post_event
from tests.utils.avatars import AVATAR_BUCKET, CDN, multipart, stored_objects
from tests.utils.factories import make_person, phone, put
from tests.utils.images import jpeg, png
from tests.utils.web import link_texted_to, page


def _upload(client, person, event_id, data: bytes, **part):
    payload, headers = multipart(data, **part)
    headers["Authorization"] = f"Bearer {person.token}"
    return client.http.request("PUT", f"/events/{event_id}/cover", body=payload, headers=headers)


def _remove(client, person, event_id):
    return client.http.request(
        "DELETE", f"/events/{event_id}/cover", headers={"Authorization": f"Bearer {person.token}"}
    )


def _event(client, owner, *numbers, **fields) -> int:
    created = post_event(client, owner, invite_phone_numbers=list(numbers), **fields)
    assert created.status_code == 201, created.body
    return body(created)["id"]


def _object(url: str):
    return boto3.client("s3", region_name="us-east-1").get_object(Bucket=AVATAR_BUCKET, Key=url[len(CDN) :])


def _covers() -> list[str]:
    return [key for key in stored_objects() if key.startswith("covers/")]


def _make_cohost(event_id: int, person) -> None:
    invitation = next(
        inv for inv in Invitation.query(f"EVENT#{event_id}") if getattr(inv, "user_id", None) == person.id
    )
    invitation.update(actions=[Invitation.cohost.set(True)])


def test_the_host_sets_a_cover_everyone_in_the_event_sees(client):
    from PIL import Image

    alice, bob = make_person("Alice"), make_person("Bob")
    event_id = _event(client, alice, bob.phone)
    assert body(get(client, f"/events/{event_id}", bob.token))["cover_url"] is None

    response = _upload(client, alice, event_id, jpeg(2000, 1500, noise=True))

    assert response.status_code == 200
    url = body(response)["cover_url"]
    assert url.startswith(f"{CDN}covers/{alice.id}/")
    stored = _object(url)
    assert stored["ContentType"] == "image/jpeg" and stored["CacheControl"] == IMAGE_CACHE_CONTROL
    assert Image.open(io.BytesIO(stored["Body"].read())).size == (1024, 768)
    assert body(get(client, f"/events/{event_id}", bob.token))["cover_url"] == url
    assert body(get(client, "/events", bob.token))["results"][0]["cover_url"] == url
    card = [key for key in _covers() if key.endswith("/card.jpg")]
    assert len(card) == 1
    card_bytes = boto3.client("s3", region_name="us-east-1").get_object(Bucket=AVATAR_BUCKET, Key=card[0])["Body"]
    assert Image.open(io.BytesIO(card_bytes.read())).size == (1024, 536)


def test_a_cohost_may_set_it_a_guest_may_not_and_a_stranger_sees_no_event(client):
    alice, bob, cohost, stranger = (make_person(name) for name in ("Alice", "Bob", "Cohost", "Stranger"))
    event_id = _event(client, alice, bob.phone, cohost.phone)
    _make_cohost(event_id, cohost)
    assert _upload(client, bob, event_id, jpeg()).status_code == 403
    assert _remove(client, bob, event_id).status_code == 403
    assert _upload(client, stranger, event_id, jpeg()).status_code == 404
    assert _remove(client, stranger, event_id).status_code == 404
    assert _covers() == []
    assert _upload(client, cohost, event_id, jpeg()).status_code == 200
    assert len(_covers()) == 2 and all(key.startswith(f"covers/{alice.id}/") for key in _covers())


def test_a_new_cover_deletes_the_old_objects_and_delete_removes_it(client):
    alice = make_person("Alice")
    event_id = _event(client, alice)
    first = body(_upload(client, alice, event_id, jpeg(300, 200)))["cover_url"]
    second = body(_upload(client, alice, event_id, png(300, 200)))["cover_url"]
    assert first != second
    assert sorted(_covers()) == sorted([second[len(CDN) :], second[len(CDN) :].replace("cover.jpg", "card.jpg")])

    removed = _remove(client, alice, event_id)

    assert removed.status_code == 200 and body(removed)["cover_url"] is None
    assert _covers() == []
    assert body(get(client, f"/events/{event_id}", alice.token))["cover_url"] is None
    assert _remove(client, alice, event_id).status_code == 200  # nothing to remove: the same answer


@pytest.mark.parametrize(
    ("data", "part", "status", "answer"),
    [
        (
            b"GIF89a not a photo",
            {},
            400,
            {"photo": ["Upload a valid image. The file you uploaded was either not an image or a corrupted image."]},
        ),
        (jpeg(), {"field": "picture"}, 400, {"photo": ["No file was submitted."]}),
    ],
)
def test_what_is_not_a_photo_is_refused_by_field_and_nothing_is_stored(client, data, part, status, answer):
    alice = make_person("Alice")
    event_id = _event(client, alice)
    refused = _upload(client, alice, event_id, data, **part)
    assert (refused.status_code, body(refused)) == (status, answer)
    assert _covers() == [] and body(get(client, f"/events/{event_id}", alice.token))["cover_url"] is None


def test_the_avatar_limits_hold(client, override_settings):
    override_settings(avatar_max_pixels=100 * 100)
    alice = make_person("Alice")
    event_id = _event(client, alice)
    refused = _upload(client, alice, event_id, jpeg(101, 100))
    assert refused.status_code == 400 and list(body(refused)) == ["photo"]
    override_settings(avatar_max_bytes=1000)
    assert _upload(client, alice, event_id, jpeg(90, 90, noise=True)).status_code == 413
    assert _covers() == []


def test_s3_down_is_503_with_retry_after_and_changes_nothing(client, fail_aws):
    alice = make_person("Alice")
    event_id = _event(client, alice)
    url = body(_upload(client, alice, event_id, jpeg()))["cover_url"]
    fail_aws("s3", "PutObject", "ServiceUnavailable")
    refused = _upload(client, alice, event_id, jpeg(80, 60))
    assert refused.status_code == 503 and refused.headers.get("Retry-After")
    assert body(get(client, f"/events/{event_id}", alice.token))["cover_url"] == url
    fail_aws("s3", "DeleteObjects", "ServiceUnavailable")
    refused = _remove(client, alice, event_id)
    assert refused.status_code == 503 and refused.headers.get("Retry-After")
    assert body(get(client, f"/events/{event_id}", alice.token))["cover_url"] == url


def test_a_cancelled_event_takes_no_new_cover(client):
    alice = make_person("Alice")
    event_id = _event(client, alice)
    assert put(client, f"/events/{event_id}/cancel_event", alice.token).status_code == 204
    assert _upload(client, alice, event_id, jpeg()).status_code == 409
    assert _covers() == []


def test_the_guest_page_shows_it_and_previews_its_card(client):
    alice, number = make_person("Alice"), phone(8901)
    event_id = _event(client, alice, number, title="Rooftop")
    url = body(_upload(client, alice, event_id, jpeg(1600, 1200)))["cover_url"]

    shown = page(client, link_texted_to(number))

    html = shown.body.decode()
    assert f'<img class="cover" src="{url}" alt="">' in html
    tags = dict(re.findall(r'<meta property="(og:image[^"]*)" content="([^"]*)">', html))
    assert tags == {
        "og:image": url.replace("cover.jpg", "card.jpg"),
        "og:image:type": "image/jpeg",
        "og:image:width": "1024",
        "og:image:height": "536",
        "og:image:alt": "Rooftop",
    }
    assert f"img-src {CDN.rstrip('/')}" in shown.headers["Content-Security-Policy"]


def test_a_page_without_a_cover_has_no_picture(client):
    alice, number = make_person("Alice"), phone(8902)
    _event(client, alice, number)
    html = page(client, link_texted_to(number)).body.decode()
    assert "<img" not in html and "og:image" not in html


def test_the_owners_account_deletion_deletes_the_covers(client):
    alice = make_person("Alice")
    event_id = _event(client, alice)
    _upload(client, alice, event_id, jpeg())
    assert len(_covers()) == 2
    deleted = client.http.request("DELETE", "/users/me", headers={"Authorization": f"Bearer {alice.token}"})
    assert deleted.status_code == 204
    assert _covers() == []


def test_a_change_costs_one_query_one_write_and_the_people_read(client, aws):
    alice = make_person("Alice")
    event_id = _event(client, alice)
    _upload(client, alice, event_id, jpeg())
    aws.reset()
    assert _upload(client, alice, event_id, jpeg(80, 60)).status_code == 200
    # beyond the caller's token and invitation (one BatchGetItem): the event, the conditional write, the
    # people shown
    assert aws.of("dynamodb") == {"Query": 1, "UpdateItem": 1, "BatchGetItem": 2}
