"""/account/delete as a person without the app uses it: `make run`'s local stack, a real headless Chromium on a
phone-sized screen, with script and without. The number, the texted pin, the confirm button; then the
old token answers 401 and the guest page's link leads to the same page."""

from __future__ import annotations

import pytest

from tests.utils.live_stack import LocalStack
from tests.utils.web import invite_on_live_stack

OWNER, GUEST = "+14155550170", "+14155550171"
PHONE_SCREEN = {"width": 390, "height": 844}


def _delete_through_the_pages(stack: LocalStack, page, number: str) -> None:
    page.fill("#phone_number", number[:-2])  # refused, then corrected on the page shown at the form's address
    with page.expect_navigation():
        page.get_by_role("button", name="Text me a pin").click()
    assert page.locator("#phone_number").get_attribute("aria-invalid") == "true"
    assert page.input_value("#phone_number") == number[:-2]
    page.fill("#phone_number", number)
    with page.expect_navigation():
        page.get_by_role("button", name="Text me a pin").click()
    assert page.locator("h1").inner_text() == "Enter your pin"
    page.fill("#pin", stack.last_pin(number))
    with page.expect_navigation():
        page.get_by_role("button", name="Continue").click()
    assert page.locator("h1").inner_text() == "Delete your account?"
    with page.expect_navigation():
        page.get_by_role("button", name="Delete my account").click()
    assert page.locator("h1").inner_text() == "Your account is deleted"


@pytest.mark.e2e
@pytest.mark.parametrize("script", [True, False], ids=["with-script", "without-script"])
def test_a_person_deletes_their_account_on_the_web(chromium, tmp_path, script):
    with LocalStack() as stack:
        owner = stack.login(OWNER, full_name="Olivia Host")
        _, found = invite_on_live_stack(stack, owner["auth_token"], GUEST)
        link = found.group(0)

        context = chromium.new_context(viewport=PHONE_SCREEN, java_script_enabled=script)
        page = context.new_page()
        # the owner finds the page from a guest page as anyone could; here, the guest's link
        assert page.goto(link).status == 200
        with page.expect_navigation():
            page.get_by_role("link", name="Delete my account and data").click()
        assert page.locator("h1").inner_text().startswith("Delete your")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]  # no sideways scroll
        _delete_through_the_pages(stack, page, OWNER)
        page.screenshot(path=str(tmp_path / "account-deleted.png"), full_page=True)
        context.close()

        assert stack.call("GET", "/users/me", owner["auth_token"]).status_code == 401
