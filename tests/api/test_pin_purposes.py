"""A pin says what it opens: a pin texted by the join page joins, one texted by the deletion page leads to
the deletion's confirm, and logging in to the app takes a login pin; none opens another's action."""

from __future__ import annotations

from chalicelib.models.events import Invitation
from chalicelib.services.hosting import events
from tests.utils.api import body, get, last_pin, login, post_json
from tests.utils.factories import future, make_event, make_person
from tests.utils.web import form_token, page, post_form, text_of

ME = "+14155550871"
INVALID = {"pin": ["Invalid pin."]}


def _join_code(client, owner) -> tuple[int, str]:
    event = make_event(owner, when=future(days=5))
    events.update_event(owner.user, event.id, events.EventInput(join_mode="open"))
    url = post_json(client, f"/events/{event.id}/join_link", {}, owner.token).json_body["url"]
    return event.id, url.rsplit("/j/", 1)[1]


def _pin_form(client, start: str, pin_path: str, number: str) -> str:
    """The pin form's token once the page texted a pin to ``number``."""
    opened = page(client, start)
    fields = {"csrf": form_token(text_of(opened)), "phone_number": number}
    if pin_path.startswith("/j/"):
        fields["full_name"] = "Dana Levi"  # the join page asks who is joining
    pin_page = post_form(client, pin_path, fields)
    assert pin_page.status_code == 200, text_of(pin_page)
    return form_token(text_of(pin_page))


def _members(event_id: int) -> list[int]:
    return sorted(inv.user_id for inv in Invitation.query(f"EVENT#{event_id}"))


def test_a_join_pages_pin_does_not_log_in_to_the_app(client):
    alice = make_person("Alice Host")
    _event_id, code = _join_code(client, alice)
    _pin_form(client, f"/j/{code}", f"/j/{code}/pin", ME)
    refused = post_json(client, "/auth/verify_pin", {"phone_number": ME, "pin": last_pin(ME)})
    assert refused.status_code == 400 and body(refused) == INVALID


def test_a_deletion_pages_pin_does_not_log_in_to_the_app(client):
    me = login(client, ME, full_name="Mia Me")
    _pin_form(client, "/account/delete", "/account/delete/pin", ME)
    refused = post_json(client, "/auth/verify_pin", {"phone_number": ME, "pin": last_pin(ME)})
    assert refused.status_code == 400 and body(refused) == INVALID
    assert get(client, "/users/me", me["auth_token"]).status_code == 200


def test_a_login_pin_does_not_join_by_the_join_page(client):
    alice = make_person("Alice Host")
    event_id, code = _join_code(client, alice)
    csrf = _pin_form(client, f"/j/{code}", f"/j/{code}/pin", ME)
    assert post_json(client, "/auth", {"phone_number": ME}).status_code == 204  # a login pin replaces it
    answer = post_form(
        client, f"/j/{code}/verify", {"csrf": csrf, "full_name": "Dana Levi", "phone_number": ME, "pin": last_pin(ME)}
    )
    assert answer.status_code == 400 and "Invalid pin." in text_of(answer)
    assert _members(event_id) == [alice.user.id]


def test_a_login_pin_does_not_open_the_deletion_confirm(client):
    me = login(client, ME, full_name="Mia Me")
    csrf = _pin_form(client, "/account/delete", "/account/delete/pin", ME)
    assert post_json(client, "/auth", {"phone_number": ME}).status_code == 204
    answer = post_form(client, "/account/delete/verify", {"csrf": csrf, "phone_number": ME, "pin": last_pin(ME)})
    assert answer.status_code == 400 and "Invalid pin." in text_of(answer) and "grant" not in text_of(answer)
    assert get(client, "/users/me", me["auth_token"]).status_code == 200


def test_a_join_pin_does_not_open_the_deletion_confirm(client):
    alice = make_person("Alice Host")
    me = login(client, ME, full_name="Mia Me")
    _event_id, code = _join_code(client, alice)
    csrf = _pin_form(client, "/account/delete", "/account/delete/pin", ME)
    _pin_form(client, f"/j/{code}", f"/j/{code}/pin", ME)  # the join page's pin replaces the deletion's
    answer = post_form(client, "/account/delete/verify", {"csrf": csrf, "phone_number": ME, "pin": last_pin(ME)})
    assert answer.status_code == 400 and "grant" not in text_of(answer)
    assert get(client, "/users/me", me["auth_token"]).status_code == 200


def test_each_pin_still_opens_its_own_action(client):
    alice = make_person("Alice Host")
    event_id, code = _join_code(client, alice)
    csrf = _pin_form(client, f"/j/{code}", f"/j/{code}/pin", ME)
    joined = post_form(
        client, f"/j/{code}/verify", {"csrf": csrf, "full_name": "Dana Levi", "phone_number": ME, "pin": last_pin(ME)}
    )
    assert joined.status_code == 303 and len(_members(event_id)) == 2
    assert login(client, ME)["auth_token"]
