"""The day itself for a guest without the app, on their page: the pass (a QR code), the album, and adding a photo
with two plain forms (no script): one for a fresh upload form, one straight to S3, back to the page."""

from __future__ import annotations

import html
import re

import pytest
import requests

from chalicelib.models.events import Invitation, event_pk
from chalicelib.services.the_day import photos
from tests.utils import the_day
from tests.utils.factories import make_person, phone
from tests.utils.web import answer, form_token, invite_by_text, link_texted_to, page, post_form, text_of


@pytest.fixture
def invited(client, aws):
    """An event whose album is on, a guest invited by text who accepted on the page; it has started."""
    owner, number = make_person("Olive Owner"), phone()
    event = invite_by_text(client, owner, number, title="Noa & Lior \U0001f942 \u05d7\u05ea\u05d5\u05e0\u05d4")
    path = link_texted_to(number)
    assert answer(client, path, "accept").status_code == 303
    the_day.started(event["id"])
    return event["id"], owner, path


def _upload_form(page_html: str) -> tuple[str, dict]:
    action = html.unescape(re.search(r'<form method="post" action="(https://[^"]+)"', page_html).group(1))
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page_html))
    return action, {name: html.unescape(value) for name, value in fields.items()}


def test_a_going_guest_sees_their_pass_and_adds_a_photo_without_script(client, invited):
    event_id, owner, path = invited
    opened = page(client, path)
    shown = text_of(opened)
    assert "Your pass" in shown and "<svg" in shown
    guest_id = next(inv.user_id for inv in Invitation.query(event_pk(event_id)) if inv.role == "guest")
    assert re.search(rf'<p class="code">{guest_id}\.[A-Za-z0-9_-]{{22}}</p>', shown)
    assert "No photos yet." in shown and 'action="' in shown and "/photos" in shown
    asked = post_form(client, f"{path}/photos", {"csrf": form_token(shown)})
    assert asked.status_code == 200
    upload_page = text_of(asked)
    action, fields = _upload_form(upload_page)
    assert 'enctype="multipart/form-data"' in upload_page and 'name="file"' in upload_page
    assert fields["success_action_redirect"].endswith(f"{path}?uploaded=1")
    assert fields["key"].startswith(f"photo-uploads/{guest_id}/{event_id}/")
    policy = asked.headers["Content-Security-Policy"]
    assert re.search(r"form-action 'self' https://[^ ;]+", policy)
    # the browser posts the form to S3 (moto here), which sends it back to the page
    files = {"file": ("me.jpg", the_day_jpeg())}
    sent = requests.post(action, data=fields, files=files, timeout=5, allow_redirects=False)  # no network: moto
    assert sent.status_code == 303 and sent.headers["Location"].startswith(fields["success_action_redirect"])
    from app import process_photo_upload

    assert process_photo_upload(the_day.s3_event(fields["key"]), None) == ["processed"]
    back = page(client, f"{path}?uploaded=1&bucket=b&key=k&etag=e")
    again = text_of(back)
    assert "on its way to the album" in again
    thumbs = re.findall(r'<img src="([^"]+)" alt="A photo from the event"', again)
    assert len(thumbs) == 1 and "/thumb.jpg" in html.unescape(thumbs[0])
    origin = re.match(r"https://[^/]+", html.unescape(thumbs[0])).group(0)
    assert back.headers["Content-Security-Policy"].endswith(origin)  # img-src names the bucket
    with_token = {"Authorization": f"Bearer {owner.token}"}
    assert len(client.http.get(f"/events/{event_id}/photos", headers=with_token).json_body["results"]) == 1


def the_day_jpeg() -> bytes:
    from tests.utils.images import jpeg

    return jpeg(900, 600)


def test_a_guest_who_declined_sees_neither_pass_nor_album(client, aws):
    owner, number = make_person("Olive Owner"), phone()
    event = invite_by_text(client, owner, number)
    path = link_texted_to(number)
    assert answer(client, path, "decline").status_code == 303
    the_day.started(event["id"])
    shown = text_of(page(client, path))
    assert "Your pass" not in shown and "Photos" not in shown and "<svg" not in shown
    refused = post_form(client, f"{path}/photos", {"csrf": form_token(shown)})
    assert refused.status_code == 403 and photos.NOT_GOING in text_of(refused)


def test_before_the_start_the_album_says_when_it_opens_and_takes_nothing(client, invited):
    event_id, _, path = invited
    the_day.started(event_id, hours_ago=-3)
    shown = text_of(page(client, path))
    assert "The album opens when the event starts" in shown and "Add a photo" not in shown
    refused = post_form(client, f"{path}/photos", {"csrf": form_token(shown)})
    assert refused.status_code == 409 and "The album opens when the event starts." in text_of(refused)


def test_a_stale_form_gets_the_page_back_and_no_upload(client, invited):
    event_id, _, path = invited
    refused = post_form(client, f"{path}/photos", {"csrf": "spoiled"})
    assert refused.status_code == 403 and "nothing was uploaded" in text_of(refused)
    assert photos.photo_store.of_event(event_id) == []
