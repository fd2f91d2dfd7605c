"""The join page's forms forgive: a refused number or name comes back with what was typed and the field
marked, at an action that works from where it is shown; a stale form gives a fresh one; the person's name
reaches the hosts."""

from __future__ import annotations

import pytest

from chalicelib.services.hosting import events
from tests.utils.api import body, get, last_pin, post_json, texts_to
from tests.utils.factories import future, make_event, make_person
from tests.utils.page_forms import field_tag, forms_go_stale, submit
from tests.utils.web import page, text_of

NEWCOMER = "+14155550861"
NAME = "נועה כהן-לוי"


def _code(client, join_mode: str = "open"):
    host = make_person("Hana Host")
    event = make_event(host, title="Fête 🎉", when=future(days=5))
    events.update_event(host.user, event.id, events.EventInput(join_mode=join_mode))
    url = post_json(client, f"/events/{event.id}/join_link", {}, host.token).json_body["url"]
    return host, event, url.rsplit("/j/", 1)[1]


def test_a_refused_number_then_a_corrected_one_reaches_the_pin(client):
    _, _, code = _code(client)
    opened = page(client, f"/j/{code}")
    where, refused = submit(client, f"/j/{code}", opened, "phone_number", {"full_name": NAME, "phone_number": "12"})
    assert where == f"/j/{code}/pin" and refused.status_code == 400
    html = text_of(refused)
    number = field_tag(html, "phone_number")
    assert 'value="12"' in number and 'aria-invalid="true"' in number
    assert 'aria-describedby="phone_number-hint phone_number-error"' in number and 'id="phone_number-error"' in html
    assert f'value="{NAME}"' in field_tag(html, "full_name")  # the name typed stays
    # corrected, from the page shown at /j/<code>/pin
    where, pin_page = submit(client, where, refused, "phone_number", {"full_name": NAME, "phone_number": NEWCOMER})
    assert where == f"/j/{code}/pin" and pin_page.status_code == 200, text_of(pin_page)
    assert "Enter your pin" in text_of(pin_page) and len(texts_to(NEWCOMER)) == 1
    where, joined = submit(client, where, pin_page, "pin", {"pin": last_pin(NEWCOMER)})
    assert where == f"/j/{code}/verify" and joined.status_code == 303


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "This field may not be blank."), ("N", "Ensure this field has at least 2 characters."), ("x" * 257, None)],
)
def test_the_name_is_asked_and_checked_as_full_name_is(client, name, message):
    _, _, code = _code(client)
    opened = page(client, f"/j/{code}")
    _, refused = submit(client, f"/j/{code}", opened, "phone_number", {"full_name": name, "phone_number": NEWCOMER})
    assert refused.status_code == 400
    html = text_of(refused)
    tag = field_tag(html, "full_name")
    assert 'aria-invalid="true"' in tag and 'aria-describedby="full_name-hint full_name-error"' in tag
    assert message is None or message in html
    assert f'value="{NEWCOMER}"' in field_tag(html, "phone_number")
    assert texts_to(NEWCOMER) == []  # no pin for a refused form


def test_the_hosts_see_the_name_the_person_gave(client):
    host, event, code = _code(client, join_mode="approval")
    opened = page(client, f"/j/{code}")
    where, pin_page = submit(
        client, f"/j/{code}", opened, "phone_number", {"full_name": NAME, "phone_number": NEWCOMER}
    )
    _, sent = submit(client, where, pin_page, "pin", {"pin": last_pin(NEWCOMER)})
    assert sent.status_code == 200 and "Your request was sent" in text_of(sent)
    [request] = body(get(client, f"/events/{event.id}/join_requests", host.token))
    assert request["full_name"] == NAME


def test_a_stale_number_form_gives_a_fresh_one_holding_what_was_typed(client, override_settings):
    _, _, code = _code(client)
    opened = page(client, f"/j/{code}")
    fresh_again = forms_go_stale(override_settings)
    where, stale = submit(client, f"/j/{code}", opened, "phone_number", {"full_name": NAME, "phone_number": NEWCOMER})
    assert stale.status_code == 403
    html = text_of(stale)
    assert "This page was open for too long. Please try again." in html and "reload" not in html.lower()
    assert f'value="{NEWCOMER}"' in field_tag(html, "phone_number") and f'value="{NAME}"' in html
    fresh_again()
    _, pin_page = submit(client, where, stale, "phone_number", {})  # sent again as it stands
    assert pin_page.status_code == 200 and len(texts_to(NEWCOMER)) == 1


def test_a_stale_pin_form_gives_the_number_form_back_for_a_new_pin(client, override_settings):
    _, _, code = _code(client)
    opened = page(client, f"/j/{code}")
    where, pin_page = submit(
        client, f"/j/{code}", opened, "phone_number", {"full_name": NAME, "phone_number": NEWCOMER}
    )
    fresh_again = forms_go_stale(override_settings)
    where, stale = submit(client, where, pin_page, "pin", {"pin": last_pin(NEWCOMER)})
    assert where == f"/j/{code}/verify" and stale.status_code == 403
    html = text_of(stale)
    assert "so the pin was not checked. Ask for a new pin below." in html
    assert f'value="{NEWCOMER}"' in field_tag(html, "phone_number") and f'value="{NAME}"' in html
    fresh_again()
    where, again = submit(client, where, stale, "phone_number", {})
    assert where == f"/j/{code}/pin" and again.status_code == 200 and "Enter your pin" in text_of(again)
    assert len(texts_to(NEWCOMER)) == 2  # a new pin
