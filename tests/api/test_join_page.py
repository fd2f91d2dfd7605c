"""/j/<code>: joining by link on the web without the app (number, texted pin, then the guest's own page)."""

from __future__ import annotations

import html
import re

from chalicelib.models.events import Invitation
from chalicelib.services.hosting import events
from tests.utils.api import last_pin, post_json, texts_to
from tests.utils.factories import future, make_event, make_person, stored_event
from tests.utils.web import FROM_THE_PAGE, page, post_form, text_of

NEWCOMER = "+14155550851"
NAME = "Noa Newcomer"


def _value(page_html: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page_html)
    assert found, page_html
    return html.unescape(found.group(1))


def _event(owner, join_mode="open", **extra):
    event = make_event(owner, title="\u05de\u05e1\u05d9\u05d1\u05d4 Party", when=future(days=5), **extra)
    events.update_event(
        owner.user, event.id, events.EventInput(join_mode=join_mode, venue_name="Hall 9", address="1 Main St")
    )
    return event


def _code(client, owner, event) -> str:
    response = post_json(client, f"/events/{event.id}/join_link", {}, owner.token)
    return response.json_body["url"].rsplit("/j/", 1)[1]


def _to_verify(client, code: str, number: str):
    opened = page(client, f"/j/{code}")
    assert opened.status_code == 200, text_of(opened)
    pin_page = post_form(
        client, f"/j/{code}/pin", {"csrf": _value(text_of(opened), "csrf"), "phone_number": number, "full_name": NAME}
    )
    assert pin_page.status_code == 200, text_of(pin_page)
    fields = {
        "csrf": _value(text_of(pin_page), "csrf"),
        "phone_number": number,
        "full_name": NAME,
        "pin": last_pin(number),
    }
    return post_form(client, f"/j/{code}/verify", fields)


def test_the_page_shows_title_when_host_and_place_with_previews_that_leave_the_place_out(client):
    alice = make_person("Alice Host")
    event = _event(alice)
    shown = text_of(page(client, f"/j/{_code(client, alice, event)}"))
    assert '<h1 dir="auto">\u05de\u05e1\u05d9\u05d1\u05d4 Party</h1>' in shown and "Alice Host" in shown
    assert "Hall 9" in shown and "1 Main St" in shown
    previews = "\n".join(line for line in shown.splitlines() if 'property="og:' in line)
    assert 'og:title" content="\u05de\u05e1\u05d9\u05d1\u05d4 Party"' in previews
    assert "Hall 9" not in previews and "Alice" not in previews and "+1" not in previews


def test_the_place_is_left_out_when_only_accepted_guests_may_see_it(client):
    alice = make_person("Alice Host")
    event = _event(alice, place_visibility="accepted")
    shown = text_of(page(client, f"/j/{_code(client, alice, event)}"))
    assert "Hall 9" not in shown and "1 Main St" not in shown


def test_number_pin_then_the_newcomer_lands_on_their_own_page_as_an_invitee(client):
    alice = make_person("Alice Host")
    event = _event(alice)
    done = _to_verify(client, _code(client, alice, event), NEWCOMER)
    assert texts_to(NEWCOMER)[-1] == (
        f"Your Invites pin to join an event is {last_pin(NEWCOMER)}. If you did not ask for this, ignore this text."
    )
    assert done.status_code == 303 and done.headers["Location"].startswith("../../i/")
    own_page = page(client, "/i/" + done.headers["Location"].rsplit("/", 1)[1])
    assert own_page.status_code == 200 and "Accept" in text_of(own_page)
    assert stored_event(event.id).invitee_count == 1


def test_an_approval_event_says_the_request_was_sent(client):
    alice = make_person("Alice Host")
    event = _event(alice, join_mode="approval")
    done = _to_verify(client, _code(client, alice, event), NEWCOMER)
    assert done.status_code == 200 and "Your request was sent" in text_of(done)
    requests = post_json(client, f"/events/{event.id}/join_requests", None, alice.token, method="GET")
    [row] = requests.json_body
    # approving texts the newcomer (no app) their page link through the invitation text
    approved = post_json(client, f"/events/{event.id}/join_requests/{row['user_id']}/approve", None, alice.token)
    assert approved.status_code == 204
    assert "invited you to" in texts_to(NEWCOMER)[-1] and "/i/" in texts_to(NEWCOMER)[-1]


def test_replaced_invite_only_and_unknown_codes_answer_404(client):
    alice = make_person("Alice Host")
    event = _event(alice)
    old = _code(client, alice, event)
    _code(client, alice, event)
    assert page(client, f"/j/{old}").status_code == 404
    assert page(client, "/j/" + "A" * 32).status_code == 404
    closed = _event(alice, join_mode="invite_only")
    assert page(client, f"/j/{_code(client, alice, closed)}").status_code == 404


def test_forged_posts_are_refused_and_nothing_is_texted(client):
    alice = make_person("Alice Host")
    code = _code(client, alice, _event(alice))
    cross_site = {**FROM_THE_PAGE, "Sec-Fetch-Site": "cross-site"}
    opened = text_of(page(client, f"/j/{code}"))
    fields = {"csrf": _value(opened, "csrf"), "phone_number": NEWCOMER, "full_name": NAME}
    assert post_form(client, f"/j/{code}/pin", fields, cross_site).status_code == 403
    assert (
        post_form(client, f"/j/{code}/pin", {"csrf": "", "phone_number": NEWCOMER, "full_name": NAME}).status_code
        == 403
    )
    other = _code(client, alice, _event(alice))
    assert post_form(client, f"/j/{other}/pin", fields).status_code == 403  # a token of another link
    assert texts_to(NEWCOMER) == []


def test_the_pin_limits_of_login_hold_on_the_join_page(client, override_settings):
    override_settings(auth_sms_per_number=2)
    alice = make_person("Alice Host")
    code = _code(client, alice, _event(alice))
    token = _value(text_of(page(client, f"/j/{code}")), "csrf")
    fields = {"csrf": token, "phone_number": NEWCOMER, "full_name": NAME}
    statuses = [post_form(client, f"/j/{code}/pin", fields).status_code for _ in range(3)]
    assert statuses == [200, 200, 429] and len(texts_to(NEWCOMER)) == 2


def test_a_wrong_pin_shows_the_pin_form_again_and_joins_nobody(client):
    alice = make_person("Alice Host")
    event = _event(alice)
    code = _code(client, alice, event)
    opened = text_of(page(client, f"/j/{code}"))
    pin_page = post_form(
        client, f"/j/{code}/pin", {"csrf": _value(opened, "csrf"), "phone_number": NEWCOMER, "full_name": NAME}
    )
    wrong = "000000" if last_pin(NEWCOMER) != "000000" else "111111"
    fields = {"csrf": _value(text_of(pin_page), "csrf"), "phone_number": NEWCOMER, "full_name": NAME, "pin": wrong}
    answer = post_form(client, f"/j/{code}/verify", fields)
    assert answer.status_code == 400 and "Invalid pin." in text_of(answer)
    assert [inv.user_id for inv in Invitation.query(f"EVENT#{event.id}")] == [alice.user.id]


def test_a_cancelled_event_says_it_is_over_and_offers_no_form(client):
    alice = make_person("Alice Host")
    event = _event(alice)
    code = _code(client, alice, event)
    events.cancel_event(alice.user, event.id)
    shown = page(client, f"/j/{code}")
    assert shown.status_code == 200 and "This event is over" in text_of(shown)
    assert 'name="phone_number"' not in text_of(shown)


def test_a_host_without_a_name_is_named_as_on_the_guest_page_never_by_whole_number(client):
    host = make_person("")
    event = _event(host)
    shown = text_of(page(client, f"/j/{_code(client, host, event)}"))
    assert f'Hosted by <span dir="auto">Your host (number ending {host.phone[-4:]})</span>' in shown
    assert host.phone not in shown and host.phone[2:] not in shown


def test_the_pin_forms_name_the_pins_real_lifetime(client, override_settings):
    """The pin forms of the join page and the deletion page say how long the texted pin is valid."""
    alice = make_person("Alice Host")
    code = _code(client, alice, _event(alice))
    opened = text_of(page(client, f"/j/{code}"))
    join_pin = post_form(
        client, f"/j/{code}/pin", {"csrf": _value(opened, "csrf"), "phone_number": NEWCOMER, "full_name": NAME}
    )
    assert "It is valid for 15 minutes." in text_of(join_pin)
    override_settings(pin_ttl_seconds=1200)
    deletion = text_of(page(client, "/account/delete"))
    deletion_pin = post_form(
        client, "/account/delete/pin", {"csrf": _value(deletion, "csrf"), "phone_number": alice.phone}
    )
    assert "It is valid for 20 minutes." in text_of(deletion_pin)
