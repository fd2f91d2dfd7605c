"""A guest a host removed opens their old link on a phone (a real headless Chromium on `make run`'s local stack):
a page that says so in the event's own script, fitting the screen, with and without JavaScript."""

from __future__ import annotations

import pytest

from tests.utils.live_stack import LocalStack
from tests.utils.web import invite_on_live_stack

OWNER, GUEST = "+14155550176", "+14155550177"
# Arabic, an emoji, typographic quotes
TITLE = "\u0639\u0634\u0627\u0621 \u0627\u0644\u0639\u064a\u062f \U0001f319 \u201cfamily only\u201d"
PHONE_SCREEN = {"width": 390, "height": 844}


@pytest.mark.e2e
@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_a_removed_guest_s_link_says_they_are_no_longer_invited(chromium, tmp_path, script):
    with LocalStack() as stack:
        owner = stack.login(OWNER, full_name="Olivia Host")
        event_id, found = invite_on_live_stack(stack, owner["auth_token"], GUEST, title=TITLE)
        detail = stack.call("GET", f"/events/{event_id}", owner["auth_token"]).json()
        guest_id = next(row["user_id"] for row in detail["invitees"] if not row["is_owner"])
        removed = stack.call("DELETE", f"/events/{event_id}/invitees/{guest_id}", owner["auth_token"])
        assert removed.status_code == 204, removed.text

        context = chromium.new_context(viewport=PHONE_SCREEN, java_script_enabled=script)
        page = context.new_page()
        response = page.goto(found.group(0))
        assert response.status == 404
        assert page.locator("h1").inner_text() == "You are no longer invited"
        assert TITLE in page.inner_text("body")
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= PHONE_SCREEN["width"]
        shot = tmp_path / f"removed-{'script' if script else 'no-script'}.png"
        page.screenshot(path=str(shot), full_page=True)
        print(shot)
        context.close()
