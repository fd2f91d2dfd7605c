"""A series' repeat in each guest's words: English exactly as the service always wrote it, every other language
in its own words with CLDR's weekday, and the English words of a message queued before read as they came."""

from __future__ import annotations

import pytest

from chalicelib.domain.recurrence import MONTHLY, WEEKLY, Cadence
from chalicelib.languages.catalogues import available, words
from chalicelib.services.texts import repeat_words
from chalicelib.services.texts.repeat_words import carried, in_words

ENGLISH = {
    Cadence(WEEKLY, 1, 1): "every Tuesday",
    Cadence(WEEKLY, 2, 1): "every other Tuesday",
    Cadence(WEEKLY, 3, 6): "every third Sunday",
    Cadence(WEEKLY, 4, 0): "every fourth Monday",
    Cadence(MONTHLY, 1, 31): "monthly on the 31st",
    Cadence(MONTHLY, 2, 22): "every other month on the 22nd",
    Cadence(MONTHLY, 3, 5): "every 3 months on the 5th",
    Cadence(MONTHLY, 4, 13): "every 4 months on the 13th",
    Cadence(MONTHLY, 1, 3): "monthly on the 3rd",
    Cadence(MONTHLY, 1, 11): "monthly on the 11th",
}

IN_LANGUAGES = {
    "es": {Cadence(WEEKLY, 1, 1): "cada martes", Cadence(WEEKLY, 2, 5): "cada dos semanas, el sábado",
           Cadence(MONTHLY, 1, 31): "el 31 de cada mes", Cadence(MONTHLY, 3, 5): "el 5, cada 3 meses"},
    "fr": {Cadence(WEEKLY, 2, 1): "un mardi sur deux", Cadence(MONTHLY, 2, 31): "le 31, un mois sur deux"},
    "de": {Cadence(WEEKLY, 3, 1): "jeden dritten Dienstag", Cadence(MONTHLY, 1, 31): "monatlich am 31."},
    "pt-BR": {Cadence(WEEKLY, 1, 1): "toda semana, terça-feira", Cadence(MONTHLY, 1, 5): "todo dia 5"},
    "it": {Cadence(WEEKLY, 1, 1): "ogni martedì", Cadence(MONTHLY, 4, 5): "il 5, ogni 4 mesi"},
    "he": {Cadence(WEEKLY, 2, 1): "כל שבועיים ביום שלישי", Cadence(MONTHLY, 1, 31): "ב־31 בכל חודש"},
    "ar": {Cadence(WEEKLY, 1, 1): "أسبوعيًا يوم الثلاثاء", Cadence(MONTHLY, 3, 5): "كل 3 أشهر في اليوم 5"},
}  # fmt: skip

EVERY_CADENCE = [Cadence(WEEKLY, interval, 1) for interval in range(1, 5)] + [
    Cadence(MONTHLY, interval, 31) for interval in range(1, 5)
]


@pytest.mark.parametrize("cadence", list(ENGLISH))
def test_english_reads_exactly_as_before(cadence):
    assert in_words(cadence, words("en")) == ENGLISH[cadence]


@pytest.mark.parametrize("language", list(IN_LANGUAGES))
def test_each_language_says_the_repeat_in_its_own_words(language):
    for cadence, expected in IN_LANGUAGES[language].items():
        assert in_words(cadence, words(language)) == expected


def test_every_cadence_has_its_own_words_in_every_language():
    for language in available()[1:]:
        said = [in_words(cadence, words(language)) for cadence in EVERY_CADENCE]
        assert len(set(said)) == len(said), language
        assert not {"every", "monthly", "Tuesday", "months"} & {word for text in said for word in text.split()}


def test_a_message_carries_the_cadence_and_one_queued_before_its_english_words():
    cadence = Cadence(WEEKLY, 2, 1)
    message = {"event_id": 1, "actor_id": 2, **repeat_words.as_message(cadence)}
    assert carried(message) == cadence
    assert carried({"event_id": 1, "series_words": "every other Tuesday"}) == "every other Tuesday"
    assert in_words(carried({"series_words": "every other Tuesday"}), words("he")) == "every other Tuesday"
    assert carried({"event_id": 1}) == "" and repeat_words.as_message(None) == {}
