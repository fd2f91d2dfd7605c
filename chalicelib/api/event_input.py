"""The body of POST /events and PATCH /events/{id} read into an ``EventInput``: every declared event field
checked by its kind, all errors at once, before anything is written."""

from __future__ import annotations

from chalicelib import localtime
from chalicelib.config import get_settings
from chalicelib.domain import event_fields, questions
from chalicelib.services.hosting.events import EventInput
from chalicelib.timeutil import parse_iso_as_sent
from chalicelib.validation import Fields

UNKNOWN_TIME_ZONE = "Unknown time zone."
NOT_DICT = "Invalid data. Expected a dictionary, but got {kind}."


def _time_part_given(raw: object) -> bool:
    """False when the sent date's time part is 00:00:00 (in its own offset), else True."""
    parsed = parse_iso_as_sent(raw) if isinstance(raw, str) else None
    if parsed is None:
        return True
    return (parsed.hour, parsed.minute, parsed.second, parsed.microsecond) != (0, 0, 0, 0)


def _location(fields: Fields) -> dict | None:
    """``{"latitude", "longitude"}``, ``{}`` to leave it unset, None when not sent."""
    if not fields.present("location"):
        return None
    value = fields.data["location"]
    if value is None or value == {}:
        return {}
    if not isinstance(value, dict):
        fields.errors["location"] = {"non_field_errors": [NOT_DICT.format(kind=type(value).__name__)]}
        return None
    inner = Fields(value)
    latitude = inner.number("latitude", required=True, min_value=-90, max_value=90)
    longitude = inner.number("longitude", required=True, min_value=-180, max_value=180)
    if inner.errors:
        fields.errors["location"] = inner.errors
        return None
    return {"latitude": latitude, "longitude": longitude}


def _time_zone(fields: Fields) -> str | None:
    """An IANA zone name, ``""`` when sent as null (to clear it), None when not sent."""
    if fields.present("time_zone") and fields.data["time_zone"] is None:
        return ""
    name = fields.string("time_zone", allow_blank=False)
    if name is not None and localtime.zone(name) is None:
        fields.error("time_zone", UNKNOWN_TIME_ZONE)
        return None
    return name


def _https_url(fields: Fields, field: event_fields.EventField) -> str | None:
    """An https address, ``""`` when sent blank or null (to clear it), None when not sent."""
    if fields.present(field.name) and fields.data[field.name] is None:
        return ""
    value = fields.string(field.name, max_length=field.max_length)
    problem = event_fields.https_url_problem(value) if value else None
    if problem is not None:
        fields.error(field.name, problem)
        return None
    return value


def sent_offset(raw: object) -> int:
    """The UTC offset, in minutes, of the event_date as sent: 0 for ``Z``, no offset, or UNIX seconds."""
    sent = parse_iso_as_sent(raw) if isinstance(raw, str) else None
    return localtime.offset_minutes(sent) or 0


def _parsed(fields: Fields, field: event_fields.EventField, creating: bool):
    """One declared event field of the body, checked by its kind (errors gathered in ``fields``)."""
    required = creating and field.required_on_create
    if field.kind == "text":
        return fields.string(field.name, required=required, max_length=field.max_length, allow_blank=field.allow_blank)
    if field.kind == "https_url":
        return _https_url(fields, field)
    if field.kind == "int":
        most = getattr(get_settings(), field.max_value_setting) if field.max_value_setting else field.max_value
        return fields.integer(field.name, required=required, min_value=field.min_value, max_value=most)
    if field.kind == "bool":
        return fields.boolean(field.name, required=required)
    if field.kind == "enum":
        return fields.choice(field.name, field.choices, required=required)
    if field.kind == "timestamp":
        if field.nullable and fields.present(field.name) and fields.data[field.name] is None:
            return ""  # null: cleared
        return fields.datetime(field.name, required=required)
    if field.kind == "phones":
        return fields.phone_list(field.name, textable=True)
    if field.kind == "location":
        return _location(fields)
    if field.kind == "time_zone":
        return _time_zone(fields)
    if field.kind == "questions":
        if not fields.present(field.name):
            return None
        asked, problems = questions.parse(fields.data[field.name])
        if problems is not None:
            fields.errors[field.name] = problems
        return asked
    raise ValueError(f"no parser for the kind {field.kind!r} of {field.name}")


def event_input(body: dict, *, creating: bool) -> EventInput:
    """Every field checked before anything is written; all errors at once."""
    fields = Fields(body)
    data = EventInput(**{field.name: _parsed(fields, field, creating) for field in event_fields.EVENT_FIELDS})
    if not creating:
        data.spot_filled = fields.integer("spot_filled", min_value=1, max_value=get_settings().max_spots)
    fields.raise_if_errors()
    if data.event_date is not None:
        data.utc_offset_minutes = sent_offset(body.get("event_date"))
        if data.is_time_specified is None:
            data.is_time_specified = _time_part_given(body.get("event_date"))
    return data
