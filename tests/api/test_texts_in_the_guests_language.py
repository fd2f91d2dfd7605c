"""Texts reach people in their language through the real paths: the language a guest chose on their page, else
their number's country, else English; pins by the number's country, or the page's language on the web forms.

# GIVEN guests without the app, texted from Spain (+34), France (+33), the US (+1), one who chose a language
# WHEN the host cancels, the guest replies by text, or someone asks for a pin
# THEN the text is in that language, with the date in its own forms and the event's zone
"""

from __future__ import annotations

import html
import re

import pytest

from chalicelib.languages import dates
from tests.utils.api import post_json, texts_to
from tests.utils.factories import make_person, put, stored_event
from tests.utils.inbound_sms import reply
from tests.utils.web import invite_by_text, link_texted_to, page, post_form, text_of

SPAIN, FRANCE, US = "+34612345601", "+33612345602", "+14155550991"


def test_a_cancellation_is_texted_in_the_language_of_each_guests_country(client):
    alice = make_person("Alice")
    event = invite_by_text(client, alice, SPAIN, US, title="Cena", time_zone="Europe/Madrid")

    assert put(client, f"/events/{event['id']}/cancel_event", alice.token).status_code == 204

    when = dates.short_when(stored_event(event["id"]), "es")
    assert texts_to(SPAIN)[-1] == f'Invites: Alice canceló "Cena" ({when}). Baja: responde STOP.'
    assert texts_to(US)[-1].startswith('Invites: Alice cancelled "Cena" (')


def test_the_language_a_guest_chose_on_their_page_wins_over_their_numbers_country(client, override_settings):
    override_settings(sms_two_way="true", service_name="Invites")
    alice = make_person("Alice")
    event = invite_by_text(client, alice, SPAIN, title="Cena", time_zone="Europe/Madrid")
    assert page(client, link_texted_to(SPAIN) + "?lang=fr").status_code == 200

    reply(SPAIN, "1")

    when = dates.short_when(stored_event(event["id"]), "fr")
    confirmation = texts_to(SPAIN)[-1]
    assert confirmation.startswith(f'Invites: Vous venez à "Cena", {when}. Répondez 2 si cela change. https://')


def test_a_reply_by_text_is_confirmed_in_the_language_of_the_numbers_country(client, override_settings):
    override_settings(sms_two_way="true", service_name="Invites")
    invite_by_text(client, make_person("Alice"), FRANCE, title="Dîner")

    reply(FRANCE, "2")

    assert texts_to(FRANCE)[-1] == 'Invites: Vous ne venez pas à "Dîner". Répondez 1 si cela change.'


@pytest.mark.parametrize(
    ("number", "starts"),
    [(SPAIN, "Tu PIN de Invites es "), (FRANCE, "Votre code Invites est "), (US, "Your Invites pin is ")],
)
def test_a_login_pin_is_texted_in_the_language_of_the_numbers_country(client, number, starts):
    assert post_json(client, "/auth", {"phone_number": number}).status_code == 204

    text = texts_to(number)[-1]
    assert text.startswith(starts) and re.search(r"\b\d{6}\b", text)


def test_the_deletion_pages_pin_is_in_the_pages_language(client):
    opened = page(client, "/account/delete", headers={"Accept-Language": "de-DE,de;q=0.9"})
    token = html.unescape(re.search(r'name="csrf" value="([^"]*)"', text_of(opened)).group(1))

    answered = post_form(
        client,
        "/account/delete/pin",
        {"csrf": token, "phone_number": US},
        headers={"Accept-Language": "de-DE,de;q=0.9"},
    )

    assert answered.status_code == 200
    assert texts_to(US)[-1].startswith("Dein Invites-Code zum Löschen deines Kontos ist ")
