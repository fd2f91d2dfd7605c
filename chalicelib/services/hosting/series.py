"""Series: one event per date of a recurrence rule, with a standing guest list. No chalice imports.

Creating goes through the create path of every event (services/hosting/events.py ``create_events``): the same checks,
limits and invitations, the invitees resolved and charged once, one text per number for the whole series.
A change of "this and later dates" or of "all" of them applies the edit of one date to each (a new date or
time moves each date by the same local shift, so the wall time is kept across daylight-saving changes); only
the date edited tells people, so a burst of changes is one text per guest for the series. Cancelling a series
cancels its dates still to come, told as one cancellation.
"""

from __future__ import annotations

from datetime import datetime

from chalicelib import limits, localtime
from chalicelib.domain import recurrence
from chalicelib.domain.roles import Action
from chalicelib.errors import NotFound, ValidationError
from chalicelib.ids import new_id
from chalicelib.services.guards.ratelimit import RollingLimit
from chalicelib.services.hosting import events
from chalicelib.services.hosting.series_plan import SeriesPlan
from chalicelib.services.participants.event_reads import permitted_view
from chalicelib.services.texts.invitation_texts import send_invitation_texts
from chalicelib.store import series as series_store
from chalicelib.store.events import EventView, load_partition
from chalicelib.timeutil import utcnow

THIS, FOLLOWING, ALL = "this", "following", "all"
SCOPES = (THIS, FOLLOWING, ALL)


def _zone(data: events.EventInput):
    return localtime.event_zone(data.time_zone or None, data.utc_offset_minutes)


def send_series_texts(owner, event, people, links, *, words: recurrence.Cadence) -> dict[int, str]:
    """The one invitation text of a series to each number (the link is to the first date's page); each
    person's ``text_status``."""
    return send_invitation_texts(owner, event, people, links, series_words=words)


def create_series(owner, data: events.EventInput, repeat: recurrence.Repeat) -> list[EventView]:
    """Every date of the series, first date first; 400 keyed by ``repeat`` when its span does not fit."""
    zone = _zone(data)
    first = events.whole_seconds(data.event_date)
    problem = recurrence.span_problem(repeat, first, zone)
    if problem is not None:
        field, message = problem
        raise ValidationError({"repeat": {field: [message]}})
    dates = recurrence.occurrences(first, zone, repeat)
    words = recurrence.cadence(repeat, first, zone)
    series_id = new_id()
    now = utcnow()
    plan = SeriesPlan(
        series_id=series_id,
        dates=dates,
        charges=[(RollingLimit.of(limits.SERIES_CREATED, owner.id), 1)],
        send_texts=lambda *args: send_series_texts(*args, words=words),
        save_series=lambda stored: series_store.save_new_series(
            series_id, owner.id, stored, repeat.freq, repeat.interval, now
        ),
    )
    return events.create_events(owner, data, plan)


# --------------------------------------------------------------------------- changes


def _dates_in_scope(series, event_id: int, scope: str) -> list[int]:
    ids = [int(each) for each in series.event_ids]
    if scope == ALL:
        return ids
    return ids[ids.index(event_id) :]


def _shifted(data: events.EventInput, edited: EventView, other) -> events.EventInput:
    """The edit as it applies to ``other`` date: a new date or time moves it by the local shift of the date
    edited; the reply deadline keeps its distance to the date."""
    if data.event_date is None:
        return data.replace(rsvp_deadline=_deadline_for(data, edited.event, other))
    zone = localtime.event_zone(
        data.time_zone if data.time_zone is not None else edited.event.time_zone,
        data.utc_offset_minutes if data.utc_offset_minutes is not None else edited.event.utc_offset_minutes,
    )
    before = edited.event.event_date.astimezone(zone).replace(tzinfo=None)
    after = data.event_date.astimezone(zone).replace(tzinfo=None)
    wall = other.event_date.astimezone(zone).replace(tzinfo=None) + (after - before)
    moved = recurrence.placed(wall, zone)
    return data.replace(event_date=moved, rsvp_deadline=_deadline_for(data, edited.event, other, moved))


def _deadline_for(data: events.EventInput, edited, other, moved: datetime | None = None):
    """A deadline set by the edit, at the same distance before each date as before the date edited."""
    if not isinstance(data.rsvp_deadline, datetime):
        return data.rsvp_deadline
    edited_date = data.event_date or edited.event_date
    return data.rsvp_deadline + ((moved or other.event_date) - edited_date)


def update_in_scope(caller, event_id: int, data: events.EventInput, scope: str) -> EventView:
    """``PATCH /events/{id}`` with ``scope``: ``this`` (one date), ``following`` (it and later ones) or ``all``
    dates of its series; an event outside a series has only ``this`` (400). The caller must host every date in
    scope (403 or 404 before anything changes); each is edited as a single edit would be (cancelled dates are
    left as they are); the edited date's answer is returned."""
    if scope == THIS:
        return events.update_event(caller, event_id, data)
    view = permitted_view(caller, event_id, Action.EDIT)
    series = series_store.load_series(view.event.series_id) if view.event.series_id else None
    if series is None:
        raise ValidationError.field("scope", "This event is not part of a series.")
    others = [permitted_view(caller, other_id, Action.EDIT) for other_id in _dates_in_scope(series, event_id, scope)]
    others = [other for other in others if other.event.id != event_id and not other.event.cancelled]
    edits = [(other, _shifted(data, view, other.event)) for other in others]
    for other, edit in edits:  # every date's own checks before any date is changed
        _check_date(other, edit)
    answer = events.update_event(caller, event_id, data)
    for other, edit in edits:
        events.update_event(caller, other.event.id, edit, tell=False)
    return answer


def _check_date(view: EventView, edit: events.EventInput) -> None:
    """The checks an edit of one date makes before it writes (the reply deadline, the spots), made up front."""
    kept_deadline = None if edit.rsvp_deadline == "" else (edit.rsvp_deadline or view.event.rsvp_deadline)
    events.check_deadline(kept_deadline, edit.event_date or view.event.event_date)
    total = edit.total_spots if edit.total_spots is not None else view.event.total_spots
    events.check_spots(view.event, total, edit.spot_filled or 0)


# --------------------------------------------------------------------------- cancel


def cancel_series(caller, series_id: int) -> None:
    """``DELETE /series/{id}`` (the owner): every date still to come is cancelled; its guests hear it once,
    through the first of those dates (its cancel message carries the cadence, worded for each guest). 404 for
    anyone who is not in the series' first date; 403 for its guests and co-hosts. Idempotent."""
    series = series_store.load_series(series_id)
    if series is None:
        raise NotFound()
    ids = [int(each) for each in series.event_ids]
    permitted_view(caller, ids[0], Action.CANCEL_SERIES)
    now = utcnow()
    told = False
    for event_id in ids:
        view = load_partition(event_id)
        if view is None or view.event.event_date <= now:
            continue
        cadence = None if told or view.event.cancelled else _cadence_of(series, view)
        told = events.cancel_event(caller, event_id, tell=not told, series=cadence) or told
    if series.cancelled_at is None:
        series_store.mark_series_cancelled(series, now)


def _cadence_of(series, view: EventView) -> recurrence.Cadence:
    repeat = recurrence.Repeat(series.freq, int(series.interval))
    return recurrence.cadence(repeat, view.event.event_date, localtime.zone_of(view.event))
