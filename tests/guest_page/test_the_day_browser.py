"""A going guest's page on the day, in a real headless Chromium on a phone-sized screen, with and without script:
the pass's QR code is whole and square, the album's thumbnails sit in a grid inside the screen, the "Add a
photo" button is as easy to hit as the others, and the upload page's file field and button fit. The pages are
the service's own HTML (served by the test client); the pictures are answered by the browser's request routing
(no network). A screenshot of each is saved in the test's tmp_path."""

from __future__ import annotations

import pytest

from tests.utils import the_day
from tests.utils.factories import make_person, phone
from tests.utils.images import jpeg
from tests.utils.web import answer, form_token, invite_by_text, link_texted_to, page, post_form, text_of

PHONE_SCREEN = {"width": 390, "height": 844}


@pytest.mark.browser
@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_the_pass_and_the_album_fit_a_phone(client, chromium, tmp_path, script):
    owner, number = make_person("דנה כהן"), phone()
    title = "Noa & Lior \U0001f942 \u05d7\u05ea\u05d5\u05e0\u05d4 \u2014 \u201cthe day\u201d"
    event = invite_by_text(client, owner, number, title=title)
    path = link_texted_to(number)
    assert answer(client, path, "accept").status_code == 303
    the_day.started(event["id"])
    for _ in range(5):
        the_day.ready_photo(event["id"], owner)
    shown = text_of(page(client, path))
    context = chromium.new_context(viewport=PHONE_SCREEN, java_script_enabled=script)
    picture = jpeg(400, 300, "teal")
    context.route("https://**/*", lambda route: route.fulfill(status=200, body=picture, content_type="image/jpeg"))
    screen = context.new_page()
    screen.set_content(shown, wait_until="load")
    qr = screen.locator(".pass svg")
    box = qr.bounding_box()
    assert box["width"] >= 150 and abs(box["width"] - box["height"]) < 1  # square, big enough to scan
    thumbs = screen.locator(".album img")
    assert thumbs.count() == 5
    assert all(thumbs.nth(n).evaluate("img => img.decode().then(() => img.naturalWidth)") == 400 for n in range(5))
    first = thumbs.first.bounding_box()
    assert abs(first["width"] - first["height"]) < 1 and first["width"] >= 80
    assert screen.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
    button = screen.get_by_role("button", name="Add a photo")
    assert button.bounding_box()["height"] >= 44
    screen.screenshot(path=str(tmp_path / f"the-day-{'script' if script else 'no-script'}.png"), full_page=True)
    upload = text_of(post_form(client, f"{path}/photos", {"csrf": form_token(shown)}))
    screen.set_content(upload, wait_until="load")
    chooser = screen.locator("input[type=file]").bounding_box()
    assert chooser["width"] <= PHONE_SCREEN["width"] and chooser["height"] >= 44
    assert screen.get_by_role("button", name="Upload").bounding_box()["height"] >= 44
    assert screen.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
    screen.screenshot(path=str(tmp_path / "the-day-upload.png"), full_page=True)
    print(tmp_path)
