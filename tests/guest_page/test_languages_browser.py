"""The guest page in English, Spanish, Hebrew and Arabic in a real headless Chromium on a phone: the page reads
in its language and direction, people's words keep their own, the phone's own time is said in the page's
language by its script, nothing runs off a 390 or a 320 px screen, and without script the switcher still
works. Screenshots of each are saved in the test's tmp_path."""

from __future__ import annotations

import pytest

from tests.utils.api import post_json
from tests.utils.factories import make_person, phone
from tests.utils.web import invite_by_text, link_texted_to, page, text_of

PHONE_SCREEN = {"width": 390, "height": 844}
SMALL_SCREEN = {"width": 320, "height": 640}
# the page's language, its direction, the Accept button, the phone's own time as the script says it
CASES = {
    "en": ("ltr", "Accept", "your time"),
    "es": ("ltr", "Aceptar", "tu hora: "),
    "he": ("rtl", "אישור הגעה", "אצלך: "),
    "ar": ("rtl", "قبول", "بتوقيتك: "),
}


@pytest.mark.browser
@pytest.mark.parametrize("language", list(CASES))
def test_the_page_reads_in_its_language_and_direction_on_a_phone(client, chromium, tmp_path, language):
    direction, accept, yours = CASES[language]
    number = phone()
    host = make_person("Dana Levi")
    event = invite_by_text(
        client, host, number, title="Dinner at Dana's", event_date="2026-12-12T19:00:00Z",
        time_zone="Europe/Madrid", venue_name="Casa Dana", total_spots=8, max_extra_guests=2,
    )  # fmt: skip
    said = post_json(client, f"/events/{event['id']}/announcements", {"text": "Bring a dessert!"}, host.token)
    assert said.status_code == 201
    html = text_of(page(client, f"{link_texted_to(number)}?lang={language}"))

    phone_screen = chromium.new_context(viewport=PHONE_SCREEN, timezone_id="America/New_York").new_page()
    phone_screen.set_content(html)
    assert phone_screen.evaluate("getComputedStyle(document.body).direction") == direction
    assert phone_screen.evaluate("getComputedStyle(document.querySelector('h1')).direction") == "ltr"  # dir=auto
    assert phone_screen.locator("button[value=accept]").inner_text() == accept
    assert yours in phone_screen.locator("time + .yours").inner_text()
    assert phone_screen.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
    phone_screen.screenshot(path=str(tmp_path / f"guest-page-{language}.png"), full_page=True)
    print(tmp_path / f"guest-page-{language}.png")

    small = chromium.new_context(viewport=SMALL_SCREEN, java_script_enabled=False).new_page()
    small.set_content(html)
    assert small.locator(".yours").count() == 0
    links = small.locator("nav.languages a[href]")
    assert links.count() == 7 and small.locator("nav.languages a[aria-current=true]").get_attribute("lang") == language
    assert small.evaluate("document.documentElement.scrollWidth") <= SMALL_SCREEN["width"]
    for index in range(links.count()):
        assert links.nth(index).bounding_box()["height"] >= 44  # each language as easy to hit as a button
