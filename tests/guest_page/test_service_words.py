"""The services' English refusals and the host's label as a page says them in its language: every sentence the
pages can show has its catalogue line, English reads exactly as the service wrote it, and a sentence no
catalogue knows is shown as it came."""

from __future__ import annotations

import pytest

from chalicelib.guest_page.service_words import SENTENCES, host_name, said_again
from chalicelib.languages.catalogues import available, words
from chalicelib.services.identity.auth import OPTED_OUT
from chalicelib.validation import max_length_message, min_length_message

WITH_VALUES = {
    max_length_message(256): ("256", "Este campo no puede tener más de 256 caracteres."),
    min_length_message(2): ("2", "Este campo debe tener al menos 2 caracteres."),
    OPTED_OUT.format(service="Invites"): ("Invites", "Este número se dio de baja de los SMS de Invites."),
    "Your host (number ending 0100)": ("0100", "Tu anfitrión (número acabado en 0100)"),
}


@pytest.mark.parametrize("message", [*SENTENCES, *WITH_VALUES])
def test_english_reads_exactly_as_the_service_wrote_it_and_every_other_language_has_its_own(message):
    assert said_again(message, words("en")) == message
    for language in available()[1:]:
        translated = said_again(message, words(language))
        assert translated and translated != message, (language, message)


@pytest.mark.parametrize("message", list(WITH_VALUES))
def test_a_sentence_keeps_its_value_in_every_language(message):
    value, spanish = WITH_VALUES[message]
    assert said_again(message, words("es")).startswith(spanish)
    for language in available()[1:]:
        assert value in said_again(message, words(language))


def test_a_sentence_no_catalogue_knows_and_a_hosts_own_name_are_shown_as_they_came():
    assert said_again("Something only the API says.", words("he")) == "Something only the API says."
    assert said_again(None, words("he")) is None
    assert host_name("Dana Levi", words("ar")) == "Dana Levi"
    assert host_name("Your host", words("ar")) == "مضيفك"
    assert host_name("Your host (number ending 0100)", words("he")) == "המארחים שלך (מספר שמסתיים ב-0100)"
