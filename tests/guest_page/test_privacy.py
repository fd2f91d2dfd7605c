"""The guest page, its calendar entry and its link preview under guest_list and place_visibility: a guest
invited by text sees the counts and the place only as far as the event's settings let them, the place once
they accept; the defaults show what the page showed before."""

from __future__ import annotations

import re

import icalendar
import pytest

from chalicelib.services.replies import replies
from tests.utils.factories import make_cohost, make_person, phone
from tests.utils.web import answer, invite_by_text, link_texted_to, page, text_of

PLACE = {"venue_name": "The Loft", "address": "5 Elm St", "location": {"latitude": 40.7, "longitude": -74.0}}
HIDDEN = "The host shares the place with the guests who accept."


def _invited(client, **settings) -> tuple[dict, str]:
    """An event of Alice's with Dan (app, accepted) and Cora (co-host), a number invited by text; (event, its page)."""
    alice, dan, cora = make_person("Alice"), make_person("Dan"), make_person("Cora")
    number = phone()
    event = invite_by_text(client, alice, number, dan.phone, cora.phone, total_spots=5, **PLACE, **settings)
    make_cohost(event["id"], cora)
    replies.rsvp(dan.user, event["id"], accept=True, message="")
    return event, link_texted_to(number)


def _details(html: str) -> dict[str, str]:
    """The page's rows (When, Where, Host, Going) as text."""
    rows = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html, re.S)
    return {name: re.sub(r"<[^>]+>", " ", value).strip() for name, value in rows}


def _shown(client, path: str) -> str:
    response = page(client, path)
    assert response.status_code == 200, response.body
    return text_of(response)


def _location(client, path: str):
    response = page(client, f"{path}/event.ics")
    assert response.status_code == 200
    [entry] = icalendar.Calendar.from_ical(response.body).walk("VEVENT")
    return entry.get("LOCATION"), int(entry["SEQUENCE"]), response.body


def test_by_default_the_page_shows_the_place_and_the_counts(client):
    _, path = _invited(client)
    rows = _details(_shown(client, path))
    assert "The Loft" in rows["Where"] and "5 Elm St" in rows["Where"]
    assert rows["Going"] == "2 people going, 4 spots left"
    location, sequence, _ = _location(client, path)
    assert (str(location), sequence) == ("The Loft, 5 Elm St", 0)


@pytest.mark.parametrize(
    ("guest_list", "going"), [("count_only", "2 people going, 4 spots left"), ("hosts_only", None)]
)
def test_the_counts_show_as_the_guest_list_says_and_no_other_guest_ever(client, guest_list, going):
    _, path = _invited(client, guest_list=guest_list)
    html = _shown(client, path)
    assert _details(html).get("Going") == going
    assert "Dan" not in html and "Cora" not in html


def test_an_accepted_only_place_shows_on_the_page_and_in_the_calendar_once_the_guest_accepts(client):
    _, path = _invited(client, place_visibility="accepted")
    html = _shown(client, path)
    assert _details(html)["Where"] == HIDDEN
    assert "The Loft" not in html and "5 Elm St" not in html
    location, sequence, raw = _location(client, path)
    assert location is None and b"GEO" not in raw and b"The Loft" not in raw and sequence == 0
    # declining does not show it
    assert answer(client, path, "decline").status_code == 303
    assert _details(_shown(client, path))["Where"] == HIDDEN
    assert _location(client, path)[0] is None
    # accepting does, and the calendar entry is a later revision, so adding it again updates it
    assert answer(client, path, "accept").status_code == 303
    assert "The Loft" in _details(_shown(client, path))["Where"]
    location, sequence, _ = _location(client, path)
    assert (str(location), sequence) == ("The Loft, 5 Elm St", 1)


def test_a_waiting_guest_has_not_accepted_and_does_not_see_the_place(client):
    alice, dan = make_person("Alice"), make_person("Dan")
    number = phone()
    event = invite_by_text(client, alice, number, dan.phone, total_spots=1, waitlist=True, place_visibility="accepted",
                           **PLACE)  # fmt: skip
    replies.rsvp(dan.user, event["id"], accept=True, message="")
    path = link_texted_to(number)
    assert answer(client, path, "accept").status_code == 303
    html = _shown(client, path)
    assert "number 1 in line" in html
    assert _details(html)["Where"] == HIDDEN and _location(client, path)[0] is None


def test_the_link_preview_names_no_place_no_count_and_nobody(client):
    _, path = _invited(client, guest_list="hosts_only", place_visibility="accepted")
    html = _shown(client, path)
    preview = dict(re.findall(r'<meta property="(og:[a-z_]+)" content="([^"]*)"', html))
    assert set(preview) == {"og:type", "og:site_name", "og:title", "og:description", "og:url"}
    said = " ".join(preview.values())
    for hidden in ("The Loft", "5 Elm St", "going", "Alice", "Dan", "Cora"):
        assert hidden not in said
