"""/events: the list, create, timeline, stats, sample replies, detail, edits, cancel, RSVP, seen, and the hosts'
tools: the guest list as CSV, the clone, the cover."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from chalice import Response

from chalicelib import localtime
from chalicelib.api import series
from chalicelib.api.blueprint import ApiBlueprint
from chalicelib.api.request import MULTIPART_BODY, NO_BODY, RequestContext
from chalicelib.api.responses import NO_CONTENT, HandlerResult
from chalicelib.config import get_settings
from chalicelib.domain import event_fields, questions
from chalicelib.domain.event_fields import MAX_EXTRA_GUESTS
from chalicelib.errors import PageOutOfRange, ValidationError
from chalicelib.services import event_reads, representations
from chalicelib.timeutil import parse_datetime, parse_iso_as_sent
from chalicelib.validation import REQUIRED, Fields

# The write services (events, replies) and the messaging they pull in: imported inside the handlers that
# write, so a cold start that reads an event skips them.
if TYPE_CHECKING:
    from chalicelib.services.events import EventInput  # event writes and messaging: off the API's cold start

blueprint = ApiBlueprint(__name__)

INVALID_DATETIME = "Enter a valid date/time."
UNKNOWN_TIME_ZONE = "Unknown time zone."
NOT_DICT = "Invalid data. Expected a dictionary, but got {kind}."
TIMELINE_TYPES = ("sent", "received")
MAX_PER_PAGE = 1000
# Ready-made answers a client offers a guest (GET /events/sample_rsvp_replies).
SAMPLE_RSVP_REPLIES = (
    {"id": 1, "text": "Count me in!", "type": "accept"},
    {"id": 2, "text": "See you there.", "type": "accept"},
    {"id": 3, "text": "Wouldn't miss it.", "type": "accept"},
    {"id": 4, "text": "I'll bring snacks.", "type": "accept"},
    {"id": 5, "text": "Sorry, I can't make it.", "type": "reject"},
    {"id": 6, "text": "Maybe next time.", "type": "reject"},
    {"id": 7, "text": "I have other plans.", "type": "reject"},
    {"id": 8, "text": "Have fun without me!", "type": "reject"},
)


# --------------------------------------------------------------------------- input


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


def _sent_offset(raw: object) -> int:
    """The UTC offset, in minutes, of the event_date as sent: 0 for ``Z``, no offset, or UNIX seconds."""
    sent = parse_iso_as_sent(raw) if isinstance(raw, str) else None
    return localtime.offset_minutes(sent) or 0


def _parsed(fields: Fields, field: event_fields.EventField, creating: bool):
    """One declared event field of the body, checked by its kind (errors gathered in ``fields``)."""
    required = creating and field.required_on_create
    if field.kind == "text":
        return fields.string(field.name, required=required, max_length=field.max_length, allow_blank=field.allow_blank)
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


def _event_input(body: dict, *, creating: bool) -> EventInput:
    """Every field checked before anything is written; all errors at once."""
    from chalicelib.services import events  # event writes and messaging: off the API's cold start

    fields = Fields(body)
    data = events.EventInput(**{field.name: _parsed(fields, field, creating) for field in event_fields.EVENT_FIELDS})
    if not creating:
        data.spot_filled = fields.integer("spot_filled", min_value=1, max_value=get_settings().max_spots)
    fields.raise_if_errors()
    if data.event_date is not None:
        data.utc_offset_minutes = _sent_offset(body.get("event_date"))
        if data.is_time_specified is None:
            data.is_time_specified = _time_part_given(body.get("event_date"))
    return data


def _rsvp_input(ctx: RequestContext, *, accept: bool) -> tuple[str, int | None, object]:
    """The reply's message, and on an accept the people the guest brings and the answers to the event's
    questions (None when not sent; checked against the questions by services.replies)."""
    body = dict(ctx.json_object())
    for name in ("rsvp_message", "extra_guests"):
        if body.get(name) is None:
            body.pop(name, None)
    fields = Fields(body)
    message = fields.string("rsvp_message", max_length=60)
    extra_guests = fields.integer("extra_guests", min_value=0, max_value=MAX_EXTRA_GUESTS) if accept else None
    answers = body.get("answers") if accept else None
    if isinstance(answers, dict) and len(answers) > questions.MAX_QUESTIONS:
        fields.error("answers", f"Ensure this field has no more than {questions.MAX_QUESTIONS} elements.")
    fields.raise_if_errors()
    return message or "", extra_guests, answers


def _query_datetime(ctx: RequestContext, name: str, errors: dict) -> datetime | None:
    raw = ctx.query(name)
    if raw is None or raw == "":
        return None
    parsed = parse_datetime(raw, allow_unix=True)
    if parsed is None:
        errors[name] = [INVALID_DATETIME]
    return parsed


def _query_boolean(ctx: RequestContext, name: str, errors: dict) -> bool | None:
    raw = ctx.query(name)
    if raw is None or raw == "":
        return None
    value = raw.strip().lower()
    if value in ("true", "1", "yes", "on"):
        return True
    if value in ("false", "0", "no", "off"):
        return False
    errors[name] = ["Must be a valid boolean."]
    return None


def _per_page(ctx: RequestContext, errors: dict) -> int:
    raw = ctx.query("per_page")
    if raw is None or raw == "":
        return 30
    try:
        value = int(raw)
    except ValueError:
        errors["per_page"] = ["A valid integer is required."]
        return 30
    if value < 1:
        errors["per_page"] = ["Ensure this value is greater than or equal to 1."]
    elif value > MAX_PER_PAGE:
        errors["per_page"] = [f"Ensure this value is less than or equal to {MAX_PER_PAGE}."]
    return value


def _page(ctx: RequestContext) -> int:
    raw = ctx.query("page")
    if raw is None or raw == "":
        return 1
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
        raise PageOutOfRange()
    return int(raw)


def _page_url(ctx: RequestContext, page: int) -> str:
    query = {name: value for name, value in (ctx.request.query_params or {}).items() if name != "page"}
    if page > 1:
        query["page"] = page
    return ctx.absolute_url(**query)


# --------------------------------------------------------------------------- routes


@blueprint.route("/events", ["GET"])
def list_events(ctx: RequestContext):
    errors: dict = {}
    after = _query_datetime(ctx, "event_after", errors)
    before = _query_datetime(ctx, "event_before", errors)
    i_am_owner = _query_boolean(ctx, "i_am_owner", errors)
    per_page = _per_page(ctx, errors)
    if errors:
        raise ValidationError(errors)
    page = _page(ctx)
    result = event_reads.list_events(
        ctx.user, after=after, before=before, i_am_owner=i_am_owner, page=page, per_page=per_page
    )
    has_next = page * per_page < result.count
    return {
        "count": result.count,
        "next": _page_url(ctx, page + 1) if has_next else None,
        "previous": _page_url(ctx, page - 1) if page > 1 else None,
        "results": [representations.event_json(view, ctx.user.id, representations.LIST) for view in result.views],
    }


@blueprint.route("/events", ["POST"], idempotent=True)
def create_event(ctx: RequestContext):
    from chalicelib.services import events  # event writes and messaging: off the API's cold start

    body = ctx.json_object()
    data = _event_input(body, creating=True)
    repeat = series.repeat_of(body)
    if repeat is not None:
        return series.created_series(ctx, data, repeat)
    view = events.create_event(ctx.user, data)
    return HandlerResult(representations.event_json(view, ctx.user.id, representations.CREATE), status=201)


@blueprint.route("/events/timeline", ["GET"])
def timeline(ctx: RequestContext):
    errors: dict = {}
    timeline_type = ctx.query("type")
    if timeline_type is None or timeline_type == "":
        errors["type"] = [REQUIRED]
    elif timeline_type not in TIMELINE_TYPES:
        errors["type"] = [f'"{timeline_type}" is not a valid choice.']
    cursor = _query_datetime(ctx, "cursor", errors)
    if errors:
        raise ValidationError(errors)
    return [
        representations.event_json(view, ctx.user.id, representations.TIMELINE)
        for view in event_reads.timeline(ctx.user, timeline_type, cursor)
    ]


@blueprint.route("/events/stats", ["GET"])
def stats(ctx: RequestContext):
    return {"unresponded_invite_count": event_reads.unresponded_count(ctx.user)}


@blueprint.route("/events/sample_rsvp_replies", ["GET"])
def sample_rsvp_replies(ctx: RequestContext):
    return [dict(reply) for reply in SAMPLE_RSVP_REPLIES]


@blueprint.route("/events/{event_id}", ["GET"])
def event_detail(ctx: RequestContext):
    view = event_reads.get_event(ctx.user, ctx.path_id("event_id"))
    return representations.event_json(view, ctx.user.id, representations.DETAIL)


@blueprint.route("/events/{event_id}", ["PATCH"])
def edit_event(ctx: RequestContext):
    from chalicelib.services import series as series_service  # event writes: off the API's cold start

    event_id, body = ctx.path_id("event_id"), ctx.json_object()
    data = _event_input(body, creating=False)
    view = series_service.update_in_scope(ctx.user, event_id, data, series.scope_of(body))
    return representations.event_json(view, ctx.user.id, representations.DETAIL)


@blueprint.route("/events/{event_id}/cancel_event", ["PUT"], body=NO_BODY)
def cancel_event(ctx: RequestContext):
    from chalicelib.services import events  # event writes and messaging: off the API's cold start

    events.cancel_event(ctx.user, ctx.path_id("event_id"))
    return NO_CONTENT


def _rsvp(ctx: RequestContext, accept: bool):
    from chalicelib.services import replies  # replies and messaging: off the API's cold start

    event_id = ctx.path_id("event_id")
    message, extra_guests, answers = _rsvp_input(ctx, accept=accept)
    reply = replies.rsvp(ctx.user, event_id, accept=accept, message=message, extra_guests=extra_guests, answers=answers)
    return representations.invitation_json(reply.invitation, ctx.user, reply.waitlist_position)


@blueprint.route("/events/{event_id}/accept", ["POST"])
def accept(ctx: RequestContext):
    return _rsvp(ctx, True)


@blueprint.route("/events/{event_id}/reject", ["POST"])
def reject(ctx: RequestContext):
    return _rsvp(ctx, False)


@blueprint.route("/events/{event_id}/invitees/{user_id}/reply", ["PUT"])
def reply_for_guest(ctx: RequestContext):
    from chalicelib.services import replies  # replies and messaging: off the API's cold start

    event_id, user_id = ctx.path_id("event_id"), ctx.path_id("user_id")
    body = dict(ctx.json_object())
    if body.get("extra_guests") is None:
        body.pop("extra_guests", None)
    fields = Fields(body)
    accept = fields.boolean("accept", required=True)
    extra_guests = fields.integer("extra_guests", min_value=0, max_value=MAX_EXTRA_GUESTS) if accept else None
    fields.raise_if_errors()
    reply = replies.reply_for_guest(ctx.user, event_id, user_id, accept=accept, extra_guests=extra_guests)
    return representations.invitation_json(reply.invitation, reply.guest, reply.waitlist_position)


@blueprint.route("/events/{event_id}/offline_guests", ["POST"])
def add_offline_guest(ctx: RequestContext):
    from chalicelib.services import offline_guests  # capacity and the waitlist: off the API's cold start

    event_id = ctx.path_id("event_id")
    fields = Fields(ctx.json_object())
    name = fields.person_name("name", required=True, min_length=1, max_length=100)
    extra_guests = fields.integer("extra_guests", min_value=0, max_value=MAX_EXTRA_GUESTS)
    fields.raise_if_errors()
    guest = offline_guests.add(ctx.user, event_id, name=name, extra_guests=extra_guests or 0)
    return HandlerResult(representations.offline_guest_json(guest), status=201)


@blueprint.route("/events/{event_id}/offline_guests/{guest_id}", ["DELETE"], body=NO_BODY)
def remove_offline_guest(ctx: RequestContext):
    from chalicelib.services import offline_guests  # capacity and the waitlist: off the API's cold start

    offline_guests.remove(ctx.user, ctx.path_id("event_id"), ctx.path_id("guest_id"))
    return NO_CONTENT


@blueprint.route("/events/{event_id}/invitations/{invitation_id}/mark_seen", ["PUT"], body=NO_BODY)
def mark_seen(ctx: RequestContext):
    from chalicelib.services import replies  # replies and messaging: off the API's cold start

    event_id = ctx.path_id("event_id")
    invitation_id = ctx.path_id("invitation_id")
    invitation, position = replies.mark_seen(ctx.user, event_id, invitation_id)
    return representations.invitation_json(invitation, ctx.user, position)


@blueprint.route("/events/{event_id}/cohosts/{user_id}", ["PUT"], body=NO_BODY)
def appoint_cohost(ctx: RequestContext):
    from chalicelib.services import cohosts  # event writes: off the API's cold start

    view = cohosts.appoint(ctx.user, ctx.path_id("event_id"), ctx.path_id("user_id"))
    return representations.event_json(view, ctx.user.id, representations.DETAIL)


@blueprint.route("/events/{event_id}/cohosts/{user_id}", ["DELETE"], body=NO_BODY)
def end_cohost(ctx: RequestContext):
    from chalicelib.services import cohosts  # event writes: off the API's cold start

    cohosts.end(ctx.user, ctx.path_id("event_id"), ctx.path_id("user_id"))
    return NO_CONTENT


@blueprint.route("/events/{event_id}/guests.csv", ["GET"], body=NO_BODY)
def guest_list_csv(ctx: RequestContext):
    from chalicelib import download_names
    from chalicelib.domain.guest_sheet import CONTENT_TYPE
    from chalicelib.services import guest_list_export  # off the API's cold start

    sheet = guest_list_export.guest_list_sheet(ctx.user, ctx.path_id("event_id"))
    headers = {
        "Content-Type": CONTENT_TYPE,
        "Content-Disposition": download_names.content_disposition(sheet.title, ".csv"),
        "Cache-Control": "private, no-store",  # phone numbers: never kept by a shared cache
    }
    return Response(body="" if ctx.method == "HEAD" else sheet.text, status_code=200, headers=headers)


@blueprint.route("/events/{event_id}/clone", ["POST"], idempotent=True)
def clone_event(ctx: RequestContext):
    from chalicelib.services import event_clone  # event writes and messaging: off the API's cold start

    body = ctx.json_object()
    fields = Fields(body)
    event_date = fields.datetime("event_date", required=True)
    invite_same_guests = fields.boolean("invite_same_guests")
    fields.raise_if_errors()
    view = event_clone.clone_event(
        ctx.user,
        ctx.path_id("event_id"),
        event_date,
        _sent_offset(body.get("event_date")),
        bool(invite_same_guests),
    )
    return HandlerResult(representations.event_json(view, ctx.user.id, representations.CREATE), status=201)


@blueprint.route("/events/{event_id}/cover", ["PUT"], body=MULTIPART_BODY)
def change_cover(ctx: RequestContext):
    from chalicelib.api.multipart import photo_from_multipart  # the multipart parser: off the API's cold start
    from chalicelib.services import covers  # Pillow and S3: off the API's cold start

    event_id = ctx.path_id("event_id")
    photo = photo_from_multipart(ctx.header("content-type") or "", ctx.request.raw_body)
    view = covers.change_cover(ctx.user, event_id, photo)
    return representations.event_json(view, ctx.user.id, representations.DETAIL)


@blueprint.route("/events/{event_id}/cover", ["DELETE"], body=NO_BODY)
def remove_cover(ctx: RequestContext):
    from chalicelib.services import covers  # Pillow and S3: off the API's cold start

    view = covers.remove_cover(ctx.user, ctx.path_id("event_id"))
    return representations.event_json(view, ctx.user.id, representations.DETAIL)
