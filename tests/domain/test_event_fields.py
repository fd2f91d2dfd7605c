"""The declaration of an event's fields agrees with the contract (openapi.yaml) and derives the lists
that used to be kept by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from chalicelib.domain import event_fields
from chalicelib.localtime import MAX_DURATION_MINUTES

SCHEMAS = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())["components"]["schemas"]
NOT_SHOWN = {"invite_phone_numbers"}  # taken on create and edit, shown as the invitees instead


def _properties(name: str) -> dict:
    return SCHEMAS[name]["properties"]


def test_create_takes_exactly_the_declared_fields_and_a_series_rule():
    created = [name for name in _properties("EventCreate") if name != "repeat"]  # how many events, not a field
    assert created == [field.name for field in event_fields.EVENT_FIELDS]
    assert "repeat" in _properties("EventCreate")


def test_edit_takes_the_declared_fields_filling_spots_by_hand_and_a_series_scope():
    fields = {field.name for field in event_fields.EVENT_FIELDS}
    assert set(_properties("EventUpdate")) == fields | {"spot_filled", "scope"}


def test_every_declared_field_but_the_numbers_is_shown_in_the_event():
    shown = set(_properties("Event"))
    assert {field.name for field in event_fields.EVENT_FIELDS} - NOT_SHOWN <= shown
    required = set(SCHEMAS["EventCreate"].get("required", []))
    assert required == {field.name for field in event_fields.EVENT_FIELDS if field.required_on_create}


def test_declared_bounds_are_the_documented_ones():
    for field in event_fields.EVENT_FIELDS:
        documented = _properties("EventCreate")[field.name]
        if field.kind == "int" and field.max_value is not None:
            assert documented.get("maximum") == field.max_value, field.name
        if field.kind == "int":
            assert documented.get("minimum") == field.min_value, field.name
        if field.kind in ("text", "https_url"):
            assert documented.get("maxLength") == field.max_length, field.name
    assert event_fields.BY_NAME["duration_minutes"].max_value == MAX_DURATION_MINUTES


def test_change_words_and_calendar_fields_follow_the_declaration():
    assert event_fields.FIELD_WORDS == {
        "title": "title",
        "event_date": "date",
        "is_time_specified": "time",
        "location": "location",
        "address": "address",
        "venue_name": "venue",
        "online_url": "online link",
    }
    assert set(event_fields.CALENDAR_FIELDS) == {
        "title", "event_date", "is_time_specified", "time_zone", "duration_minutes", "location", "address",
        "venue_name", "online_url", "place_visibility",
    }  # fmt: skip


def test_stored_defaults():
    by_name = event_fields.BY_NAME
    assert event_fields.stored_value(by_name["address"], None) == ""
    assert event_fields.stored_value(by_name["waitlist"], None) is False
    assert event_fields.stored_value(by_name["total_spots"], 0) == 0
    assert event_fields.stored_value(by_name["max_extra_guests"], 4) == 4


def test_shown_values_are_never_null_for_fields_with_a_default():
    by_name = event_fields.BY_NAME
    assert event_fields.shown_value(by_name["venue_name"], None) == ""
    assert event_fields.shown_value(by_name["max_extra_guests"], None) == 0
    assert event_fields.shown_value(by_name["waitlist"], None) is False
    assert event_fields.shown_value(by_name["title"], "Picnic") == "Picnic"


def test_choice_fields_default_to_todays_behaviour():
    by_name = event_fields.BY_NAME
    assert event_fields.stored_value(by_name["join_mode"], None) == "invite_only"
    assert event_fields.shown_value(by_name["guest_list"], None) == "everyone"
    assert event_fields.shown_value(by_name["place_visibility"], None) == "everyone"
    assert event_fields.shown_value(by_name["guest_invites"], None) == 0
    for field in event_fields.EVENT_FIELDS:
        if field.kind == "enum":
            named = _properties("EventCreate")[field.name]["$ref"].rsplit("/", 1)[1]
            assert SCHEMAS[named]["enum"] == list(field.choices), field.name
            assert field.default == field.choices[0], field.name


class _Values(event_fields.DeclaredValues):
    own: int = 3

    @classmethod
    def declared_names(cls) -> tuple[str, ...]:
        return ("title", "total_spots")


def test_declared_values_carry_the_declared_fields_and_their_own_and_refuse_others():
    values = _Values(title="Picnic")
    assert (values.title, values.total_spots, values.own) == ("Picnic", None, 3)
    changed = values.replace(own=4, total_spots=0)
    assert changed == _Values(title="Picnic", total_spots=0, own=4) and values.own == 3
    assert changed != values
    with pytest.raises(TypeError, match="_Values has no field colour"):
        _Values(colour="red")
