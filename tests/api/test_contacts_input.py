"""api.contacts_input: favorites bodies of either shape read into checked entries, DRF-shaped errors."""

from __future__ import annotations

import base64

import pytest

from chalicelib.api.contacts_input import _invalid_image_message, parse_favorites
from chalicelib.api.error_responses import body_of
from chalicelib.errors import ValidationError
from chalicelib.services.contacts.contacts import KEEP
from tests.utils.images import jpeg


def test_parse_deprecated_shape_dedupes_after_normalising():
    entries = parse_favorites({"phone_numbers": ["+14155550101", "+1 415 555 0101"]}, with_details=True)
    assert [(e.phone, e.contact_name, e.photo) for e in entries] == [("+14155550101", None, KEEP)]


def test_parse_array_keeps_the_last_entry_of_a_number_and_reencodes_its_photo():
    photo = base64.b64encode(jpeg(32, 32, "navy")).decode()
    entries = parse_favorites(
        [
            {"phone_number": "+14155550101", "contact_name": " Ann "},
            {"phone_number": "+14155550102", "photo": ""},
            {"phone_number": "+1 415 555 0101", "contact_name": "Annie", "photo": photo},
        ],
        with_details=True,
    )
    assert [(e.phone, e.contact_name) for e in entries] == [("+14155550101", "Annie"), ("+14155550102", None)]
    assert entries[0].photo.startswith(b"\xff\xd8\xff") and entries[0].photo != jpeg(32, 32, "navy")
    assert entries[1].photo is None  # "" removes the photo


def test_photo_error_lands_on_the_position_of_the_entry_that_counts():
    with pytest.raises(ValidationError) as raised:
        parse_favorites(
            [{"phone_number": "+14155550101"}, {"phone_number": "+14155550101", "photo": "aGVsbG8="}],
            with_details=True,
        )
    assert body_of(raised.value) == [{}, {"photo": [_invalid_image_message()]}]


def test_parse_for_delete_reads_numbers_only():
    entries = parse_favorites([{"phone_number": "+14155550101", "photo": 5}], with_details=False)
    assert [(e.phone, e.photo) for e in entries] == [("+14155550101", KEEP)]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (None, {"non_field_errors": ["No data provided"]}),
        (True, {"non_field_errors": ['Expected a list of items but got type "bool".']}),
        ({}, {"phone_numbers": ["This field is required."]}),
        ([[]], [{"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}]),
    ],
)
def test_parse_wrong_shapes(body, expected):
    with pytest.raises(ValidationError) as raised:
        parse_favorites(body, with_details=True)
    assert body_of(raised.value) == expected
