"""Which language a person reads: on a page, in a text, and how each language is named and written.

Pages: ``?lang=xx``, else the language the guest chose before (a cookie, and kept for their number), else the
browser's ``Accept-Language`` (Babel's negotiation), else English. Texts: the language the person chose on
a page, else the one of their number's country (``COUNTRY_LANGUAGES``), else English. Babel's locale data
loads here, so only pages and texts import this module, never the first answer's read path.
"""

from __future__ import annotations

import re
from functools import cache

import phonenumbers
from babel import Locale, negotiate_locale

from chalicelib.languages.catalogues import ENGLISH, available, known

COOKIE = "lang"
# The language of a number's country (phonenumbers' region): the catalogues' languages by where they are spoken.
COUNTRY_LANGUAGES = {
    "ES": "es", "MX": "es", "AR": "es", "CO": "es", "CL": "es", "PE": "es", "VE": "es", "EC": "es", "UY": "es",
    "PY": "es", "BO": "es", "CR": "es", "PA": "es", "DO": "es", "GT": "es", "HN": "es", "SV": "es", "NI": "es",
    "CU": "es",
    "FR": "fr", "BE": "fr", "LU": "fr", "MC": "fr", "SN": "fr", "CI": "fr",
    "DE": "de", "AT": "de", "LI": "de",
    "BR": "pt-BR",
    "IT": "it", "SM": "it",
    "IL": "he",
    "SA": "ar", "AE": "ar", "EG": "ar", "JO": "ar", "KW": "ar", "QA": "ar", "BH": "ar", "OM": "ar", "LB": "ar",
    "IQ": "ar", "MA": "ar", "DZ": "ar", "TN": "ar",
}  # fmt: skip
_ACCEPTED = re.compile(r"\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]{1,5}))?\s*")
MAX_ACCEPT_LANGUAGE = 512


def _preferred(header: str) -> list[str]:
    """The tags of an ``Accept-Language`` header, most wanted first (q=0 left out)."""
    ranked = []
    for position, part in enumerate(header[:MAX_ACCEPT_LANGUAGE].split(",")[:32]):
        matched = _ACCEPTED.fullmatch(part)
        if not matched or matched.group(1) == "*":
            continue
        try:
            quality = float(matched.group(2)) if matched.group(2) else 1.0
        except ValueError:
            continue
        if quality > 0:
            ranked.append((-quality, position, matched.group(1)))
    return [tag for _, _, tag in sorted(ranked)]


def from_header(header: str | None) -> str | None:
    """The available language the browser prefers most, or None."""
    wanted = _preferred(header or "")
    if not wanted:
        return None
    found = negotiate_locale(wanted, list(available()), sep="-")
    return known(found) or next((known(tag) for tag in wanted if known(tag)), None)


def for_page(asked: str | None, chosen: str | None, accept_language: str | None) -> str:
    """The language of a page: the one ``?lang=`` asks for, the one chosen before, the browser's, English."""
    return known(asked) or known(chosen) or from_header(accept_language) or ENGLISH


def of_number(e164: str | None) -> str:
    """The language of the country of a number (E.164), English when none of the catalogues' is spoken there."""
    if not e164:
        return ENGLISH
    try:
        region = phonenumbers.region_code_for_number(phonenumbers.parse(e164, None))
    except phonenumbers.NumberParseException:
        return ENGLISH
    return known(COUNTRY_LANGUAGES.get(region or "")) or ENGLISH


def for_text(chosen: str | None, e164: str | None) -> str:
    """The language of a text to a person: the one they chose on a page, else their number's country's."""
    return known(chosen) or of_number(e164)


@cache
def right_to_left(tag: str) -> bool:
    return Locale.parse(tag, sep="-").character_order == "right-to-left"


@cache
def own_name(tag: str) -> str:
    """The language named in itself, as a switcher lists it: ``Español``, ``עברית``, ``Português (Brasil)``."""
    name = Locale.parse(tag, sep="-").get_display_name(Locale.parse(tag, sep="-")) or tag
    return name[:1].upper() + name[1:]
