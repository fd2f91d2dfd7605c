"""The guest page in a real headless Chromium on a phone-sized screen, with titles, names, places and the
host's announcements in Hebrew, Arabic, emoji and at their longest: right-to-left words read right to left,
nothing runs off the screen, the extra-guests choice is as easy to hit as the buttons. The page is the
service's own HTML (served by the test client), loaded as it is; a screenshot of each is saved in the
test's tmp_path."""

from __future__ import annotations

import pytest

from tests.utils.api import post_json
from tests.utils.factories import make_person, phone
from tests.utils.web import invite_by_text, link_texted_to, page, text_of

PHONE_SCREEN = {"width": 390, "height": 844}
CASES = {
    "hebrew": ("דנה כהן", "ערב משחקים", "בית קפה", "rtl"),
    "arabic": ("سارة", "عيد ميلاد سعيد", "مقهى الشمال", "rtl"),
    "emoji": ("Sam 🥳", "🎂🎉 Party 🍾", "Dolores Park 🌳", "ltr"),
    "long": ("Maximilian Alexander " * 6, "A very long title that keeps going " * 5, "Somewhere " * 9, "ltr"),
}


@pytest.mark.browser
@pytest.mark.parametrize("case", list(CASES))
def test_the_page_reads_right_in_any_script_on_a_phone(client, chromium, tmp_path, case):
    host_name, title, venue, direction = CASES[case]
    number = phone()
    host = make_person(host_name.strip())
    event = invite_by_text(client, host, number, title=title.strip(), venue_name=venue.strip(), max_extra_guests=3)
    for news in (f"{title.strip()} {venue.strip()}"[:320], venue.strip()):
        said = post_json(client, f"/events/{event['id']}/announcements", {"text": news}, host.token)
        assert said.status_code == 201
    html = text_of(page(client, link_texted_to(number)))
    screen = chromium.new_context(viewport=PHONE_SCREEN, locale="en-US").new_page()
    screen.set_content(html)
    assert screen.evaluate("getComputedStyle(document.querySelector('h1')).direction") == direction
    place = screen.locator("dd span[dir=auto]").first
    assert place.evaluate("el => getComputedStyle(el).direction") == direction
    # the host's announcements, newest first, each read in its own script's direction
    news = screen.locator(".announcements p[dir=auto]")
    assert news.count() == 2 and news.first.inner_text() == venue.strip()
    assert news.first.evaluate("el => getComputedStyle(el).direction") == direction
    # nothing wider than the phone: long words wrap
    assert screen.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
    # the extra-guests choice is at least 44 px high, like the answer buttons
    assert screen.locator("#extra_guests").bounding_box()["height"] >= 44
    assert screen.locator("button[value=accept]").bounding_box()["height"] >= 44
    screen.screenshot(path=str(tmp_path / f"guest-page-{case}.png"), full_page=True)
    print(tmp_path / f"guest-page-{case}.png")
