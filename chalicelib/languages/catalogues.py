"""The words guests without the app read, in their language, from gettext catalogues.

One source of strings: every message is written in English in the code, wrapped in ``words._`` (or ``words._n``
for a count), with ``{name}`` placeholders filled after translation. Each language is one catalogue,
``locales/<locale>/LC_MESSAGES/guests.po``, compiled beside it to ``guests.mo`` (``scripts/catalogues.py``;
a test fails when they differ). English is the code's own words. Only the standard library's ``gettext``
reads them: a text or page in a language loads no Babel for its words.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "guests"
ENGLISH = "en"


def locale_of(code: str) -> str:
    """``pt-BR`` -> ``pt_BR``: a language tag as its catalogue's folder name."""
    return code.replace("-", "_")


def tag_of(locale: str) -> str:
    """``pt_BR`` -> ``pt-BR``: a catalogue's folder name as the language tag pages and links use."""
    return locale.replace("_", "-")


@cache
def available() -> tuple[str, ...]:
    """The language tags there are words for: English, then every compiled catalogue, by tag."""
    found = sorted(tag_of(path.parent.parent.name) for path in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (ENGLISH, *(tag for tag in found if tag != ENGLISH))


def known(code: str | None) -> str | None:
    """The available tag ``code`` names (any case, ``_`` or ``-``; a bare ``pt`` is the ``pt-BR`` there is),
    or None."""
    if not code or not isinstance(code, str) or len(code) > 16:
        return None
    wanted = code.strip().replace("_", "-").lower()
    tags = {tag.lower(): tag for tag in available()}
    if wanted in tags:
        return tags[wanted]
    base = wanted.split("-")[0]
    return next((tag for tag in available() if tag.lower().split("-")[0] == base), None)


def N_(message: str) -> str:
    """Marks a message kept in a constant for the catalogues; it is translated where it is shown."""
    return message


@dataclass(frozen=True)
class Words:
    """The messages of one language. ``_``: a sentence; ``_n``: a sentence about a count; ``html``: a
    sentence escaped for a page, its values already HTML."""

    language: str
    catalogue: gettext.NullTranslations

    def _(self, message: str, /, **values: object) -> str:
        translated = self.catalogue.gettext(message)
        return translated.format(**values) if values else translated

    def _n(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        return self.catalogue.ngettext(singular, plural, count).format(count=count, **values)

    def _p(self, context: str, message: str, /, **values: object) -> str:
        """A sentence whose English is the same as another's but whose meaning differs (``context`` tells)."""
        translated = self.catalogue.pgettext(context, message)
        return translated.format(**values) if values else translated

    def html(self, message: str, /, **markup: str) -> str:
        """The sentence escaped, then ``markup`` (already escaped HTML) put in its placeholders."""
        return escape(self.catalogue.gettext(message), quote=False).format(**markup)


@cache
def words(code: str | None) -> Words:
    """The words of the available language ``code`` names, else English."""
    tag = known(code) or ENGLISH
    if tag == ENGLISH:
        return Words(ENGLISH, gettext.NullTranslations())
    with (LOCALES / locale_of(tag) / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as compiled:
        return Words(tag, gettext.GNUTranslations(compiled))
