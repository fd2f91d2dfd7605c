"""The deletion page's forms forgive: a refused number comes back as typed and marked, at an action that works from
where it is shown, and a stale form gives a fresh one holding the number."""

from __future__ import annotations

from tests.utils.api import last_pin, login, texts_to
from tests.utils.page_forms import field_tag, forms_go_stale, submit
from tests.utils.web import page, text_of

NUMBER = "+14155550871"


def test_a_refused_number_then_a_corrected_one_reaches_the_pin_and_the_deletion(client):
    login(client, NUMBER, full_name="Dana Gone")
    opened = page(client, "/account/delete")
    where, refused = submit(client, "/account/delete", opened, "phone_number", {"phone_number": "+1 415 555"})
    assert where == "/account/delete/pin" and refused.status_code == 400
    html = text_of(refused)
    tag = field_tag(html, "phone_number")
    assert 'value="+1 415 555"' in tag and 'aria-invalid="true"' in tag
    assert 'aria-describedby="phone_number-hint phone_number-error"' in tag and 'id="phone_number-error"' in html
    where, pin_page = submit(client, where, refused, "phone_number", {"phone_number": NUMBER})
    assert where == "/account/delete/pin" and pin_page.status_code == 200, text_of(pin_page)
    assert "Enter your pin" in text_of(pin_page)
    where, confirm = submit(client, where, pin_page, "pin", {"pin": last_pin(NUMBER)})
    assert where == "/account/delete/verify" and confirm.status_code == 200
    assert "Delete your account?" in text_of(confirm)


def test_a_stale_number_form_gives_a_fresh_one_holding_the_number(client, override_settings):
    opened = page(client, "/account/delete")
    fresh_again = forms_go_stale(override_settings)
    where, stale = submit(client, "/account/delete", opened, "phone_number", {"phone_number": NUMBER})
    assert stale.status_code == 403
    html = text_of(stale)
    assert "This page was open for too long. Please try again." in html and "reload" not in html.lower()
    assert f'value="{NUMBER}"' in field_tag(html, "phone_number")
    fresh_again()
    where, pin_page = submit(client, where, stale, "phone_number", {})
    assert where == "/account/delete/pin" and pin_page.status_code == 200 and len(texts_to(NUMBER)) == 1


def test_a_stale_pin_form_gives_the_number_form_back_for_a_new_pin(client, override_settings):
    login(client, NUMBER, full_name="Dana Gone")
    texted = len(texts_to(NUMBER))
    opened = page(client, "/account/delete")
    where, pin_page = submit(client, "/account/delete", opened, "phone_number", {"phone_number": NUMBER})
    fresh_again = forms_go_stale(override_settings)
    where, stale = submit(client, where, pin_page, "pin", {"pin": last_pin(NUMBER)})
    assert where == "/account/delete/verify" and stale.status_code == 403
    html = text_of(stale)
    assert "so the pin was not checked. Ask for a new pin below." in html
    assert f'value="{NUMBER}"' in field_tag(html, "phone_number")
    fresh_again()
    where, again = submit(client, where, stale, "phone_number", {})
    assert where == "/account/delete/pin" and again.status_code == 200 and "Enter your pin" in text_of(again)
    assert len(texts_to(NUMBER)) == texted + 2


def test_a_stale_confirm_page_gives_the_number_form_back_and_deletes_nothing(client, monkeypatch):
    from chalicelib.services.web import web_account

    me = login(client, NUMBER, full_name="Dana Gone")
    opened = page(client, "/account/delete")
    where, pin_page = submit(client, "/account/delete", opened, "phone_number", {"phone_number": NUMBER})
    where, confirm = submit(client, where, pin_page, "pin", {"pin": last_pin(NUMBER)})
    monkeypatch.setattr(web_account, "GRANT_SECONDS", -61)  # the confirm page was left open past its lifetime
    where, stale = submit(client, where, confirm, "grant", {})
    assert where == "/account/delete/confirm" and stale.status_code == 403
    html = text_of(stale)
    assert "This page was open for too long, so nothing was deleted. Ask for a new pin below." in html
    monkeypatch.undo()
    where, again = submit(client, where, stale, "phone_number", {"phone_number": NUMBER})
    assert where == "/account/delete/pin" and again.status_code == 200 and "Enter your pin" in text_of(again)
    assert client.http.get("/users/me", headers={"Authorization": f"Bearer {me['auth_token']}"}).status_code == 200
