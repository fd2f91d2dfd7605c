"""The guest page of an event that hides its guest list and its place, as a phone's browser shows it: the
local stack, a real headless Chromium at a phone's size. Before accepting, no place and no count anywhere on
the page; after Accept, the place shows and the count still does not."""

from __future__ import annotations

import pytest

from tests.utils.live_stack import LocalStack
from tests.utils.web import invite_on_live_stack

OWNER, GUEST = "+14155550170", "+14155550171"
PHONE_SCREEN = {"width": 390, "height": 844}
HIDDEN = "The host shares the place with the guests who accept."


@pytest.mark.e2e
def test_a_guest_sees_the_place_once_they_accept_and_never_the_count(chromium, tmp_path):  # noqa: F811
    with LocalStack() as stack:
        owner = stack.login(OWNER, full_name="Olivia Host")
        _, found = invite_on_live_stack(
            stack,
            owner["auth_token"],
            GUEST,
            title="Secret supper",
            venue_name="The Loft",
            address="5 Elm St",
            total_spots=8,
            guest_list="hosts_only",
            place_visibility="accepted",
        )
        context = chromium.new_context(viewport=PHONE_SCREEN, locale="en-US")
        page = context.new_page()
        assert page.goto(found.group(0)).status == 200
        details = page.inner_text("dl")
        assert HIDDEN in details
        assert "The Loft" not in page.content() and "5 Elm St" not in page.content()
        assert "Going" not in details and "going" not in details and "spots" not in details
        # the note fits the phone's width: nothing scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
        before = tmp_path / "hidden-before.png"
        page.screenshot(path=str(before), full_page=True)

        with page.expect_navigation():
            page.get_by_role("button", name="Accept").click()
        assert page.locator("#answer").inner_text() == "You're going."
        details = page.inner_text("dl")
        assert "The Loft" in details and "5 Elm St" in details and HIDDEN not in details
        assert "going" not in details and "spots" not in details
        after = tmp_path / "hidden-after.png"
        page.screenshot(path=str(after), full_page=True)
        context.close()
    for shot in (before, after):
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        print(f"screenshot: {shot}")
