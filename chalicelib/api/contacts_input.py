"""Favorites and address-book bodies read into typed inputs for ``services.contacts``.

Error shapes of the favorites body (Django REST framework's own):

- a JSON array of contacts (``ListSerializer`` of ``many=True``): a list with one object per entry,
  ``{}`` for the good ones, e.g. ``[{}, {"phone_number": ["Enter a valid phone number."]}]``;
  an entry that is not an object gets ``{"non_field_errors": ["Invalid data. Expected a
  dictionary, but got str."]}`` in its place; an array over 1,000 entries, or a body that is
  neither an array nor an object: ``{"non_field_errors": [...]}``. The same array may also come
  wrapped as ``{"contacts": [...]}``; its errors are then keyed ``{"contacts": [...]}``.
- the deprecated ``{"phone_numbers": [...]}`` (a ``ListField``): errors keyed by position,
  ``{"phone_numbers": {"1": ["Enter a valid phone number."]}}``, or
  ``{"phone_numbers": ["Ensure this field has no more than 1000 elements."]}``.

Every entry is checked and every photo decoded and re-encoded (services/contacts/contact_photos.py) before anything
is written, so a 400 stores nothing: no item and no S3 object.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from chalicelib.api.error_responses import body_of
from chalicelib.config import get_settings
from chalicelib.errors import NotAnImage, ValidationError
from chalicelib.services.contacts.contact_photos import PHOTO_FIELD, PhotosTooCostly, clean_photos, too_large_message
from chalicelib.services.contacts.contacts import ContactInput
from chalicelib.validation import NOT_LIST, NOT_NULL, NOT_STRING, REQUIRED, Fields, text_errors_by_position

MAX_ENTRIES = 1000
MAX_NAME = 256

NO_DATA = "No data provided"
PHOTOS_TOO_COSTLY = "These photos are too large to process in one request: send fewer or smaller ones at a time."
NOT_A_DICT = "Invalid data. Expected a dictionary, but got {kind}."
TOO_MANY = f"Ensure this field has no more than {MAX_ENTRIES} elements."
_DATA_URI = re.compile(r"^data:[\w/+.-]*;base64,", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")


def _type_name(value: Any) -> str:
    return type(value).__name__


def _entries_of(body: Any) -> tuple[str | None, list | None]:
    """(key errors go under, list of contact objects) or (None, None) for the phone_numbers shape."""
    if isinstance(body, list):
        return "", body
    if isinstance(body, dict) and "contacts" in body:
        if not isinstance(body["contacts"], list):
            raise ValidationError({"contacts": [NOT_LIST.format(kind=_type_name(body["contacts"]))]})
        return "contacts", body["contacts"]
    if isinstance(body, dict):
        return None, None
    if body is None:
        raise ValidationError({"non_field_errors": [NO_DATA]})
    raise ValidationError({"non_field_errors": [NOT_LIST.format(kind=_type_name(body))]})


def _raise_list_errors(key: str, errors: list | dict) -> None:
    raise ValidationError({key: errors} if key else errors)


def parse_favorites(body: Any, *, with_details: bool) -> list[ContactInput]:
    """Validate a favorites body of either shape; one entry per number, the last one sent wins.

    ``with_details`` (POST) reads ``contact_name`` and ``photo`` too and turns each photo into a
    clean JPEG (ready to store); without it (DELETE) only the numbers matter.
    """
    key, items = _entries_of(body)
    if items is None:
        fields = Fields(body)
        numbers = fields.phone_list("phone_numbers", required=True, max_items=MAX_ENTRIES)
        fields.raise_if_errors()
        return list({phone: ContactInput(phone) for phone in numbers}.values())
    if len(items) > MAX_ENTRIES:
        _raise_list_errors(key, {"non_field_errors": [TOO_MANY]})
    if with_details:
        photos = sum(1 for item in items if isinstance(item, dict) and item.get(PHOTO_FIELD) not in (None, ""))
        most = get_settings().favorite_photos_per_request
        if photos > most:  # counted before any photo is decoded
            _raise_list_errors(key, {"non_field_errors": [too_many_photos_message(most)]})

    entries, errors = [], []
    for item in items:
        entry, item_errors = _parse_entry(item, with_details)
        entries.append(entry)
        errors.append(item_errors)
    if any(errors):
        _raise_list_errors(key, errors)

    unique = list({entry.phone: entry for entry in entries}.values())
    if with_details:
        try:
            problems = clean_photos(unique)
        except PhotosTooCostly:
            _raise_list_errors(key, {"non_field_errors": [PHOTOS_TOO_COSTLY]})
        errors = [{} for _ in items]
        position = {entry.phone: index for index, entry in enumerate(entries)}  # the last of each number
        for phone, problem in problems.items():
            errors[position[phone]] = body_of(problem)
        if any(errors):
            _raise_list_errors(key, errors)
    return unique


def _parse_entry(item: Any, with_details: bool) -> tuple[ContactInput | None, dict]:
    if not isinstance(item, dict):
        return None, {"non_field_errors": [NOT_A_DICT.format(kind=_type_name(item))]}
    fields = Fields(item)
    phone = fields.phone("phone_number", required=True)
    entry = ContactInput(phone or "")
    if with_details:
        entry.contact_name = fields.person_name("contact_name", max_length=MAX_NAME, allow_blank=True)
        if fields.present(PHOTO_FIELD):
            entry.photo = _decode_photo(item[PHOTO_FIELD], fields)
    return entry, fields.errors


def _decode_photo(value: Any, fields: Fields) -> bytes | None:
    """Base64 (optionally a ``data:image/...;base64,`` URI) to bytes; ``null`` or ``""`` removes."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        fields.error(PHOTO_FIELD, _invalid_image_message())
        return None
    max_bytes = get_settings().avatar_max_bytes
    text = _WHITESPACE.sub("", _DATA_URI.sub("", value, count=1))
    if len(text) > (max_bytes + 2) // 3 * 4:  # too big before decoding anything
        fields.error(PHOTO_FIELD, too_large_message(max_bytes))
        return None
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        fields.error(PHOTO_FIELD, _invalid_image_message())
        return None


def too_many_photos_message(most: int) -> str:
    return f"Ensure this request has no more than {most} photos."


def _invalid_image_message() -> str:
    return body_of(NotAnImage(PHOTO_FIELD))[PHOTO_FIELD][0]


def lookup_numbers(body: Any) -> list[Any]:
    """The ``phone_numbers`` list of a lookup body, as sent: strings (those that are no number are left for the
    service to skip)."""
    if not isinstance(body, dict):
        raise ValidationError(
            {"non_field_errors": [NO_DATA if body is None else NOT_A_DICT.format(kind=_type_name(body))]}
        )
    sent = body.get("phone_numbers")
    if "phone_numbers" not in body:
        raise ValidationError({"phone_numbers": [REQUIRED]})
    if sent is None:
        raise ValidationError({"phone_numbers": [NOT_NULL]})
    if not isinstance(sent, list):
        raise ValidationError({"phone_numbers": [NOT_LIST.format(kind=_type_name(sent))]})
    if len(sent) > MAX_ENTRIES:
        raise ValidationError({"phone_numbers": [TOO_MANY]})
    not_text = {str(n): [NOT_NULL if entry is None else NOT_STRING] for n, entry in enumerate(sent)}
    not_text = {n: message for n, message in not_text.items() if not isinstance(sent[int(n)], str)}
    # NUL, lone surrogates, entries that are no string: 400 by position; strings that are no number are left out
    if unreadable := {**text_errors_by_position(sent), **not_text}:
        raise ValidationError({"phone_numbers": dict(sorted(unreadable.items(), key=lambda item: int(item[0])))})
    return sent
