"""A series' page as a guest uses it on a phone, with and without script: `make run`'s local stack and a real
headless Chromium at 390x844."""

from __future__ import annotations

import pytest

from chalicelib.messaging import sms_segments
from tests.utils.live_stack import LocalStack
from tests.utils.web import invite_on_live_stack

OWNER, GUEST = "+14155550166", "+14155550167"
PHONE_SCREEN = {"width": 390, "height": 844}
TITLE = "ערב משחקים 🎲 “Game night”"  # Hebrew, an emoji, typographic quotes


@pytest.mark.e2e
@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_a_guest_answers_one_date_of_a_series_on_a_phone(chromium, tmp_path, script):  # noqa: F811
    with LocalStack() as stack:
        owner = stack.login(OWNER, full_name="Olivia Host")
        event_id, found = invite_on_live_stack(
            stack, owner["auth_token"], GUEST, title=TITLE, event_date="2030-01-08T19:00:00-05:00",
            time_zone="America/New_York", repeat={"freq": "weekly", "interval": 2, "count": 4},
        )  # fmt: skip
        (text,) = stack.texts_to(GUEST)
        # the stack answers replies, so the text asks for one; with a title in UCS-2 and the stack's link, the
        # repeat's words do not fit 3 segments: the text names the first date, the page lists every date
        assert "Jan 8 at 7:00 PM EST" in text and found.group(0) in text and sms_segments.segments(text) <= 3
        context = chromium.new_context(viewport=PHONE_SCREEN, locale="en-US", java_script_enabled=script)
        page = context.new_page()
        assert page.goto(found.group(0)).status == 200
        rows = page.locator("ul.dates li")
        assert rows.count() == 4
        assert "Tuesday, February 5, 2030 at 7:00 PM EST" in rows.nth(2).inner_text()
        for index in range(4):
            for button in ("Going", "Maybe", "Can't go"):
                box = rows.nth(index).get_by_role("button", name=button).bounding_box()
                assert box is not None and box["height"] >= 44, box  # a thumb's target
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
        assert page.get_by_role("link", name="Subscribe").get_attribute("href").startswith("webcal://")
        with page.expect_navigation():
            rows.nth(1).get_by_role("button", name="Going").click()
        assert page.get_by_role("status").inner_text() == "Thanks! Your answer is saved."
        assert page.locator("ul.dates li").nth(1).get_by_role("button", name="Going").get_attribute(
            "aria-pressed") == "true"  # fmt: skip
        with page.expect_navigation():
            page.locator("ul.dates li").nth(2).get_by_role("button", name="Maybe").click()
        third = page.locator("ul.dates li").nth(2)
        assert third.get_by_role("button", name="Maybe").get_attribute("aria-pressed") == "true"
        assert "You said maybe." in third.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
        shot = tmp_path / f"series-{'script' if script else 'no-script'}.png"
        page.screenshot(path=str(shot), full_page=True)
        context.close()
        second = stack.call("GET", f"/events/{event_id}", owner["auth_token"]).json()["series_id"]
        assert second is not None
    print(f"screenshot: {shot}")
