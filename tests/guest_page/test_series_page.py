"""A texted guest's page of a series: its upcoming dates with an answer each, "Subscribe", and the live calendar
of the series at <link>/calendar.ics."""

from __future__ import annotations

import re

import icalendar

from tests.utils.api import body, get, post_event
from tests.utils.factories import make_person, phone
from tests.utils.web import form_token, link_texted_to, page, post_form, text_of

GAME_NIGHT = {"title": "ליל משחקים 🎲", "event_date": "2030-01-08T19:00:00-05:00", "time_zone": "America/New_York"}


def _series(client, owner, number: str, count: int = 4) -> dict:
    response = post_event(client, owner, **GAME_NIGHT, repeat={"freq": "weekly", "count": count},
                          invite_phone_numbers=[number])  # fmt: skip
    assert response.status_code == 201, response.body
    return body(response)


def _opened(client, owner, number: str) -> tuple[list[int], str, str]:
    """A series texted to ``number``: its dates' ids, the guest's link and the page it opens."""
    created = _series(client, owner, number)
    path = link_texted_to(number)
    return [date["id"] for date in created["series"]["dates"]], path, text_of(page(client, path))


DATE_FORM = re.compile(r'<form method="post" action="[^"]*/dates/(\d+)/rsvp".*?</form>', re.S)


def _date_forms(html: str) -> dict[int, str]:
    """Each date's answer form, by the date's id, in the page's order."""
    return {int(found.group(1)): found.group(0) for found in DATE_FORM.finditer(html)}


def test_the_page_lists_the_upcoming_dates_each_with_its_own_answer(client):
    olive, number = make_person("Olive Owner"), phone(8601)
    ids, path, html = _opened(client, olive, number)
    assert "<h2>Upcoming dates</h2>" in html
    assert [f"/dates/{event_id}/rsvp" in html for event_id in ids] == [True] * 4
    assert "Tuesday, January 22, 2030 at 7:00 PM EST" in html
    subscribe = re.search(r'<a href="([^"]+)">Subscribe</a>', html).group(1)
    assert subscribe == f"webcal://invites.example.test{path}/calendar.ics"
    answered = post_form(client, f"{path}/dates/{ids[2]}/rsvp", {"csrf": form_token(html), "answer": "accept"})
    assert answered.status_code == 303 and answered.headers["Location"].endswith("?answered=1")
    rows = [body(get(client, f"/events/{event_id}", olive.token))["invitees"][1] for event_id in ids]
    assert [row["is_attending"] for row in rows] == [None, None, True, None]
    again = text_of(page(client, path))
    assert again.count('aria-pressed="true">Going</button>') == 1


def test_an_answer_for_a_date_outside_the_series_or_without_the_form_token_changes_nothing(client):
    olive, number = make_person("Olive Owner"), phone(8602)
    created = _series(client, olive, number)
    path = link_texted_to(number)
    other = body(post_event(client, olive, invite_phone_numbers=[number]))["id"]  # invited, not in the series
    html = text_of(page(client, path))
    token = form_token(html)
    assert post_form(client, f"{path}/dates/{other}/rsvp", {"csrf": token, "answer": "accept"}).status_code == 404
    ids = [date["id"] for date in created["series"]["dates"]]
    refused = post_form(client, f"{path}/dates/{ids[1]}/rsvp", {"csrf": "x", "answer": "accept"})
    assert refused.status_code == 403
    assert body(get(client, f"/events/{ids[1]}", olive.token))["invitees"][1]["is_attending"] is None


def test_the_series_calendar_holds_every_date_not_declined_and_answers_304_when_unchanged(client):
    olive, number = make_person("Olive Owner"), phone(8603)
    created = _series(client, olive, number)
    ids = [date["id"] for date in created["series"]["dates"]]
    path = link_texted_to(number)
    html = text_of(page(client, path))
    post_form(client, f"{path}/dates/{ids[1]}/rsvp", {"csrf": form_token(html), "answer": "decline"})
    feed = client.http.get(f"{path}/calendar.ics")
    assert feed.status_code == 200 and feed.headers["Content-Type"] == "text/calendar; charset=utf-8"
    assert feed.headers["Cache-Control"] == "private, max-age=300" and feed.headers["X-Robots-Tag"] == "noindex"
    calendar = icalendar.Calendar.from_ical(feed.body.decode())
    vevents = calendar.walk("VEVENT")
    assert [str(vevent["UID"]) for vevent in vevents] == [
        f"event-{event_id}@invites.example.test" for event_id in (ids[0], ids[2], ids[3])
    ]
    assert {str(vevent["SUMMARY"]) for vevent in vevents} == {GAME_NIGHT["title"]}
    assert {vevent["DTSTART"].dt.hour for vevent in vevents} == {19}
    assert all(str(vevent["URL"]).endswith(path) for vevent in vevents)
    unchanged = client.http.get(f"{path}/calendar.ics", headers={"If-None-Match": feed.headers["ETag"]})
    assert unchanged.status_code == 304 and unchanged.body == b""
    assert client.http.get("/i/" + "A" * 32 + "/calendar.ics").status_code == 404


def test_the_dates_and_their_buttons_are_in_the_guests_language(client):
    number = phone(8611)
    _series(client, make_person("Olive Owner"), number)
    html = text_of(page(client, f"{link_texted_to(number)}?lang=es"))
    assert "<h2>Próximas fechas</h2>" in html and "martes, 22 de enero de 2030, 19:00 EST" in html
    assert html.count(">Voy</button>") == 4 and html.count(">No puedo</button>") == 4
    assert html.count("Aún sin respuesta") == 4 and ">Suscribirse</a>" in html


def test_each_date_offers_maybe_which_holds_no_spot_and_the_hosts_count(client):
    olive, number = make_person("Olive Owner"), phone(8604)
    ids, path, html = _opened(client, olive, number)
    forms = _date_forms(html)
    assert list(forms) == ids
    maybe = '<button type="submit" name="answer" value="maybe" class="maybe" aria-pressed="false">Maybe</button>'
    assert [form.count(maybe) for form in forms.values()] == [1, 1, 1, 1]
    token = form_token(html)
    assert post_form(client, f"{path}/dates/{ids[0]}/rsvp", {"csrf": token, "answer": "accept"}).status_code == 303
    before = body(get(client, f"/events/{ids[0]}", olive.token))["attendees_count"]
    answered = post_form(client, f"{path}/dates/{ids[0]}/rsvp", {"csrf": token, "answer": "maybe"})
    assert answered.status_code == 303 and answered.headers["Location"].endswith("?answered=1")
    shown = body(get(client, f"/events/{ids[0]}", olive.token))
    row = shown["invitees"][1]
    assert (row["answer"], row["is_attending"]) == ("maybe", None)
    assert (shown["maybe_count"], shown["spots_filled"], shown["attendees_count"]) == (1, 0, before - 1)
    assert [body(get(client, f"/events/{date_id}", olive.token))["maybe_count"] for date_id in ids[1:]] == [0, 0, 0]
    again = text_of(page(client, path))
    pressed = _date_forms(again).values()
    assert ['aria-pressed="true">Maybe</button>' in form for form in pressed] == [True, False, False, False]
    assert f'<span class="hint" id="date-{ids[0]}">You said maybe.</span>' in again
    refused = post_form(client, f"{path}/dates/{ids[1]}/rsvp", {"csrf": token, "answer": "perhaps"})
    assert refused.status_code == 403
    assert body(get(client, f"/events/{ids[1]}", olive.token))["invitees"][1]["answer"] == "no_reply"


def test_maybe_on_a_date_is_in_the_guests_language(client):
    number = phone(8612)
    ids, path, _ = _opened(client, make_person("Olive Owner"), number)
    html = text_of(page(client, f"{path}?lang=he"))
    assert [">אולי</button>" in form for form in _date_forms(html).values()] == [True] * 4 and ">Maybe<" not in html
    first = ids[0]
    post_form(client, f"{path}/dates/{first}/rsvp", {"csrf": form_token(html), "answer": "maybe"})
    assert f'id="date-{first}">עניתם אולי.</span>' in text_of(page(client, f"{path}?lang=he"))
