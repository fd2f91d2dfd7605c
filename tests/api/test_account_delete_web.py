"""/account/delete: the web deletion flow without the app (number, texted pin, confirm)."""

from __future__ import annotations

import html
import re

from tests.utils.api import get, last_pin, login, post_json, texts_to
from tests.utils.web import FROM_THE_PAGE, page, post_form, text_of

ME, NOBODY = "+14155550801", "+14155550802"


def _value(page_html: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page_html)
    assert found, page_html
    return html.unescape(found.group(1))


def _to_confirm(client, number: str):
    opened = page(client, "/account/delete")
    assert opened.status_code == 200
    pin_page = post_form(
        client, "/account/delete/pin", {"csrf": _value(text_of(opened), "csrf"), "phone_number": number}
    )
    assert pin_page.status_code == 200, text_of(pin_page)
    fields = {"csrf": _value(text_of(pin_page), "csrf"), "phone_number": number, "pin": last_pin(number)}
    return post_form(client, "/account/delete/verify", fields)


def test_number_pin_confirm_deletes_the_account(client):
    me = login(client, ME, full_name="Mia Me")
    confirm = _to_confirm(client, ME)
    # the pin text says what it is for: nobody takes it for a login pin
    assert texts_to(ME)[-1] == (
        f"Your Invites pin to delete your account is {last_pin(ME)}. If you did not ask for this, ignore this text."
    )
    assert confirm.status_code == 200 and "Delete my account" in text_of(confirm)
    assert get(client, "/users/me", me["auth_token"]).status_code == 200  # nothing happens before the confirm
    done = post_form(client, "/account/delete/confirm", {"grant": _value(text_of(confirm), "grant")})
    assert done.status_code == 200 and "Your account is deleted" in text_of(done)
    assert get(client, "/users/me", me["auth_token"]).status_code == 401
    assert login(client, ME)["id"] != me["id"]


def test_a_number_without_an_account_is_told_so_and_nothing_is_made(client):
    answer = _to_confirm(client, NOBODY)
    assert answer.status_code == 200 and "There is no account for this number" in text_of(answer)
    response = post_json(client, "/auth/verify_pin", {"phone_number": NOBODY, "pin": "000000"})
    assert response.status_code == 400  # the pin was used up, and no user was made for the number


def test_forged_posts_are_refused(client):
    me = login(client, ME)
    confirm = _to_confirm(client, ME)
    grant = _value(text_of(confirm), "grant")
    cross_site = {**FROM_THE_PAGE, "Sec-Fetch-Site": "cross-site"}
    assert post_form(client, "/account/delete/confirm", {"grant": grant}, cross_site).status_code == 403
    other_origin = {"Origin": "https://evil.example", "Sec-Fetch-Site": ""}
    assert post_form(client, "/account/delete/confirm", {"grant": grant}, other_origin).status_code == 403
    forged = grant.rsplit(".", 1)[0] + ".0000"
    assert post_form(client, "/account/delete/confirm", {"grant": forged}).status_code == 403
    another_user = "1" + grant
    assert post_form(client, "/account/delete/confirm", {"grant": another_user}).status_code == 403
    texted = len(texts_to(ME))
    no_token = post_form(client, "/account/delete/pin", {"csrf": "", "phone_number": ME})
    assert no_token.status_code == 403 and len(texts_to(ME)) == texted  # no pin texted
    assert get(client, "/users/me", me["auth_token"]).status_code == 200


def test_a_wrong_pin_shows_the_form_again_and_the_pin_limits_of_login_hold(client, override_settings):
    override_settings(auth_sms_per_number=2)
    opened = page(client, "/account/delete")
    token = _value(text_of(opened), "csrf")
    first = post_form(client, "/account/delete/pin", {"csrf": token, "phone_number": ME})
    wrong = post_form(
        client,
        "/account/delete/verify",
        {"csrf": _value(text_of(first), "csrf"), "phone_number": ME, "pin": "not it"},
    )
    assert wrong.status_code == 400 and "Invalid pin." in text_of(wrong)
    assert post_form(client, "/account/delete/pin", {"csrf": token, "phone_number": ME}).status_code == 200
    third = post_form(client, "/account/delete/pin", {"csrf": token, "phone_number": ME})
    assert third.status_code == 429 and int(third.headers["Retry-After"]) > 0
    assert "Too many tries" in text_of(third)
    assert len(texts_to(ME)) == 2


def test_a_bad_number_is_shown_next_to_the_field(client):
    opened = page(client, "/account/delete")
    answer = post_form(client, "/account/delete/pin", {"csrf": _value(text_of(opened), "csrf"), "phone_number": "12"})
    assert answer.status_code == 400 and "Enter a valid phone number." in text_of(answer)
    assert 'aria-invalid="true"' in text_of(answer)


def test_the_guest_page_links_to_the_deletion_page(client):
    from tests.utils.factories import make_person
    from tests.utils.web import invite_by_text, link_texted_to

    owner = make_person("Owner")
    invite_by_text(client, owner, NOBODY)
    guest_page = text_of(page(client, link_texted_to(NOBODY)))
    assert 'href="../account/delete"' in guest_page
