"""/events, reading: the list, the timeline, the stats, the sample replies and one event's detail. The writes
are in event_writes.py, a guest's replies in event_replies.py, the hosts' tools in event_hosting.py."""

from __future__ import annotations

from datetime import datetime

from chalicelib.api.request import RequestContext
from chalicelib.errors import PageOutOfRange, ValidationError
from chalicelib.services.participants import event_reads, representations
from chalicelib.timeutil import parse_datetime
from chalicelib.validation import REQUIRED

INVALID_DATETIME = "Enter a valid date/time."
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


# --------------------------------------------------------------------------- query


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


def stats(ctx: RequestContext):
    return {"unresponded_invite_count": event_reads.unresponded_count(ctx.user)}


def sample_rsvp_replies(ctx: RequestContext):
    return [dict(reply) for reply in SAMPLE_RSVP_REPLIES]


def event_detail(ctx: RequestContext):
    view = event_reads.get_event(ctx.user, ctx.path_id("event_id"))
    return representations.event_json(view, ctx.user.id, representations.DETAIL)
