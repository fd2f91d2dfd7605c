"""/i/<code>: the event page of a guest invited by text, answering from it, and its protections.

# GIVEN an owner who invites a number without an account (the number gets a text with a link)
# WHEN the person opens the link and answers from the page, as a phone's browser would
# THEN they see the event and their answer, the answer is on their invitation (the same one the app
#      shows), and nothing of other guests or any phone number is ever shown.
"""

from __future__ import annotations

import base64
import hashlib
import re
from datetime import UTC, datetime, timedelta
from html import unescape
from urllib.parse import quote

import pytest
from chalice.local import LambdaEventConverter

from chalicelib import invite_links
from chalicelib.api.error_responses import body_of
from chalicelib.messaging import sms_segments as sms
from chalicelib.models.events import Invitation, event_pk, invitation_sk
from chalicelib.services.identity.users import find_user_by_phone
from chalicelib.services.web import guest_answers
from tests.utils.api import body, get, login, post_json, texts_to
from tests.utils.factories import make_person, phone, put, stored_event, table_items
from tests.utils.notifications import add_device, drain, pushes, use_queue
from tests.utils.pin_key import KEY, put_pin_key
from tests.utils.web import (
    FORM,
    FROM_THE_PAGE,
    PUBLIC_BASE,
    answer,
    form_token,
    invite_by_text,
    link_in,
    link_texted_to,
    page,
    post_form,
    text_of,
)

HTML = "text/html; charset=utf-8"
ANSWER_FORM = '/rsvp">'  # the answer form's action (the page's other form is "Stop texting me")


def shown_phone_numbers(html: str) -> list[str]:
    return re.findall(r"\+\d[\d ()-]{6,}\d", html)


def invited(client, owner, number: str | None = None, **fields) -> tuple[dict, str, str]:
    """An event of ``owner`` with a number invited by text; (event JSON, the number, its link path)."""
    number = number or phone()
    event = invite_by_text(client, owner, number, **fields)
    return event, number, link_texted_to(number)


def stored_invitation(event_id: int, number: str) -> Invitation:
    user = find_user_by_phone(number)
    return Invitation.get(event_pk(event_id), invitation_sk(user.id), consistent_read=True)


# --------------------------------------------------------------------------- the link


def test_each_texted_invitation_carries_its_own_link_and_only_the_hash_is_stored(client):
    alice = make_person("Alice Smith")
    first, second = phone(), phone()
    event = invite_by_text(client, alice, first, second, title="Birthday")
    paths = [link_texted_to(number) for number in (first, second)]
    (text,) = texts_to(first)
    assert f"{PUBLIC_BASE}{paths[0]}" in text and "Alice Smith" in text and '"Birthday"' in text
    assert sms.segments(text) <= 2
    codes = [path.removeprefix("/i/") for path in paths]
    assert codes[0] != codes[1]
    for code, number in zip(codes, (first, second), strict=True):
        # 24 URL-safe base64 bytes: the event id and 17 random bytes (136 bits)
        assert len(base64.urlsafe_b64decode(code)) == 24 and invite_links.event_id_of(code) == event["id"]
        assert stored_invitation(event["id"], number).link_hash == hashlib.sha256(code.encode()).hexdigest()
    stored = repr(table_items())
    assert not any(code in stored for code in codes)


def test_people_with_an_account_get_no_text_and_no_link(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event, _, _ = invited(client, alice)
    post_json(client, f"/events/{event['id']}", {"invite_phone_numbers": [bob.phone]}, token=alice.token)
    assert texts_to(bob.phone) == []
    assert Invitation.get(event_pk(event["id"]), invitation_sk(bob.id)).link_hash is None


def test_numbers_invited_later_by_an_edit_get_a_link_too(client):
    alice = make_person("Alice")
    event, _, _ = invited(client, alice)
    newcomer = phone()
    response = post_json(client, f"/events/{event['id']}", {"invite_phone_numbers": [newcomer]}, token=alice.token)
    assert response.status_code == 200
    assert page(client, link_texted_to(newcomer)).status_code == 200


def test_a_long_name_and_title_are_cut_so_the_text_with_its_whole_link_fits_three_ucs2_segments(client):
    alice = make_person("Alice " + "Longname" * 30)
    number = phone()
    invite_by_text(client, alice, number, title="A very long title \U0001f389 " * 9)
    (text,) = texts_to(number)
    assert sms.encoding(text) == "ucs2" and sms.segments(text) <= 3
    assert page(client, link_in(text)).status_code == 200  # the link survived whole


def test_without_a_public_base_url_texts_carry_no_link(client, override_settings):
    override_settings(public_base_url="")
    number = phone()
    invite_by_text(client, make_person("Alice"), number)
    (text,) = texts_to(number)
    assert "/i/" not in text and "app to reply" in text


# --------------------------------------------------------------------------- the page


def test_the_page_shows_the_event_and_counts_but_no_numbers_or_other_guests(client):
    alice, bob = make_person("Alice Smith"), make_person("Bob Builder")
    event, number, path = invited(
        client, alice, total_spots=5, venue_name="Cafe <Central>", address="1 Main St", title="Dinner & drinks"
    )
    post_json(client, f"/events/{event['id']}", {"invite_phone_numbers": [bob.phone]}, token=alice.token)
    post_json(client, f"/events/{event['id']}/accept", {"rsvp_message": "Bob is in"}, token=bob.token)

    response = page(client, path)

    assert response.status_code == 200
    assert response.headers["Content-Type"] == HTML
    html = text_of(response)
    assert html.startswith("<!doctype html>") and '<html lang="en" dir="ltr">' in html
    assert '<h1 dir="auto">Dinner &amp; drinks</h1>' in html and "Cafe &lt;Central&gt;" in html and "1 Main St" in html
    assert (
        '<time datetime="2030-06-01T18:30:00Z" data-offset="0" data-yours="{time} your time">'
        "Saturday, June 1, 2030 at 6:30 PM UTC</time>"
    ) in html
    assert '<span dir="auto">Alice Smith</span> invited you' in html
    assert "2 people going, 4 spots left" in html  # the owner and Bob; 5 spots, Bob holds one
    assert "You haven't answered yet." in html
    assert '<label for="message">' in html and 'id="message"' in html and 'maxlength="60"' in html
    assert 'value="accept"' in html and 'value="decline"' in html
    # never another guest's name or message, never a phone number
    assert "Bob" not in html
    for number_shown in (alice.phone, bob.phone, number):
        assert number_shown not in html and number_shown[2:] not in html
    assert shown_phone_numbers(html) == []
    # small: no framework, no external resource (the light and dark styles and the language links included)
    assert len(response.body) < 10 * 1024
    assert not re.search(r"""src=["']?https?:""", html)
    # the only addresses elsewhere are the place's maps links, followed only when pressed
    outside = re.findall(r"""<a href="(https?:[^"]*)"[^>]*>""", html)
    assert [url.split("?")[0] for url in outside] == ["https://maps.apple.com/", "https://www.google.com/maps/search/"]
    assert len(re.findall(r"""href=["']?https?:""", html)) == 2


def test_a_host_without_a_name_is_named_alike_on_the_page_and_in_the_text_never_by_whole_number(client):
    owner = make_person("")
    _, number, path = invited(client, owner)
    label = f"Your host (number ending {owner.phone[-4:]})"
    html = text_of(page(client, path))
    assert f'<span dir="auto">{label}</span> invited you' in html
    [text] = texts_to(number)
    assert text.startswith(f"Invites: {label} invited you to")
    for shown in (html, text):
        assert owner.phone not in shown and owner.phone[2:] not in shown


def test_an_event_without_time_shows_its_day(client):
    _, _, path = invited(client, make_person("Alice"), event_date="2030-06-01T00:00:00Z")
    html = text_of(page(client, path))
    assert '<time datetime="2030-06-01">Saturday, June 1, 2030</time>' in html


def test_privacy_headers_and_a_policy_that_allows_only_the_pages_own_script(client):
    _, _, path = invited(client, make_person("Alice"))
    response = page(client, path)
    headers = response.headers
    assert headers["X-Robots-Tag"] == "noindex" and headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"] == "no-store" and headers["X-Content-Type-Options"] == "nosniff"
    html = text_of(response)
    (script,) = re.findall(r"<script>(.*?)</script>", html, re.S)
    (style,) = re.findall(r"<style>(.*?)</style>", html, re.S)
    policy = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))

    def sha(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == sha(script) and policy["style-src"] == sha(style)
    assert policy["form-action"] == "'self'" and policy["frame-ancestors"] == "'none'"
    assert "<script src" not in html and "unsafe-inline" not in headers["Content-Security-Policy"]


def open_graph_tags(html: str) -> dict[str, str]:
    return {
        name: unescape(value) for name, value in re.findall(r'<meta property="(og:[a-z_]+)" content="([^"]*)">', html)
    }


def test_link_previews_show_title_when_and_rsvp_but_no_place_number_or_name(client):
    alice, bob = make_person("Alice Smith"), make_person("Bob Builder")
    event, number, path = invited(
        client, alice, title='Sam\u2019s "30th" <dinner>', event_date="2026-12-13T04:30:00Z",
        time_zone="America/Los_Angeles", venue_name="Chez Panisse", address="1517 Shattuck Ave",
    )  # fmt: skip
    post_json(client, f"/events/{event['id']}", {"invite_phone_numbers": [bob.phone]}, token=alice.token)
    post_json(client, f"/events/{event['id']}/accept", {"rsvp_message": "Bob is in"}, token=bob.token)
    response = page(client, path)
    tags = open_graph_tags(text_of(response))
    assert tags == {
        "og:type": "website",
        "og:site_name": "Invites",
        "og:title": 'Sam\u2019s "30th" <dinner>',
        "og:description": "Saturday, December 12, 2026 at 8:30 PM PST. RSVP on this page.",
        "og:url": PUBLIC_BASE + path,
    }
    shown = " ".join(tags.values())
    for private in ("Chez Panisse", "1517 Shattuck", "Alice", "Bob", alice.phone, bob.phone, number, number[2:]):
        assert private not in shown
    assert response.headers["X-Robots-Tag"] == "noindex" and "Content-Security-Policy" in response.headers


def test_head_answers_with_the_headers_and_no_body(client):
    _, _, path = invited(client, make_person("Alice"))
    response = client.http.request("HEAD", path)
    assert response.status_code == 200 and response.body == b""
    assert response.headers["Content-Type"] == HTML and response.headers["X-Robots-Tag"] == "noindex"
    response = client.http.request("HEAD", f"{path}/event.ics")
    assert response.status_code == 200 and response.body == b""
    assert response.headers["Content-Type"] == "text/calendar; charset=utf-8"


def test_the_request_log_names_the_route_never_the_code(client, capsys):
    _, _, path = invited(client, make_person("Alice"))
    capsys.readouterr()
    answer(client, path, "accept", "hello")
    logged = capsys.readouterr().out
    assert '"route": "/i/{code}"' in logged and '"route": "/i/{code}/rsvp"' in logged
    assert path.removeprefix("/i/") not in logged and "hello" not in logged


def test_unknown_malformed_and_expired_codes_get_the_same_404_page(client):
    _, _, path = invited(client, make_person("Alice"), event_date="2030-06-01T18:30:00Z")
    code = path.removeprefix("/i/")
    _, _, old_path = invited(
        client, make_person("Olga"), event_date=(datetime.now(UTC) - timedelta(days=8)).isoformat()
    )
    forged = invite_links.new_code(invite_links.event_id_of(code))  # the right event, a wrong secret
    candidates = [
        old_path,  # its event was 8 days ago
        f"/i/{forged}",
        f"/i/{invite_links.new_code(12345)}",  # no such event
        "/i/abc",
        f"/i/{code}x",
        f"/i/{code[:-1]}*",
        f"/i/{'A' * 32}",  # event id 0
    ]
    answers = [page(client, candidate) for candidate in candidates]
    assert {response.status_code for response in answers} == {404}
    assert len({response.body for response in answers}) == 1
    shown = [{k: v for k, v in response.headers.items() if k != "X-Request-Id"} for response in answers]
    assert all(headers == shown[0] for headers in shown)
    assert shown[0]["Content-Type"] == HTML and shown[0]["X-Robots-Tag"] == "noindex"
    assert "This link doesn" in text_of(answers[0])
    assert page(client, f"{old_path}/event.ics").body == answers[0].body
    assert post_form(client, f"{old_path}/rsvp", {"answer": "accept"}).body == answers[0].body


def test_a_link_works_until_seven_days_after_the_event(client):
    six_days_ago = (datetime.now(UTC) - timedelta(days=6, hours=23)).isoformat()
    _, _, path = invited(client, make_person("Alice"), event_date=six_days_ago)
    response = page(client, path)
    assert response.status_code == 200
    assert "This event has already taken place." in text_of(response) and ANSWER_FORM not in text_of(response)


# --------------------------------------------------------------------------- answering


def test_accept_then_decline_redirects_to_the_page_showing_the_new_state(client):
    alice = make_person("Alice")
    event, number, path = invited(client, alice, total_spots=3)
    code = path.removeprefix("/i/")

    response = answer(client, path, "accept", "See you there!")

    assert response.status_code == 303 and response.body == b""
    assert response.headers["Location"] == f"../{code}?answered=1"  # /i/<code>/rsvp -> /i/<code>
    html = text_of(page(client, f"{path}?answered=1"))
    assert "Thanks! Your answer is saved." in html and 'role="status"' in html
    assert 'You\'re going. Your message: \u201c<span dir="auto">See you there!</span>\u201d' in html
    assert "2 people going, 2 spots left" in html
    guest = stored_invitation(event["id"], number)
    assert guest.has_accepted is True and guest.rsvp_message == "See you there!"
    assert stored_event(event["id"]).spots_filled == 1

    # the last answer counts
    assert answer(client, path, "decline").status_code == 303
    html = text_of(page(client, path))
    assert "You're not going." in html and "Thanks!" not in html and "1 person going, 3 spots left" in html
    assert stored_event(event["id"]).spots_filled == 0
    shown = body(get(client, f"/events/{event['id']}", token=alice.token))
    assert shown["invitees"][1]["is_attending"] is False and shown["attendees_count"] == 1


def pressed_buttons(html: str) -> dict[str, str]:
    return dict(re.findall(r'<button type="submit" name="answer" value="(\w+)"[^>]*aria-pressed="(\w+)"', html))


def message_field(html: str) -> str:
    (value,) = re.findall(r'id="message"[^>]*\svalue="([^"]*)"', html)
    return unescape(value)


def test_the_page_remembers_the_chosen_answer_and_the_message(client):
    _, _, path = invited(client, make_person("Alice"))
    html = text_of(page(client, path))
    assert (
        pressed_buttons(html) == {"accept": "false", "maybe": "false", "decline": "false"} and message_field(html) == ""
    )

    answer(client, path, "accept", 'Bringing "cake" & tea')
    html = text_of(page(client, path))
    assert pressed_buttons(html) == {"accept": "true", "maybe": "false", "decline": "false"}
    assert message_field(html) == 'Bringing "cake" & tea'  # answering again keeps it unless it is changed
    assert f'<a href="{path.removeprefix("/i/")}/event.ics" download>' in html  # the file's name is the server's

    answer(client, path, "decline", "Sorry, ill")
    html = text_of(page(client, path))
    assert (
        pressed_buttons(html) == {"accept": "false", "maybe": "false", "decline": "true"}
        and message_field(html) == "Sorry, ill"
    )


def test_a_refused_answer_shows_what_was_typed_not_the_stored_message(client):
    _, _, path = invited(client, make_person("Alice"))
    answer(client, path, "accept", "First")
    refused = answer(client, path, "sometimes", "Second thoughts")
    assert refused.status_code == 400 and message_field(text_of(refused)) == "Second thoughts"


def test_the_owner_sees_the_web_answer_like_an_app_answer(client):
    alice = make_person("Alice")
    event, number, path = invited(client, alice)
    answer(client, path, "accept", "On my way")
    shown = body(get(client, f"/events/{event['id']}", token=alice.token))
    (guest,) = [inv for inv in shown["invitees"] if inv["phone_number"] == number]
    assert guest["is_attending"] is True and guest["rsvp_message"] == "On my way" and guest["rsvp_time"]
    assert shown["attendees_count"] == 2 and shown["spots_filled"] == 1


def test_the_answer_is_on_the_invitation_when_the_person_logs_in_with_the_app(client):
    event, number, path = invited(client, make_person("Alice"))
    answer(client, path, "accept", "Yes!")
    token = login(client, number)["auth_token"]
    mine = body(get(client, f"/events/{event['id']}", token=token))
    assert mine["i_am_attending"] is True and mine["my_rsvp_message"] == "Yes!"
    # and an answer from the app shows on the page
    post_json(client, f"/events/{event['id']}/reject", {}, token=token)
    assert "You're not going." in text_of(page(client, path))


def test_the_owner_gets_the_same_push_as_for_an_app_answer(client, override_settings):
    queue = use_queue(override_settings)
    alice, bob = make_person("Alice"), make_person("Bob")
    alice_arn = add_device(alice, "a1" * 32)
    event, number, path = invited(client, alice)
    post_json(client, f"/events/{event['id']}", {"invite_phone_numbers": [bob.phone]}, token=alice.token)
    drain(queue)

    def delivered() -> None:
        bodies = drain(queue)
        client.lambda_.invoke("send_notifications", client.events.generate_sqs_event(bodies, queue_name="q"))

    post_json(client, f"/events/{event['id']}/accept", {"rsvp_message": "Hi"}, token=bob.token)
    delivered()
    answer(client, path, "accept", "Hi")
    delivered()
    from_app, from_web = pushes(alice_arn)
    assert from_web == {**from_app, "aps": {**from_app["aps"], "alert": from_web["aps"]["alert"]}}
    assert from_web["type"] == "invite_rsvp" and from_web["event_id"] == event["id"]
    assert from_web["aps"]["alert"] == {"title": "Picnic", "body": f"{number} is coming. \u201cHi\u201d"}


def test_a_message_over_60_characters_is_refused_and_nothing_is_stored(client):
    event, number, path = invited(client, make_person("Alice"))
    assert page(client, path).status_code == 200  # the guest's first visit is noted before the snapshot
    before = table_items()
    response = answer(client, path, "accept", "x" * 61)
    assert response.status_code == 400 and response.headers["Content-Type"] == HTML
    html = text_of(response)
    assert "Ensure this field has no more than 60 characters." in html and 'aria-invalid="true"' in html
    assert 'value="' + "x" * 61 + '"' in html  # what was typed is kept
    assert table_items() == before
    assert answer(client, path, "accept", "x" * 60).status_code == 303


def test_the_maybe_button_records_maybe_frees_the_spot_and_shows_pressed(client):
    alice = make_person("Alice")
    event, number, path = invited(client, alice, total_spots=3)
    answer(client, path, "accept")
    assert stored_event(event["id"]).spots_filled == 1
    assert answer(client, path, "maybe", "Not sure yet").status_code == 303
    html = text_of(page(client, path))
    assert pressed_buttons(html) == {"accept": "false", "maybe": "true", "decline": "false"}
    assert "You said maybe." in html and message_field(html) == "Not sure yet"
    guest = stored_invitation(event["id"], number)
    assert guest.maybe is True and guest.has_accepted is None
    assert stored_event(event["id"]).spots_filled == 0
    shown = body(get(client, f"/events/{event['id']}", token=alice.token))
    assert shown["invitees"][1]["answer"] == "maybe" and shown["maybe_count"] == 1


def test_an_answer_that_is_neither_accept_nor_decline_is_refused(client):
    _, _, path = invited(client, make_person("Alice"))
    assert page(client, path).status_code == 200  # the guest's first visit is noted before the snapshot
    before = table_items()
    response = answer(client, path, "sometimes")
    assert response.status_code == 400 and "Choose Accept or Decline." in text_of(response)
    assert table_items() == before


@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        ({"message": "hi"}, "Choose Accept or Decline."),  # no answer at all
        ({"answer": "accept", "message": "a\x00b"}, "Null characters are not allowed."),
    ],
)
def test_a_missing_answer_or_bad_characters_in_the_message_are_400_and_nothing_is_stored(client, fields, shown):
    _, _, path = invited(client, make_person("Alice"))
    token = form_token(text_of(page(client, path)))
    before = table_items()
    response = post_form(client, f"{path}/rsvp", {"csrf": token, **fields})
    assert response.status_code == 400 and response.headers["Content-Type"] == HTML
    assert shown in text_of(response)
    assert table_items() == before


def test_a_lone_surrogate_in_the_form_is_400_and_nothing_is_stored(client):
    _, _, path = invited(client, make_person("Alice"))
    token = form_token(text_of(page(client, path)))
    before = table_items()
    raw = f"csrf={quote(token)}&answer=accept&message=a%ED%A0%80b".encode()  # U+D800 has no UTF-8 form
    response = client.http.post(f"{path}/rsvp", body=raw, headers={"Content-Type": FORM, **FROM_THE_PAGE})
    assert response.status_code == 400 and response.headers["Content-Type"] == HTML
    assert table_items() == before


def test_a_link_answers_for_its_own_invitation_only(client):
    alice = make_person("Alice")
    first, second = phone(), phone()
    event = invite_by_text(client, alice, first, second)
    first_path, second_path = link_texted_to(first), link_texted_to(second)
    other_event = invite_by_text(client, make_person("Bob"), first)  # the same number, another event
    assert first_path != second_path
    # WHEN the first guest answers on their own link
    assert answer(client, first_path, "accept").status_code == 303
    # THEN only their invitation to this event changed
    assert stored_invitation(event["id"], first).has_accepted is True
    assert stored_invitation(event["id"], second).has_accepted is None
    assert stored_invitation(other_event["id"], first).has_accepted is None
    # AND the first guest's form token does not answer on the second guest's link
    token = form_token(text_of(page(client, first_path)))
    refused = post_form(client, f"{second_path}/rsvp", {"csrf": token, "answer": "accept"})
    assert refused.status_code == 403
    assert stored_invitation(event["id"], second).has_accepted is None


def test_forged_and_unknown_codes_get_the_404_page_on_every_route(client):
    event, number, path = invited(client, make_person("Alice"))
    code = path.removeprefix("/i/")
    not_found = page(client, "/i/abc").body
    forged = invite_links.new_code(invite_links.event_id_of(code))  # the right event, a wrong secret
    before = table_items()
    for candidate in (f"/i/{forged}", f"/i/{invite_links.new_code(12345)}", "/i/abc"):
        ics = page(client, f"{candidate}/event.ics")
        posted = post_form(client, f"{candidate}/rsvp", {"answer": "accept", "csrf": "x"})
        assert (ics.status_code, posted.status_code) == (404, 404)
        assert ics.body == posted.body == not_found
    assert stored_invitation(event["id"], number).has_accepted is None
    assert table_items() == before  # the events table; rate counters live in the auth table


def test_a_full_event_offers_only_decline_and_refuses_an_accept(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event, number, path = invited(client, alice, total_spots=1)
    opened = text_of(page(client, path))
    post_json(client, f"/events/{event['id']}", {"invite_phone_numbers": [bob.phone]}, token=alice.token)
    assert post_json(client, f"/events/{event['id']}/accept", {}, token=bob.token).status_code == 200

    html = text_of(page(client, path))
    assert "This event is full: there are no spots left. You can still say you can&#x27;t make it." in html
    assert 'value="accept"' not in html and 'value="decline"' in html and "0 spots left" in html
    # a form opened before it filled up is refused by the same capacity rule as the app's accept
    fields = {"csrf": form_token(opened), "message": "", "answer": "accept"}
    response = post_form(client, f"{path}/rsvp", fields)
    assert response.status_code == 409 and "This event is full." in text_of(response)
    assert stored_invitation(event["id"], number).has_accepted is None
    assert stored_event(event["id"]).spots_filled == 1


def test_a_guest_who_holds_a_spot_of_a_full_event_can_still_decline(client):
    event, number, path = invited(client, make_person("Alice"), total_spots=1)
    assert answer(client, path, "accept").status_code == 303
    html = text_of(page(client, path))
    assert "You're going." in html and 'value="decline"' in html
    assert answer(client, path, "decline").status_code == 303
    assert stored_event(event["id"]).spots_filled == 0


def test_a_cancelled_event_shows_so_and_takes_no_answer(client):
    alice = make_person("Alice")
    event, number, path = invited(client, alice)
    opened = text_of(page(client, path))
    assert put(client, f"/events/{event['id']}/cancel_event", alice.token).status_code == 204
    html = text_of(page(client, path))
    assert "This event has been cancelled." in html and ANSWER_FORM not in html
    response = post_form(client, f"{path}/rsvp", {"csrf": form_token(opened), "answer": "accept"})
    assert response.status_code == 409 and "This event has been cancelled." in text_of(response)
    assert stored_invitation(event["id"], number).has_accepted is None


def test_a_past_event_shows_so_and_takes_no_answer(client):
    yesterday = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    event, number, path = invited(client, make_person("Alice"), event_date=yesterday)
    html = text_of(page(client, path))
    assert "This event has already taken place." in html and ANSWER_FORM not in html
    response = post_form(client, f"{path}/rsvp", {"csrf": "0.x", "answer": "accept"})
    assert response.status_code in (403, 409)  # an old form: either refusal stores nothing
    page_obj = guest_answers.open_link(path.removeprefix("/i/"), "127.0.0.1")
    response = post_form(client, f"{path}/rsvp", {"csrf": guest_answers.form_token(page_obj), "answer": "accept"})
    assert response.status_code == 409 and "already taken place" in text_of(response)
    assert stored_invitation(event["id"], number).has_accepted is None


def test_parallel_web_accepts_never_overfill(client):
    """The page answers through replies.rsvp's transaction: threads racing for 2 spots get exactly 2."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from chalicelib.errors import Conflict

    numbers = [phone() for _ in range(6)]
    event = invite_by_text(client, make_person("Alice"), *numbers, total_spots=2)
    pages = [guest_answers.open_link(link_texted_to(number).removeprefix("/i/"), "127.0.0.1") for number in numbers]
    barrier = Barrier(len(pages))

    def press_accept(guest_page) -> str:
        barrier.wait()
        try:
            guest_answers.answer(guest_page, accept=True, message="")
            return "ok"
        except Conflict as refused:
            return body_of(refused)["detail"]

    with ThreadPoolExecutor(len(pages)) as pool:
        outcomes = list(pool.map(press_accept, pages))
    assert outcomes.count("ok") == 2 and outcomes.count("This event is full.") == 4
    assert stored_event(event["id"]).spots_filled == 2


# --------------------------------------------------------------------------- forgery and abuse


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example", "Sec-Fetch-Site": ""},
        {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
        {"Origin": PUBLIC_BASE, "Sec-Fetch-Site": "same-site"},
    ],
    ids=["other-origin", "cross-site-fetch", "same-site-fetch"],
)
def test_cross_site_posts_are_refused_and_change_nothing(client, headers):
    event, number, path = invited(client, make_person("Alice"))
    assert page(client, path).status_code == 200  # the guest's first visit is noted before the snapshot
    before = table_items()
    response = answer(client, path, "accept", headers=headers)
    assert response.status_code == 403 and response.headers["Content-Type"] == HTML
    assert "Answer not accepted" in text_of(response)
    assert table_items() == before


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": PUBLIC_BASE, "Sec-Fetch-Site": "same-origin"},
        {"Origin": "null", "Sec-Fetch-Site": "same-origin"},  # what the no-referrer page makes browsers send
        {"Origin": "", "Sec-Fetch-Site": ""},  # an older browser: the form token decides
    ],
    ids=["public-origin", "null-origin", "no-headers"],
)
def test_posts_from_the_page_itself_pass(client, headers):
    _, _, path = invited(client, make_person("Alice"))
    assert answer(client, path, "accept", headers=headers).status_code == 303


def test_a_missing_forged_or_expired_form_token_is_refused_and_the_page_offers_a_fresh_form(client):
    event, number, path = invited(client, make_person("Alice"))
    guest_page = guest_answers.open_link(path.removeprefix("/i/"), "127.0.0.1")
    other_event, _, other_path = invited(client, make_person("Olga"))
    other_page = guest_answers.open_link(other_path.removeprefix("/i/"), "127.0.0.1")
    day_ago = datetime.now(UTC).timestamp() - 86401
    before = table_items()
    stale_tokens = (guest_answers.form_token(other_page), guest_answers.form_token(guest_page, day_ago))
    for token in (None, "", "123.abc", *stale_tokens):
        fields = {"answer": "accept", "message": "hi"} | ({"csrf": token} if token is not None else {})
        response = post_form(client, f"{path}/rsvp", fields)
        assert response.status_code == 403, token
        html = text_of(response)
        assert "This form was open too long, so your answer was not sent." in html and "Reload" not in html
        assert 'value="hi"' in html  # what was typed is kept
        assert guest_answers.form_token_valid(guest_page, form_token(html))
    assert table_items() == before


def test_a_form_post_of_another_type_is_415_and_an_unreadable_body_400(client):
    _, _, path = invited(client, make_person("Alice"))
    response = post_json(client, f"{path}/rsvp", {"answer": "accept"})
    assert response.status_code == 415 and response.headers["Content-Type"] == HTML
    response = client.http.post(f"{path}/rsvp", body=b"answer=%ff", headers={"Content-Type": FORM})
    assert response.status_code == 400 and response.headers["Content-Type"] == HTML


def test_page_views_and_posts_are_limited_per_address(client, override_settings):
    override_settings(web_requests_per_ip_per_hour=3)
    _, _, path = invited(client, make_person("Alice"))
    assert page(client, path).status_code == 200
    assert page(client, "/i/abc").status_code == 404  # wrong codes count too: no guessing at speed
    assert answer(client, path, "accept").status_code == 429  # its page view was the third
    response = page(client, path)
    assert response.status_code == 429 and response.headers["Content-Type"] == HTML
    assert int(response.headers["Retry-After"]) > 0
    assert f"Try again in {response.headers['Retry-After']} seconds." in text_of(response)


def test_ipv6_callers_are_counted_per_64(client, override_settings, monkeypatch):
    override_settings(web_requests_per_ip_per_hour=2)
    _, _, path = invited(client, make_person("Alice"))

    def from_address(address: str) -> int:
        monkeypatch.setattr(LambdaEventConverter, "LOCAL_SOURCE_IP", address)
        return page(client, path).status_code

    assert from_address("2001:db8:1:2::1") == 200
    assert from_address("2001:db8:1:2:ffff:ffff:ffff:fffe") == 200
    assert from_address("2001:db8:1:2::99") == 429  # same /64
    assert from_address("2001:db8:1:3::1") == 200  # the next /64


def test_the_page_reads_the_event_with_its_usual_calls(client, aws):
    _, _, path = invited(client, make_person("Alice"), total_spots=3)
    assert page(client, path).status_code == 200  # the first visit adds one UpdateItem (test_invitation_insight.py)
    aws.reset()
    assert page(client, path).status_code == 200
    # the rate counter, the event's partition, one BatchGetItem of the host and one Query of the latest
    # announcements (side by side): detail's 2 + 2 (the counter's add is a one-item transaction: applied once)
    assert aws.of("dynamodb") == {"TransactWriteItems": 1, "Query": 2, "BatchGetItem": 1}
    assert aws.total("dynamodb") == 4


def test_the_page_shows_the_latest_three_announcements_newest_first_each_in_its_direction(client, aws):
    owner = make_person("Alice")
    event, _, path = invited(client, owner)
    assert "From the host" not in text_of(page(client, path))
    said = ["First news", "שלום לכולם", "مرحبا 🎉", "Bring <dice> & snacks 🎲"]
    for text in said:
        response = post_json(client, f"/events/{event['id']}/announcements", {"text": text}, owner.token)
        assert response.status_code == 201
    aws.reset()
    html = text_of(page(client, path))
    assert aws.of("dynamodb") == {"TransactWriteItems": 1, "Query": 2, "BatchGetItem": 1}
    shown = re.findall(r'<li><p dir="auto">(.*?)</p><time datetime="[0-9T:-]+Z">', html)
    assert shown == ["Bring &lt;dice&gt; &amp; snacks 🎲", said[2], said[1]]
    assert "First news" not in html and html.index("Your answer") < html.index("From the host")  # the answer first


def test_an_answer_reads_the_event_once_and_writes_through_the_rsvp_transaction(client, aws, override_settings):
    use_queue(override_settings)  # the push to the owner is queued, as in AWS, not sent in the request
    _, _, path = invited(client, make_person("Alice"), total_spots=3)
    opened = text_of(page(client, path))
    aws.reset()
    fields = {"csrf": form_token(opened), "message": "", "answer": "accept"}
    assert post_form(client, f"{path}/rsvp", fields).status_code == 303
    # the rate counter and the partition; then replies.rsvp: its invitation and META read, its transaction
    assert aws.of("dynamodb") == {"Query": 1, "BatchGetItem": 1, "TransactWriteItems": 2}
    assert aws.of("sqs") == {"SendMessage": 1}


def test_dynamodb_throttling_gives_a_503_page(client, fail_aws):
    _, _, path = invited(client, make_person("Alice"))
    fail_aws("dynamodb", "Query")
    response = page(client, path)
    assert response.status_code == 503 and response.headers["Content-Type"] == HTML
    assert response.headers["Retry-After"] and "Please try again" in text_of(response)


def test_the_page_and_its_form_work_with_a_deployed_stages_key_from_ssm(client, deployed_stage, override_settings):
    from chalicelib.config import Settings

    # as deployed: no PIN_SECRET in the functions' environment (scripts/chalice_cli.py refuses one)
    override_settings(pin_secret=Settings.pin_secret)
    put_pin_key(KEY)
    event, number, path = invited(client, make_person("Alice"))
    assert answer(client, path, "accept").status_code == 303
    assert stored_invitation(event["id"], number).has_accepted is True


def test_other_methods_are_405(client):
    _, _, path = invited(client, make_person("Alice"))
    response = client.http.request("DELETE", path)
    assert response.status_code == 405 and response.headers["Allow"] == "GET, HEAD"
    assert client.http.get(f"{path}/rsvp").status_code == 405


def test_a_cancelled_events_preview_does_not_ask_for_an_answer(client):
    alice = make_person("Alice Smith")
    event, _number, path = invited(client, alice, event_date="2026-12-13T04:30:00Z", time_zone="America/Los_Angeles")
    assert put(client, f"/events/{event['id']}/cancel_event", alice.token).status_code == 204
    tags = open_graph_tags(text_of(page(client, path)))
    assert tags["og:description"] == "Saturday, December 12, 2026 at 8:30 PM PST. This event was cancelled."


def test_words_people_wrote_are_laid_out_by_their_own_script(client):
    host = make_person("\u05d3\u05e0\u05d4 \u05db\u05d4\u05df")  # Hebrew
    title, venue, address = (
        "\u0639\u064a\u062f \u0645\u064a\u0644\u0627\u062f",
        "\u05d1\u05d9\u05ea \u05e7\u05e4\u05d4",
        "1 Main St",
    )
    _, _, path = invited(client, host, title=title, venue_name=venue, address=address, max_extra_guests=2)
    html = text_of(page(client, path))
    assert f'<h1 dir="auto">{title}</h1>' in html
    for written in (host.user.full_name, venue, address):
        assert f'<span dir="auto">{written}</span>' in html
    assert re.search(r'<input type="text" id="message"[^>]* dir="auto"', html)
    # the extra-guests choice is at least as tall as 44 CSS px (rem = 16 px)
    height = re.search(r"select\{[^}]*min-height:([\d.]+)rem", html)
    assert height and float(height.group(1)) * 16 >= 44


def test_the_page_asks_the_questions_and_keeps_the_answers(client):
    alice = make_person("Alice")
    asked = [
        {"text": "Main course", "kind": "choice", "choices": ["Fish", "Veggie"], "required": True},
        {"text": "Anything you don't eat?"},
    ]
    event, number, path = invited(client, alice, total_spots=3, questions=asked)
    html = text_of(page(client, path))
    assert 'type="radio" name="answer_q1" value="Fish"' in html and 'name="answer_q2" maxlength="280"' in html
    assert "Main course (required)" in html
    # accepting without the required answer is refused on the page, and nothing is stored
    refused = answer(client, path, "accept")
    assert refused.status_code == 400 and "Answer the questions marked required" in text_of(refused)
    assert stored_invitation(event["id"], number).has_accepted is None
    opened = text_of(page(client, path))
    fields = {"csrf": form_token(opened), "message": "", "answer": "accept", "answer_q1": "Veggie", "answer_q2": "Nuts"}
    assert post_form(client, f"{path}/rsvp", fields).status_code == 303
    assert stored_invitation(event["id"], number).answers == {"q1": "Veggie", "q2": "Nuts"}
    html = text_of(page(client, path))
    assert 'value="Veggie" checked>' in html and 'value="Nuts"' in html
    # declining needs no answer
    assert answer(client, path, "decline").status_code == 303


def test_a_refused_answer_shows_a_page_whose_links_and_forms_still_lead_to_the_page(client):
    from urllib.parse import urljoin

    _, _, path = invited(client, make_person("Alice"))
    refused = answer(client, path, "sometimes")
    assert refused.status_code == 400
    html = text_of(refused)
    here = f"http://x{path}/rsvp"  # the address the refused page is shown at
    targets = re.findall(r'(?:action|href)="([^"]+)"', html)
    subscribe = [target for target in targets if target.startswith("webcal://")]  # absolute: the page's own feed
    assert subscribe == [f"webcal://invites.example.test{path}/calendar.ics"]
    targets = [target for target in targets if target not in subscribe]
    resolved = {urljoin(here, target).removeprefix("http://x") for target in targets if not target.startswith("#")}
    assert {f"{path}/rsvp", f"{path}/stop", f"{path}/event.ics", "/account/delete"} <= resolved
    assert all(target.startswith(("/i/", "/account/")) for target in resolved), resolved
