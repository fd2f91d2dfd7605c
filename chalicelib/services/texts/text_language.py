"""The language of the texts a person is sent: the one they chose on a page, else their number's country's."""

from __future__ import annotations

from chalicelib.languages.catalogues import Words, words
from chalicelib.languages.choice import for_text
from chalicelib.store.languages import keep_language
from chalicelib.store.records import User


def words_for(person: User) -> Words:
    return words(for_text(getattr(person, "language", None), person.phone_number))


def keep_chosen(user_id: int, tag: str) -> None:
    """Remember the language a guest chose on a page for the texts to their number."""
    keep_language(user_id, tag)
