"""Field validation with Django REST framework's messages, collecting every error before raising.

fields = Fields(body)
title = fields.string("title", max_length=200)
fields.raise_if_errors()      # 400 {"title": ["..."], ...} when anything was wrong
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from typing import Any

from chalicelib.config import get_settings
from chalicelib.errors import ValidationError
from chalicelib.phones import INVALID_MOBILE, INVALID_PHONE, can_receive_texts, normalize_phone
from chalicelib.timeutil import parse_datetime

REQUIRED = "This field is required."
NOT_NULL = "This field may not be null."
BLANK = "This field may not be blank."
NOT_STRING = "Not a valid string."
NOT_BOOLEAN = "Must be a valid boolean."
NOT_INTEGER = "A valid integer is required."
NOT_NUMBER = "A valid number is required."
NOT_EMAIL = "Enter a valid email address."
NOT_LIST = 'Expected a list of items but got type "{kind}".'
NOT_DATETIME = (
    "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
)
_EMAIL = r"^[^@\s]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$"
NULL_CHARACTER = "Null characters are not allowed."
SURROGATE_CHARACTER = "Surrogate characters are not allowed: U+{code:X}."
_MISSING = object()
NAME_CONTROL_CHARACTER = "Control characters are not allowed."
NAME_BIDI_CHARACTER = "Bidirectional control characters are not allowed."
NAME_INVISIBLE = "Enter a name with visible characters."
# The embeddings, overrides and isolates, which reorder the text shown after them (U+202A-U+202E, U+2066-U+2069).
_BIDI_CONTROLS = frozenset(chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
# Letters and symbols that render as nothing, though not of an invisible category (Hangul fillers, blank braille).
_BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# The largest integer a field takes unless it says less: exact in JavaScript and in a Swift Double, as ids are
# (docs/api.md), and far inside DynamoDB's numbers (38 digits), which refuse the likes of 1e300 with a 500.
MAX_SAFE_INTEGER = 2**53 - 1


def text_error(value: str) -> str | None:
    """Why ``value`` cannot be stored as text, or None: a NUL, or a lone surrogate (JSON's ``"\\ud800"``
    decodes to one; it has no UTF-8 form, so DynamoDB, SNS and S3 could not take it)."""
    if "\x00" in value:
        return NULL_CHARACTER
    try:
        value.encode("utf-8")  # fails at the first lone surrogate, the only text UTF-8 cannot encode
    except UnicodeEncodeError as failure:
        return SURROGATE_CHARACTER.format(code=ord(value[failure.start]))
    return None


def name_error(value: str) -> str | None:
    """Why ``value`` cannot be a name shown to others, or None: control characters (line breaks, tabs, ESC),
    bidirectional embeddings, overrides and isolates, or nothing visible at all (only spaces, zero-width or
    other format characters, combining marks alone)."""
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        return NAME_CONTROL_CHARACTER
    if any(ch in _BIDI_CONTROLS for ch in value):
        return NAME_BIDI_CHARACTER
    if not any(_visible(ch) for ch in value):
        return NAME_INVISIBLE
    return None


def _visible(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_GLYPHS


def text_errors_by_position(items: list) -> dict[str, list[str]]:
    """``{"<index>": [message]}`` for the strings of a list that hold NUL or a lone surrogate (DRF's
    ListField shape), {} when none does."""
    problems = {str(index): text_error(item) if isinstance(item, str) else None for index, item in enumerate(items)}
    return {index: [problem] for index, problem in problems.items() if problem}


def comparable_text(value: str) -> str:
    """The form two texts are compared in for duplicates: NFC-normalised, case-folded, trimmed, so that
    "Café" typed composed or as e + combining accent, "STRASSE" and "straße", are the same."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", value).casefold()).strip()


def date_range_message() -> str:
    settings = get_settings()
    return f"Ensure the date is between {settings.earliest_year} and {settings.latest_year}."


def in_date_range(value: datetime) -> bool:
    """From January 1 of ``earliest_year`` to December 31 of ``latest_year``, in UTC."""
    settings = get_settings()
    return settings.earliest_year <= value.astimezone(UTC).year <= settings.latest_year


def max_length_message(limit: int) -> str:
    return f"Ensure this field has no more than {limit} characters."


def min_length_message(limit: int) -> str:
    return f"Ensure this field has at least {limit} characters."


class Fields:
    """Reads fields out of a JSON object; each reader returns None and records an error on bad input."""

    def __init__(self, data: dict):
        self.data = data
        self.errors: dict[str, list[str]] = {}

    def error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    def present(self, name: str) -> bool:
        return name in self.data

    def _value(self, name: str, required: bool, nullable: bool = False) -> Any:
        value = self.data.get(name, _MISSING)
        if value is _MISSING:
            if required:
                self.error(name, REQUIRED)
            return _MISSING
        if value is None:
            if not nullable:
                self.error(name, NOT_NULL)
            return _MISSING
        problem = text_error(value) if isinstance(value, str) else None
        if problem:  # every reader of text refuses these, whatever the field
            self.error(name, problem)
            return _MISSING
        return value

    def string(
        self,
        name: str,
        *,
        required: bool = False,
        min_length: int = 0,
        max_length: int | None = None,
        allow_blank: bool = True,
        strip: bool = True,
    ) -> str | None:
        value = self._value(name, required)
        if value is _MISSING:
            return None
        if not isinstance(value, str):
            self.error(name, NOT_STRING)
            return None
        if strip:
            value = value.strip()
        if not value and (required or not allow_blank):
            self.error(name, BLANK)
            return None
        if max_length is not None and len(value) > max_length:
            self.error(name, max_length_message(max_length))
            return None
        if value and len(value) < min_length:
            self.error(name, min_length_message(min_length))
            return None
        return value

    def person_name(
        self,
        name: str,
        *,
        required: bool = False,
        min_length: int = 0,
        max_length: int | None = None,
        allow_blank: bool = False,
    ) -> str | None:
        """A person's name: a string that :func:`name_error` accepts (``""`` too when ``allow_blank``)."""
        value = self.string(
            name, required=required, min_length=min_length, max_length=max_length, allow_blank=allow_blank
        )
        if not value:
            return value
        problem = name_error(value)
        if problem:
            self.error(name, problem)
            return None
        return value

    def email(self, name: str, *, required: bool = False, max_length: int = 256) -> str | None:
        value = self.string(name, required=required, max_length=max_length, allow_blank=False)
        if value and not re.match(_EMAIL, value):  # compiled on first use (re's cache), not at import
            self.error(name, NOT_EMAIL)
            return None
        return value

    def choice(self, name: str, choices: tuple[str, ...], *, required: bool = False) -> str | None:
        """One of ``choices``, worded as DRF's ChoiceField refuses anything else."""
        value = self._value(name, required)
        if value is _MISSING:
            return None
        if not isinstance(value, str) or value not in choices:
            self.error(name, f'"{value}" is not a valid choice.')
            return None
        return value

    def boolean(self, name: str, *, required: bool = False) -> bool | None:
        value = self._value(name, required)
        if value is _MISSING:
            return None
        if not isinstance(value, bool):
            self.error(name, NOT_BOOLEAN)
            return None
        return value

    def integer(
        self, name: str, *, required: bool = False, min_value: int | None = None, max_value: int = MAX_SAFE_INTEGER
    ) -> int | None:
        value = self._value(name, required)
        if value is _MISSING:
            return None
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(name, NOT_INTEGER)
            return None
        if min_value is not None and value < min_value:
            self.error(name, f"Ensure this value is greater than or equal to {min_value}.")
            return None
        if value > max_value:
            self.error(name, f"Ensure this value is less than or equal to {max_value}.")
            return None
        return value

    def number(self, name: str, *, required: bool = False, min_value: float, max_value: float) -> float | None:
        value = self._value(name, required)
        if value is _MISSING:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            self.error(name, NOT_NUMBER)
            return None
        if not min_value <= value <= max_value:
            self.error(name, f"Ensure this value is between {min_value:g} and {max_value:g}.")
            return None
        return float(value)

    def datetime(self, name: str, *, required: bool = False) -> datetime | None:
        value = self._value(name, required)
        if value is _MISSING:
            return None
        parsed = parse_datetime(value)
        if parsed is None:
            self.error(name, NOT_DATETIME)
        elif not in_date_range(parsed):
            self.error(name, date_range_message())
            return None
        return parsed

    def phone(self, name: str, *, required: bool = False, textable: bool = False) -> str | None:
        """A number in E.164; with ``textable``, only one the service may text (``can_receive_texts``)."""
        value = self._value(name, required)
        if value is _MISSING:
            return None
        if not isinstance(value, str):
            self.error(name, NOT_STRING)
            return None
        e164 = normalize_phone(value)
        if e164 is None:
            self.error(name, INVALID_PHONE)
        elif textable and not can_receive_texts(e164):
            self.error(name, INVALID_MOBILE)
            return None
        return e164

    def phone_list(
        self, name: str, *, required: bool = False, max_items: int = 1000, textable: bool = False
    ) -> list[str] | None:
        """Normalised numbers; errors keyed by position as DRF's ListField does."""
        value = self._value(name, required)
        if value is _MISSING:
            return None
        if not isinstance(value, list):
            self.error(name, NOT_LIST.format(kind=type(value).__name__))
            return None
        if len(value) > max_items:
            self.error(name, f"Ensure this field has no more than {max_items} elements.")
            return None
        numbers, item_errors = [], {}
        for index, item in enumerate(value):
            problem = text_error(item) if isinstance(item, str) else NOT_STRING
            e164 = normalize_phone(item) if problem is None else None
            if e164 is None:
                item_errors[str(index)] = [problem or INVALID_PHONE]
            elif textable and not can_receive_texts(e164):
                item_errors[str(index)] = [INVALID_MOBILE]
            else:
                numbers.append(e164)
        if item_errors:
            self.errors[name] = item_errors
            return None
        return numbers

    def raise_if_errors(self) -> None:
        if self.errors:
            raise ValidationError(self.errors)
