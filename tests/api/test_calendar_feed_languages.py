"""The guest's calendars in the guest's language: the page's Subscribe link carries the page's language to the
live calendar (a calendar app sends no cookie), whose words the service adds follow it; the host's words stay
as written, and English reads as before.

# GIVEN a number invited by text to "Cena" in Madrid
# WHEN the guest reads the page in Spanish and subscribes, or fetches the live calendar in German
# THEN the calendar's DESCRIPTION is in that language and its SUMMARY is the host's title
"""

from __future__ import annotations

import re
from html import unescape

from tests.utils.factories import make_person, phone
from tests.utils.web import invite_by_text, link_texted_to, page, text_of

MADRID = {"event_date": "2030-12-14T12:00:00+01:00", "time_zone": "Europe/Madrid", "title": "Cena"}


def _path(client) -> str:
    number = phone()
    invite_by_text(client, make_person("Dana Levi"), number, **MADRID)
    return link_texted_to(number)


def _unfolded(response) -> str:
    assert response.status_code == 200, response.body
    return text_of(response).replace("\r\n ", "")


def test_the_subscribe_link_carries_the_pages_language_and_the_live_calendar_speaks_it(client):
    path = _path(client)
    spanish = text_of(page(client, f"{path}?lang=es"))
    link = unescape(re.search(r'<a href="(webcal://[^"]*)">Suscribirse</a>', spanish)[1])
    assert link.endswith(f"{path}/calendar.ics?lang=es")
    feed = _unfolded(page(client, f"{path}/calendar.ics?lang=es"))
    assert "DESCRIPTION:Responde y consulta los detalles en tu página de invitación: http" in feed
    assert "SUMMARY:Cena" in feed
    german = _unfolded(page(client, f"{path}/calendar.ics?lang=de"))
    assert "DESCRIPTION:Antworte und sieh dir die Details auf deiner Einladungsseite an: http" in german


def test_english_keeps_its_link_and_its_words(client):
    path = _path(client)
    english = text_of(page(client, path))
    assert re.search(r'<a href="webcal://[^"]*/calendar\.ics">Subscribe</a>', english)
    feed = _unfolded(page(client, f"{path}/calendar.ics"))
    assert "DESCRIPTION:Answer and see the details on your invitation page: http" in feed
