"""The event's cover on the guest page, in a real headless Chromium on `make run`'s local stack: the picture
loads under the page's Content-Security-Policy, and og:image is the 1024x536 JPEG card link previews take."""

from __future__ import annotations

import io

import pytest
import requests

from tests.utils.images import jpeg
from tests.utils.live_stack import LocalStack
from tests.utils.web import invite_on_live_stack

OWNER, GUEST = "+14155550170", "+14155550171"
PHONE_SCREEN = {"width": 390, "height": 844}


@pytest.mark.e2e
def test_the_guest_page_shows_the_cover_and_previews_its_card(chromium, tmp_path):
    from PIL import Image

    with LocalStack() as stack:
        owner = stack.login(OWNER, full_name="Olivia Host")
        event_id, found = invite_on_live_stack(stack, owner["auth_token"], GUEST, title="Rooftop")
        upload = requests.put(
            stack.url(f"/events/{event_id}/cover"),
            files={"photo": ("cover.jpg", jpeg(1600, 1200, noise=True), "image/jpeg")},
            headers={"Authorization": f"Bearer {owner['auth_token']}"},
            timeout=30,
        )
        assert upload.status_code == 200, upload.text
        cover_url = upload.json()["cover_url"]

        context = chromium.new_context(viewport=PHONE_SCREEN)
        page = context.new_page()
        blocked = []
        page.on("console", lambda message: blocked.append(message.text) if "Content Security" in message.text else 0)
        assert page.goto(found.group(0)).status == 200

        cover = page.locator("img.cover")
        assert cover.get_attribute("src") == cover_url
        cover.evaluate("image => image.decode()")  # waits until loaded; throws if it could not be
        assert cover.evaluate("image => [image.naturalWidth, image.naturalHeight]") == [1024, 768]
        assert cover.bounding_box()["width"] <= PHONE_SCREEN["width"]
        assert blocked == []
        card_url = page.locator('meta[property="og:image"]').get_attribute("content")
        card = requests.get(card_url, timeout=30)
        assert card.status_code == 200 and card.headers["Content-Type"] == "image/jpeg"
        assert Image.open(io.BytesIO(card.content)).size == (1024, 536)
        page.screenshot(path=str(tmp_path / "event-page-cover.png"), full_page=True)
        print(tmp_path / "event-page-cover.png")
