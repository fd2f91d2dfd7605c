"""The guest page's order and links as the service writes them: what stops an answer comes first, then the title,
when and the answer buttons, then the rest; the place is a map link only for a guest who may see it; links in the
host's announcements are clickable and nothing else is. (The same pages in Chromium: test_first_screen_browser.py.)"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

from chalicelib.guest_page import pages
from chalicelib.guest_page.answer_form import answer_form
from chalicelib.services.hosting import events
from tests.utils.api import post_json
from tests.utils.factories import make_event, make_person, phone, put
from tests.utils.web import answer, invite_by_text, link_texted_to, page, text_of

PLACE = {"venue_name": "The Loft", "address": "5 Elm St", "location": {"latitude": 40.7, "longitude": -74.0}}
MAPS = ("geo:40.7,-74", "https://maps.apple.com/", "https://www.google.com/maps/search/")


def _page(client, **fields) -> tuple[dict, object, str]:
    host = make_person("Alice Smith")
    number = phone()
    event = invite_by_text(client, host, number, total_spots=5, max_extra_guests=2,
                           questions=[{"text": "Allergies?", "kind": "text"}], **PLACE, **fields)  # fmt: skip
    return event, host, link_texted_to(number)


def _shown(client, path: str, part: str = "html") -> str:
    """The page at ``path`` (200), whole or only its ``main``."""
    opened = page(client, path)
    assert opened.status_code == 200, opened.body
    whole = text_of(opened)
    return whole if part == "html" else whole.split("<main>", 1)[1].split("</main>", 1)[0]


def _at(html: str, piece: str) -> int:
    assert piece in html, piece
    return html.index(piece)


def test_the_answer_buttons_follow_the_title_and_when_and_the_rest_of_the_form_follows_them(client):
    _, _, path = _page(client)
    main = _shown(client, path, "main")
    order = ['<h1 dir="auto">', '<p class="when"><time', 'value="accept"', 'value="decline"', 'id="message"']
    order += ['id="extra_guests"', "Allergies?", 'id="answer"', "<dt>Where</dt>", "<dt>Going</dt>", "Add to calendar"]
    assert [_at(main, piece) for piece in order] == sorted(_at(main, piece) for piece in order)
    form = main.split('/rsvp">', 1)[1].split("</form>", 1)[0]
    assert 'value="accept"' in form and 'id="message"' in form and 'id="extra_guests"' in form and "Allergies?" in form
    assert '<meta name="color-scheme" content="light dark">' in _shown(client, path)


def test_a_cancelled_event_says_so_first_and_shows_no_count(client):
    event, host, path = _page(client)
    assert put(client, f"/events/{event['id']}/cancel_event", host.token).status_code == 204
    main = _shown(client, path, "main")
    assert main.lstrip().startswith('<p class="closed">This event has been cancelled.</p>')
    assert "going" not in main.lower().split('id="answer"')[1] and "spots" not in main
    assert 'value="accept"' not in main


def test_closed_replies_say_so_first_and_leave_only_decline(client):
    _, _, path = _page(client, replies_paused=True)
    main = _shown(client, path, "main")
    assert main.lstrip().startswith('<p class="closed">Replies are closed for this event.')
    assert main.count("Replies are closed") == 1
    assert 'value="accept"' not in main and _at(main, "<h1") < _at(main, 'value="decline"')


def test_the_outcome_of_an_answer_shows_under_the_reason_no_answer_is_possible(client):
    _, _, path = _page(client, replies_paused=True)
    assert answer(client, path, "decline").status_code == 303
    main = _shown(client, f"{path}?answered=1", "main")
    assert _at(main, 'class="closed"') < _at(main, 'class="notice"') < _at(main, "<h1")


def test_the_place_is_a_map_link_for_a_guest_who_may_see_it(client):
    _, _, path = _page(client)
    where = _shown(client, path, "main").split("<dt>Where</dt>", 1)[1].split("</dd>", 1)[0]
    assert '<a class="place" href="geo:40.7,-74?q=40.7,-74">' in where
    assert all(url in where for url in MAPS) and where.count('rel="nofollow noopener"') == 2


def test_a_place_kept_for_accepted_guests_has_no_map_link_until_the_guest_accepts(client):
    _, _, path = _page(client, place_visibility="accepted")
    html = _shown(client, path)
    assert not any(url in html for url in MAPS) and "40.7" not in html and "Loft" not in html
    assert answer(client, path, "accept").status_code == 303
    assert all(url in _shown(client, path) for url in MAPS)


def test_the_join_page_links_the_place_only_when_everyone_may_see_it(client):
    alice = make_person("Alice Host")
    for setting, shown in (("everyone", True), ("accepted", False)):
        event = make_event(alice, title="Party", place_visibility=setting)
        events.update_event(alice.user, event.id, events.EventInput(join_mode="open", venue_name="Hall 9"))
        link = post_json(client, f"/events/{event.id}/join_link", {}, alice.token).json_body["url"]
        html = _shown(client, "/j/" + link.rsplit("/j/", 1)[1])
        assert ("geo:0,0?q=Hall%209" in html) is shown and ("https://maps.apple.com/?q=Hall%209" in html) is shown


def test_links_in_the_hosts_announcements_are_clickable_and_nothing_else(client):
    event, host, path = _page(client)
    news = 'Directions: https://example.org/way?to=loft&x=1. Not javascript:alert(1) nor <a href="https://x.test">x</a>'
    assert post_json(client, f"/events/{event['id']}/announcements", {"text": news}, host.token).status_code == 201
    said = _shown(client, path, "main").split('<ul class="announcements">', 1)[1].split("</ul>", 1)[0]
    anchors = re.findall(r"<a [^>]*>", said)
    assert anchors == [
        '<a href="https://example.org/way?to=loft&amp;x=1" rel="nofollow noopener">',
        '<a href="https://x.test" rel="nofollow noopener">',
    ]
    assert "javascript:alert(1)" in said and "&lt;a href=&quot;" in said  # shown as typed, never as markup


def _form_page(answered=None, maybe=None):
    invitation = SimpleNamespace(has_accepted=answered, maybe=maybe, extra_guests=0, answers={})
    event = SimpleNamespace(max_extra_guests=0, questions=[])
    return SimpleNamespace(code="c" * 32, host_name="Ann", invitation=invitation, event=event,
                           accepting_closed=lambda now: False, full_for_guest=False)  # fmt: skip


def test_the_form_offers_maybe_between_the_other_two_only_where_it_is_offered():
    offered = answer_form(_form_page(), "token", "", None, now=None, maybe=True)
    assert re.findall(r'value="(accept|maybe|decline)"', offered) == ["accept", "maybe", "decline"]
    assert re.findall(r'value="(accept|maybe|decline)"', answer_form(_form_page(), "t", "", None, None)) == [
        "accept",
        "decline",
    ]
    pressed = answer_form(_form_page(answered=False), "token", "", None, now=None, maybe=True)
    assert re.findall(r'value="(\w+)" class="\w+" aria-pressed="true"', pressed) == ["decline"]
    pressed = answer_form(_form_page(maybe=True), "token", "", None, now=None, maybe=True)
    assert re.findall(r'value="(\w+)" class="\w+" aria-pressed="true"', pressed) == ["maybe"]


def test_the_style_is_written_in_logical_properties_so_a_right_to_left_page_mirrors():
    style = (Path(pages.__file__).parent / "page.css").read_text(encoding="utf-8")
    physical = re.findall(r"[\w-]*(?:left|right)[\w-]*\s*:|(?:float|text-align|clear)\s*:\s*(?:left|right)", style)
    assert physical == []
    four_sides = r"(?:margin|padding|inset|border-width):[^\s;}]+\s+[^\s;}]+\s+[^\s;}]+\s+[^\s;}]+"
    assert re.findall(four_sides, style) == []  # top, right, bottom, left: a left that would not mirror


def test_a_cancelled_events_join_page_says_it_is_over_before_the_title(client):
    alice = make_person("Alice Host")
    event = make_event(alice, title="Party")
    events.update_event(alice.user, event.id, events.EventInput(join_mode="open"))
    link = post_json(client, f"/events/{event.id}/join_link", {}, alice.token).json_body["url"]
    events.cancel_event(alice.user, event.id)
    main = _shown(client, "/j/" + link.rsplit("/j/", 1)[1], "main")
    assert main.lstrip().startswith('<p class="closed">This event is over') and _at(main, "over") < _at(main, "<h1")
