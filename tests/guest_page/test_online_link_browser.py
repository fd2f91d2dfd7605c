"""An online event's link on the guest page as a phone's browser shows it (the local stack, a real headless
Chromium at 390x844), with and without script: a long link wraps inside the page (nothing scrolls sideways), sits
beside a place written in Hebrew with an emoji, opens in a new tab without a referrer, and shows only once a guest
who may not see the place before accepting has accepted."""

from __future__ import annotations

import pytest

from tests.utils.live_stack import LocalStack
from tests.utils.web import invite_on_live_stack

OWNER, GUEST = "+14155550154", "+14155550155"
PHONE_SCREEN = {"width": 390, "height": 844}
LINK = "https://meet.example.com/j/" + "8c1f0a2b" * 58  # 490 characters, no place to break
VENUE = "בית הקפה 🎉"


@pytest.mark.e2e
@pytest.mark.browser
@pytest.mark.parametrize("script", [True, False], ids=["with-script", "without-script"])
def test_a_long_online_link_wraps_on_a_phone_and_shows_once_the_guest_may_see_the_place(chromium, tmp_path, script):
    with LocalStack() as stack:
        owner = stack.login(OWNER, full_name="Olivia Host")
        _, found = invite_on_live_stack(
            stack, owner["auth_token"], GUEST, title="Standup ☕", venue_name=VENUE, online_url=LINK,
            place_visibility="accepted",
        )  # fmt: skip
        context = chromium.new_context(viewport=PHONE_SCREEN, locale="he-IL", java_script_enabled=script)
        page = context.new_page()
        assert page.goto(found.group(0)).status == 200
        assert "meet.example.com" not in page.content()
        with page.expect_navigation():
            page.locator('button[value="accept"]').click()  # in Hebrew, as the phone asks
        link = page.locator("dl a.online")
        assert link.get_attribute("href") == LINK and link.inner_text() == LINK
        assert link.get_attribute("target") == "_blank" and link.get_attribute("rel") == "noopener noreferrer"
        assert link.is_visible() and VENUE in page.inner_text("dl")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
        shot = tmp_path / f"online-link-{'script' if script else 'no-script'}.png"
        page.screenshot(path=str(shot), full_page=True)
        context.close()
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(f"screenshot: {shot}")
