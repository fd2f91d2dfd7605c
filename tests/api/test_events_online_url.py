"""An online event's link (``online_url``): https only, at most 500 characters, kept through create, edit and
clone; shown like the place (place_visibility) in the detail, the list, the guest page, its calendar entry and
the owner's export: a guest who may not see the place sees the link nowhere (the change texts and pushes:
tests/services/notifications/test_online_url_notices.py)."""

from __future__ import annotations

import json

import icalendar
import pytest

from chalicelib.services.replies import replies
from tests.utils.api import body, get, post_event, post_json
from tests.utils.exports import exported_file
from tests.utils.factories import make_event, make_person, phone, stored_event
from tests.utils.web import answer, invite_by_text, link_texted_to, page, text_of

LINK = "https://meet.example.com/abc-defg-hij?pwd=x%C3%A9"
OTHER_LINK = "https://zoom.example.org/j/123456"
NOT_HTTPS = "Enter a valid URL starting with https://."


def _detail(client, event_id: int, person) -> dict:
    response = get(client, f"/events/{event_id}", person.token)
    assert response.status_code == 200, response.body
    return body(response)


def _edit(client, owner, event_id: int, **fields):
    return post_json(client, f"/events/{event_id}", fields, owner.token, method="PATCH")


def test_create_keeps_the_link_and_the_detail_shows_it(client):
    alice = make_person("Alice")
    created = post_event(client, alice, online_url=f"  {LINK} ")
    assert created.status_code == 201, created.body
    assert body(created)["online_url"] == LINK
    assert _detail(client, body(created)["id"], alice)["online_url"] == LINK
    assert stored_event(body(created)["id"]).online_url == LINK


def test_an_event_without_a_link_shows_null(client):
    alice = make_person("Alice")
    created = post_event(client, alice)
    assert body(created)["online_url"] is None


@pytest.mark.parametrize(
    "sent",
    [
        "http://meet.example.com/abc",
        "javascript:alert(1)",
        "https://",
        "https:///path-only",
        "https://zoom.us@elsewhere.example/j/1",
        "https://meet.example.com/a b",
        "https://meet.example.com/\u0007",
        "https://meet.example.com:port/",
        "meet.example.com/abc",
        "ftp://files.example.com/",
    ],
)
def test_anything_but_an_https_link_is_refused_and_nothing_is_stored(client, sent):
    alice = make_person("Alice")
    response = post_event(client, alice, online_url=sent)
    assert response.status_code == 400
    assert body(response) == {"online_url": [NOT_HTTPS]}
    assert get(client, "/events", alice.token).json_body["results"] == []


def test_a_link_over_500_characters_or_not_a_string_is_refused_by_field(client):
    alice = make_person("Alice")
    too_long = "https://meet.example.com/" + "a" * 476
    assert len(too_long) == 501
    response = post_event(client, alice, online_url=too_long)
    assert (response.status_code, body(response)) == (
        400,
        {"online_url": ["Ensure this field has no more than 500 characters."]},
    )
    assert body(post_event(client, alice, online_url=["https://a.example"]))["online_url"] == ["Not a valid string."]
    assert post_event(client, alice, online_url=too_long[:500]).status_code == 201


def test_an_edit_changes_or_clears_the_link_and_a_refused_one_leaves_it(client):
    alice = make_person("Alice")
    event = make_event(alice, online_url=LINK)
    refused = _edit(client, alice, event.id, online_url="http://meet.example.com/x", title="Renamed")
    assert (refused.status_code, body(refused)) == (400, {"online_url": [NOT_HTTPS]})
    assert (stored_event(event.id).online_url, stored_event(event.id).title) == (LINK, "Dinner")
    assert body(_edit(client, alice, event.id, online_url=OTHER_LINK))["online_url"] == OTHER_LINK
    assert body(_edit(client, alice, event.id, online_url=None))["online_url"] is None
    assert body(_edit(client, alice, event.id, online_url=OTHER_LINK))["online_url"] == OTHER_LINK
    assert body(_edit(client, alice, event.id, online_url=""))["online_url"] is None


def test_a_clone_carries_the_link(client):
    alice = make_person("Alice")
    event = make_event(alice, online_url=LINK)
    cloned = post_json(client, f"/events/{event.id}/clone", {"event_date": "2031-02-03T18:00:00Z"}, alice.token)
    assert cloned.status_code == 201, cloned.body
    assert body(cloned)["online_url"] == LINK


def _hidden_party():
    """Alice's online event whose place shows to accepted guests: Bob has not answered, Dan accepted."""
    alice, bob, dan = make_person("Alice"), make_person("Bob"), make_person("Dan")
    event = make_event(alice, bob, dan, online_url=LINK, venue_name="Hall", place_visibility="accepted")
    replies.rsvp(dan.user, event.id, accept=True, message="")
    return alice, bob, dan, event


def test_a_guest_who_may_not_see_the_place_gets_no_link_in_the_detail_list_or_timeline(client):
    alice, bob, dan, event = _hidden_party()
    assert _detail(client, event.id, bob)["online_url"] is None
    assert _detail(client, event.id, dan)["online_url"] == LINK
    assert _detail(client, event.id, alice)["online_url"] == LINK
    for path in ("/events", "/events/timeline"):
        listed = get(client, path, bob.token).json_body
        assert LINK not in json.dumps(listed), path
    assert LINK in json.dumps(get(client, "/events", dan.token).json_body)


def test_the_owners_export_carries_the_link_and_a_guests_none(client):
    """A received invitation's export carries no place at all, so no link either; an owned event's carries both."""
    alice, bob, _dan, _event = _hidden_party()
    for person, shown in ((bob, False), (alice, True)):
        started = client.http.post("/users/me/export", headers={"Authorization": f"Bearer {person.token}"})
        assert started.status_code == 202, started.body
        ready = body(get(client, "/users/me/export", person.token))
        assert (LINK in json.dumps(exported_file(client, ready["url"]))) is shown


def _calendar(client, path: str):
    response = page(client, f"{path}/event.ics")
    assert response.status_code == 200
    [entry] = icalendar.Calendar.from_ical(response.body).walk("VEVENT")
    return entry


def test_the_guest_page_and_its_calendar_show_the_link_once_the_guest_may_see_the_place(client):
    alice, number = make_person("Alice"), phone()
    invite_by_text(client, alice, number, online_url=LINK, venue_name="Hall", place_visibility="accepted")
    path = link_texted_to(number)
    html = text_of(page(client, path))
    assert "meet.example.com" not in html
    entry = _calendar(client, path)
    assert entry.get("LOCATION") is None and "meet.example.com" not in str(entry.get("URL"))
    assert answer(client, path, "accept").status_code == 303
    html = text_of(page(client, path))
    assert 'href="https://meet.example.com/abc-defg-hij?pwd=x%C3%A9"' in html and 'rel="noopener noreferrer"' in html
    entry = _calendar(client, path)
    assert str(entry["LOCATION"]) == f"Hall, {LINK}"
    assert str(entry["URL"]) == LINK
    assert path in str(entry["DESCRIPTION"])  # the page's own link stays in the entry


def test_a_link_with_markup_is_escaped_on_the_page(client):
    alice, number = make_person("Alice"), phone()
    tricky = 'https://meet.example.com/"><script>alert(1)</script>'
    invite_by_text(client, alice, number, online_url=tricky)
    html = text_of(page(client, link_texted_to(number)))
    assert "<script>alert(1)" not in html and "&lt;script&gt;" in html
