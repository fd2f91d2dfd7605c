"""A series of events: one item in the events table naming its dates' events, in date order.

| item   | pk           | sk   |
|--------|--------------|------|
| Series | SERIES#<id>  | META |

Each date is an ordinary event (``EVENT#<id>``) carrying ``series_id`` and ``occurrence``; this item is what
lets a change of "this and later dates" or a cancel of the whole series find them with one GetItem.
"""

from __future__ import annotations

from pynamodb.attributes import ListAttribute, NumberAttribute, UnicodeAttribute, UTCDateTimeAttribute

from chalicelib.models.events import META_SK, EventsTable

SERIES_PREFIX = "SERIES#"
SERIES_SK = META_SK


def series_pk(series_id: int) -> str:
    return f"{SERIES_PREFIX}{series_id}"


class Series(EventsTable, discriminator="series"):
    id = NumberAttribute()
    owner_id = NumberAttribute()
    event_ids = ListAttribute(of=NumberAttribute)  # the dates' events, first date first
    freq = UnicodeAttribute()  # weekly, monthly
    interval = NumberAttribute()
    created = UTCDateTimeAttribute()
    cancelled_at = UTCDateTimeAttribute(null=True)  # DELETE /series/{id}: its future dates were cancelled
