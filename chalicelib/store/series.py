"""A series' item (models/series.py): made with its dates, read to find them, marked when cancelled; and the undo
of dates stored by a create that could not finish."""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.events import Event, Invitation
from chalicelib.models.series import SERIES_SK, Series, series_pk
from chalicelib.parallel import parallel_map
from chalicelib.store import due_steps
from chalicelib.store.batch import batch_write
from chalicelib.store.once import save_new


def save_new_series(series_id: int, owner_id: int, events: list[Event], freq: str, interval: int, now: datetime):
    """The series item naming ``events`` (in date order); one conditional PutItem (Refused on an id clash, not
    on this write's own retry after its answer was lost)."""
    series = Series(
        series_pk(series_id),
        SERIES_SK,
        id=series_id,
        owner_id=owner_id,
        event_ids=[event.id for event in events],
        freq=freq,
        interval=interval,
        created=now,
    )
    save_new(series, Series.pk.does_not_exist())
    return series


def load_series(series_id: int) -> Series | None:
    try:
        return Series.get(series_pk(series_id), SERIES_SK, consistent_read=True)
    except Series.DoesNotExist:
        return None


def mark_series_cancelled(series: Series, now: datetime) -> None:
    series.update(actions=[Series.cancelled_at.set(now)])


def remove_new_events(stored: list[tuple[Event, list[Invitation]]]) -> None:
    """Delete the META, the steps before the start and the invitations of events a create stored before it failed
    (25 a BatchWriteItem)."""

    def remove(event: Event, invitations: list[Invitation]) -> None:
        batch_write([event, *due_steps.every_step(event.id), *invitations], delete=True, written=set())

    parallel_map(lambda pair: remove(*pair), stored)
