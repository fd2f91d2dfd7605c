"""The guests' catalogues: one per language, each complete for the code's messages, compiled as committed."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog

from chalicelib.languages.catalogues import available, words
from scripts import catalogues as script

MESSAGES = script.template()
PO_FILES = script.po_paths()


def test_the_eight_languages_of_the_contract_are_there():
    assert set(available()) >= {"en", "es", "fr", "de", "pt-BR", "it", "he", "ar"}


def test_the_code_has_the_messages_guests_read():
    ids = {message.id if isinstance(message.id, str) else message.id[0] for message in MESSAGES if message.id}
    assert "Where" in ids and "Reply STOP to opt out." in ids and "{host} invited you" in ids
    assert len(ids) > 60


@pytest.mark.parametrize("path", PO_FILES, ids=lambda path: path.parent.parent.name)
def test_each_catalogue_is_complete_and_keeps_the_placeholders(path):
    assert script.problems(script.read(path), MESSAGES) == []


@pytest.mark.parametrize("path", PO_FILES, ids=lambda path: path.parent.parent.name)
def test_each_compiled_catalogue_is_its_po_file_compiled(path):
    assert path.with_suffix(".mo").read_bytes() == script.mo_bytes(script.read(path)), (
        "run .venv/bin/python scripts/catalogues.py compile"
    )


def _catalogue(entries: dict) -> Catalog:
    catalog = Catalog(locale="es")
    for message_id, (translated, fuzzy) in entries.items():
        catalog.add(message_id, translated, flags=("fuzzy",) if fuzzy else ())
    return catalog


def _messages(*ids) -> Catalog:
    catalog = Catalog()
    for message_id in ids:
        catalog.add(message_id)
    return catalog


def test_the_check_names_a_missing_fuzzy_untranslated_or_stale_message():
    code = _messages("When", "Where", "Host", "Going")
    catalog = _catalogue(
        {"When": ("Cuándo", False), "Where": ("Dónde", True), "Host": ("", False), "Old": ("x", False)}
    )
    assert script.problems(catalog, code) == [
        "fuzzy: 'Where'",
        "untranslated: 'Host'",
        "missing: 'Going'",
        "not in the code: 'Old'",
    ]


def test_the_check_names_a_translation_that_drops_or_adds_a_placeholder():
    code = _messages("{host} invited you", "Texts from {service} are stopped.", ("{count} spot", "{count} spots"))
    catalog = _catalogue({
        "{host} invited you": ("Te han invitado", False),
        "Texts from {service} are stopped.": ("Los SMS de {service} a {number} están desactivados.", False),
        ("{count} spot", "{count} spots"): (("una plaza", "plazas"), False),
    })  # fmt: skip
    assert script.problems(catalog, code) == [
        "placeholders differ: '{host} invited you'",
        "placeholders differ: 'Texts from {service} are stopped.'",
        "placeholders differ: ('{count} spot', '{count} spots')",
    ]


def test_a_plural_form_may_say_the_number_in_words():
    code = _messages(("{count} person going", "{count} people going"))
    catalog = _catalogue(
        {("{count} person going", "{count} people going"): (("אדם אחד מגיע", "{count} אנשים מגיעים"), False)}
    )
    assert script.problems(catalog, code) == []


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [("es", 1, "Va 1 persona"), ("es", 3, "Van 3 personas"), ("ar", 2, "شخصان سيحضران"), ("ar", 11, "11 شخصًا سيحضرون"),
     ("ar", 3, "3 أشخاص سيحضرون"), ("he", 1, "אדם אחד מגיע")],
)  # fmt: skip
def test_plurals_follow_each_languages_own_forms(language, count, expected):
    assert words(language)._n("{count} person going", "{count} people going", count) == expected


def test_an_unknown_language_reads_english_and_a_bare_portuguese_reads_brazilian():
    assert words("xx")._("Where") == "Where"
    assert words("pt")._("Where") == "Onde" and words("pt").language == "pt-BR"
    assert words("ES")._("Where") == "Dónde"
