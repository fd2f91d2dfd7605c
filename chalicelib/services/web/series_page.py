"""The dates of a series on a texted guest's page (``/i/<code>``), and answering one of them from it. No chalice
imports.

The page's link opens one date's invitation (the first date's, texted once for the series); the other dates are
found through the series item and read in two BatchGetItem (their META, the guest's invitations), only for a
page of a series. An answer for another date (going, maybe or not) runs the page's own answer code
(``guest_answers.answer_as``) as the guest on that date's own invitation: the same rules as any answer; a date
outside the link's series, or one the guest is not invited to, is 404.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from chalicelib.errors import Conflict, NotFound
from chalicelib.services.web import guest_answers
from chalicelib.store import calendar_feeds as feed_store
from chalicelib.store import series as series_store
from chalicelib.store.records import Event, Invitation
from chalicelib.store.users import user_with_id

SHOWN_DATES = 26


@dataclass
class SeriesDate:
    event: Event
    invitation: Invitation


def upcoming_dates(event: Event, invitation: Invitation, now: datetime) -> list[SeriesDate]:
    """The series' dates from now on (live ones, the link's own included) with the guest's invitation to each;
    [] for an event outside a series."""
    series = series_store.load_series(event.series_id) if event.series_id else None
    if series is None:
        return []
    ids = [int(each) for each in series.event_ids]
    events = feed_store.metas(ids)
    mine = feed_store.full_invitations(invitation.user_id, ids)
    dates = [
        SeriesDate(events[eid], mine[eid])
        for eid in ids
        if eid in events and eid in mine and not events[eid].cancelled and events[eid].event_date >= now
    ]
    return dates[:SHOWN_DATES]


def answer_date(
    event: Event, invitation: Invitation, date_id: int, *, accept: bool, now: datetime, maybe: bool = False
) -> None:
    """Accept or decline ``date_id`` of the link's series (or say ``maybe``) as the link's guest."""
    series = series_store.load_series(event.series_id) if event.series_id else None
    if series is None or date_id not in [int(each) for each in series.event_ids]:
        raise NotFound()
    own = feed_store.full_invitations(invitation.user_id, [date_id]).get(date_id)
    date = feed_store.metas([date_id]).get(date_id)
    if own is None or date is None or own.role != invitation.role:
        raise NotFound()
    if not date.cancelled and date.event_date <= now:
        raise Conflict("This event has already taken place.")
    guest_answers.answer_as(user_with_id(invitation.user_id), date_id, accept=accept, message=None, maybe=maybe)
