"""Reading events: one event as a participant sees it, a person's events (list, timeline, stats), and the
checks every rule starts from (a participant, the owner, a live event). No chalice imports.

- one event: one GetItem of the caller's invitation (someone outside the event reads nothing more), one
  Query of its partition, then one BatchGetItem of the people in it (100 keys a call, in parallel beyond
  that);
- a person's events: a Query of the ``by_user`` index, then the page's partitions queried in parallel,
  then one parallel round of BatchGetItem for all the people.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from chalicelib.domain.roles import Action, Role, require, role_of
from chalicelib.errors import Conflict, NotFound, PageOutOfRange
from chalicelib.parallel import parallel_map
from chalicelib.store.events import (
    GUEST,
    OWNER,
    EventView,
    load_partition,
)
from chalicelib.store.invitations import count_unanswered, date_of_key, invitations_by_date, own_invitation
from chalicelib.store.users import get_users
from chalicelib.timeutil import format_datetime, utcnow

EVENT_CANCELLED = "This event has been cancelled."
TIMELINE_PAGE = 30


@dataclass
class EventPage:
    count: int
    views: list[EventView]


# --------------------------------------------------------------------------- parallel reads


def with_users(views: list[EventView]) -> list[EventView]:
    people: set[int] = set()
    for view in views:
        people |= view.people()
    users = get_users(people)
    for view in views:
        view.users = users
    return views


def participant_view(caller, event_id: int) -> EventView:
    """The event as its owner or an invitee may see it (no people yet); 404 for anyone else."""
    return permitted_view(caller, event_id, Action.READ)


def role_in(caller, view: EventView) -> Role:
    """The caller's role in the event (domain.roles decides what each role may do)."""
    return role_of(view.invitation_of(caller.id))


def permitted_view(caller, event_id: int, action: Action) -> EventView:
    """The event (no people yet) when the caller's role permits ``action``: 404 for a stranger, 403 for a
    participant whose role does not. The caller's own invitation comes first (read with their token when the
    request names the event, else one GetItem), so someone outside the event reads none of its rows: their 404
    costs the same for an event of any size as for an id that names none (timing tells nothing). The role is
    then checked again on the partition as read."""
    require(role_of(own_invitation(event_id, caller.id)), action)
    view = load_partition(event_id)
    if view is None:
        raise NotFound()
    require(role_in(caller, view), action)
    return view


def get_event(caller, event_id: int) -> EventView:
    """Detail: one Query and one BatchGetItem (the caller's own invitation came with their token)."""
    return with_users([participant_view(caller, event_id)])[0]


def require_live(event) -> None:
    if event.cancelled:
        raise Conflict(EVENT_CANCELLED)


REPLIES_CLOSED = "Replies are closed for this event."


def replies_closed(event, now) -> bool:
    """Past the event's reply deadline, or its replies paused: no accepting (declining stays open)."""
    return bool(event.replies_paused) or (event.rsvp_deadline is not None and now > event.rsvp_deadline)


# --------------------------------------------------------------------------- lists


def _after_key(moment: datetime) -> str:
    """Every date_key of an event strictly after ``moment`` sorts above this."""
    return f"{format_datetime(moment)}#~"


def _before_key(moment: datetime) -> str:
    """Every date_key of an event strictly before ``moment`` sorts below this."""
    if moment.microsecond:  # the events of its whole second are before it (no +1 s: 9999-12-31T23:59:59.5 is valid)
        return f"{format_datetime(moment)}#~"
    return format_datetime(moment)


def _load_events(event_ids: list[int]) -> list[EventView]:
    """Round 2 and 3: the partitions in parallel, then everyone in them in one parallel round."""
    views = parallel_map(lambda event_id: load_partition(event_id, consistent=False), event_ids)
    return with_users([view for view in views if view is not None and not view.event.cancelled])


def list_events(
    caller,
    *,
    after: datetime | None = None,
    before: datetime | None = None,
    i_am_owner: bool | None = None,
    page: int = 1,
    per_page: int = 30,
) -> EventPage:
    """The caller's live events by date then id; ``page`` past the end is 404 "Invalid page."."""
    above = _after_key(after) if after is not None else None
    below = _before_key(before) if before is not None else None
    role = None if i_am_owner is None else (OWNER if i_am_owner else GUEST)
    if after is not None and before is not None and _after_key(after) >= _before_key(before):
        keys = []
    else:
        keys = [inv.event_id for inv in invitations_by_date(caller.id, above=above, below=below, role=role)]
    count = len(keys)
    pages = max(1, -(-count // per_page))
    if page < 1 or page > pages:
        raise PageOutOfRange()
    return EventPage(count, _load_events(keys[(page - 1) * per_page : page * per_page]))


def timeline(caller, kind: str, cursor: datetime | None) -> list[EventView]:
    """Newest first, 30 a page, never ending inside a run of equal dates; ``cursor`` exclusive."""
    role = OWNER if kind == "sent" else GUEST
    below = _before_key(cursor) if cursor is not None else None
    picked: list = []
    for inv in invitations_by_date(caller.id, below=below, role=role, newest_first=True):
        if len(picked) >= TIMELINE_PAGE and _date_of(inv) != _date_of(picked[-1]):
            break
        picked.append(inv)
    return _load_events([inv.event_id for inv in picked])


def _date_of(inv) -> str:
    return date_of_key(inv.date_key)


def unresponded_count(caller) -> int:
    """Invitations (not as owner) to live future events with no reply: one COUNT Query."""
    return count_unanswered(caller.id, above=_after_key(utcnow()))
