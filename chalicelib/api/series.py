"""Series of events: ``repeat`` on POST /events, ``scope`` on PATCH /events/{id} (read here for the routes of
api/events.py), and DELETE /series/{series_id}."""

from __future__ import annotations

from datetime import date

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT, HandlerResult
from chalicelib.domain import recurrence
from chalicelib.errors import ValidationError
from chalicelib.services.hosting import series
from chalicelib.services.participants import representations
from chalicelib.timeutil import format_datetime
from chalicelib.validation import Fields

SCOPES = ("this", "following", "all")
NOT_DICT = "Invalid data. Expected a dictionary, but got {kind}."
COUNT_OR_UNTIL = "Give either count or until."
NOT_DATE = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."


def _until(fields: Fields) -> date | None:
    raw = fields.data.get("until")
    if raw is None:
        if fields.present("until"):
            fields.error("until", "This field may not be null.")
        return None
    try:
        if isinstance(raw, str) and len(raw) == len("YYYY-MM-DD"):
            return date.fromisoformat(raw)
    except ValueError:
        pass
    fields.error("until", NOT_DATE)
    return None


def repeat_of(body: dict) -> recurrence.Repeat | None:
    """The ``repeat`` of a create (None when not sent), or 400 keyed ``{"repeat": {"<field>": [...]}}``."""
    raw = body.get("repeat")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ValidationError({"repeat": {"non_field_errors": [NOT_DICT.format(kind=type(raw).__name__)]}})
    fields = Fields(raw)
    freq = fields.choice("freq", recurrence.FREQUENCIES, required=True)
    interval = fields.integer("interval", min_value=recurrence.MIN_INTERVAL, max_value=recurrence.MAX_INTERVAL)
    count = fields.integer("count", min_value=recurrence.MIN_DATES, max_value=recurrence.MAX_DATES)
    until = _until(fields)
    if (count is None) == (until is None) and not fields.errors:
        fields.error("non_field_errors", COUNT_OR_UNTIL)
    if fields.errors:
        raise ValidationError({"repeat": fields.errors})
    return recurrence.Repeat(freq, interval or 1, count, until)


def scope_of(body: dict) -> str:
    """The ``scope`` of an edit: ``this`` when not sent."""
    fields = Fields(body)
    scope = fields.choice("scope", SCOPES)
    fields.raise_if_errors()
    return scope or "this"


def created_series(ctx: RequestContext, data, repeat: recurrence.Repeat) -> HandlerResult:
    """201 with the first date as a create answers, and ``series``: its id and every date."""
    views = series.create_series(ctx.user, data, repeat)
    answer = representations.event_json(views[0], ctx.user.id, representations.CREATE)
    answer["series"] = {
        "id": views[0].event.series_id,
        "repeat": {"freq": repeat.freq, "interval": repeat.interval},
        "dates": [
            {"id": view.event.id, "event_date": format_datetime(view.event.event_date), "occurrence": n}
            for n, view in enumerate(views, start=1)
        ],
    }
    return HandlerResult(answer, status=201)


def cancel_series(ctx: RequestContext):
    series.cancel_series(ctx.user, ctx.path_id("series_id"))
    return NO_CONTENT
