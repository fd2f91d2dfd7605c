"""What one person may see of one event, decided here for every place that shows it: the API's
representations, the guest page and its calendar entry, link previews, pushes and texts, exports.

The event's ``guest_list`` and ``place_visibility`` settings apply to guests only; a host (owner or
co-host, by the table in domain/roles.py) sees everything. For a guest:

- ``guest_list``: ``everyone`` shows every row; ``count_only`` only the hosts' rows and the guest's own,
  the counts staying; ``hosts_only`` the same rows, and no counts (``attendees_count``, ``spots_filled``,
  other people's places in the waitlist).
- ``place_visibility``: ``everyone`` shows the place (venue name, address, location, and an online event's
  ``online_url``); ``accepted`` only once the guest has accepted (waiting in the waitlist is not accepted).

The conversation (messages, polls, time suggestions) is not hidden: people post it for everyone invited.

:func:`seen_by` is the rule; :func:`as_seen` makes from it the one value every channel formats
(``SeenEvent``: the place or none, the online link, the counts or none, the calendar entry's revision), so
a channel never reads the place, the counts or the settings from the event itself.
Pure: the caller has read the event and the person's invitation (None for someone outside the event,
who sees what a guest who has not answered sees).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from chalicelib.domain import event_fields
from chalicelib.domain.roles import Action, is_host, permits, role_of

EVERYONE, _COUNT_ONLY, HOSTS_ONLY = event_fields.GUEST_LIST_SHOWN
PLACE_TO_EVERYONE, PLACE_TO_ACCEPTED = event_fields.PLACE_SHOWN
PLACE_FIELDS = frozenset({"venue_name", "address", "location"})  # the place, as the event's fields
SEEN_FIELDS = frozenset({"online_url"})  # event fields shown only as SeenEvent has them (with the place)


@dataclass(frozen=True)
class Sight:
    """What the person ``viewer_id`` may see of an event."""

    viewer_id: int | None
    whole_list: bool  # every invitee row; else the hosts' rows and the viewer's own
    counts: bool  # attendees_count, spots_filled, and other people's places in the waitlist
    place: bool  # venue_name, address, location and online_url

    def sees_row(self, invitation) -> bool:
        """Whether the person of ``invitation`` (a row of the guest list) is shown to the viewer."""
        return self.whole_list or invitation.user_id == self.viewer_id or is_host(role_of(invitation))

    def rows(self, invitations: Iterable) -> list:
        """The rows of the guest list the viewer sees, in their order."""
        return [invitation for invitation in invitations if self.sees_row(invitation)]

    def waitlist_position(self, invitation, positions: dict[int, int]) -> int | None:
        """The row's place in the waitlist as shown to the viewer (their own always; others' with the counts)."""
        if not self.counts and invitation.user_id != self.viewer_id:
            return None
        return positions.get(invitation.user_id)


def _field(event, name: str):
    """A stored field as every representation shows it (its default when absent)."""
    return event_fields.shown_value(event_fields.BY_NAME[name], getattr(event, name, None))


def seen_by(event, invitation) -> Sight:
    """What the person of ``invitation`` (their own invitation item in ``event``, or None) may see of it."""
    role = role_of(invitation)
    guest_list = _field(event, "guest_list")
    accepted = invitation is not None and invitation.has_accepted is True
    return Sight(
        viewer_id=invitation.user_id if invitation is not None else None,
        whole_list=permits(role, Action.SEE_WHOLE_GUEST_LIST) or guest_list == EVERYONE,
        counts=permits(role, Action.SEE_WHOLE_GUEST_LIST) or guest_list != HOSTS_ONLY,
        place=permits(role, Action.SEE_PLACE) or _field(event, "place_visibility") == PLACE_TO_EVERYONE or accepted,
    )


# --------------------------------------------------------------------------- the event as one person sees it


@dataclass(frozen=True)
class Place:
    """Where the event is, as shown: the venue's name and the address ("" when not given) and the stored
    location (None when not given)."""

    venue_name: str
    address: str
    location: object | None  # latitude, longitude

    def given(self) -> bool:
        return bool(self.venue_name or self.address or self.location is not None)


@dataclass(frozen=True)
class Counts:
    spots_filled: int
    attendees: int | None  # attendees_count, when the caller counted them (it needs the guest list)


@dataclass(frozen=True)
class SeenEvent:
    """One event as one person may see it: what every channel (the API's JSON, the guest page, its calendar
    entry and feeds, texts, pushes, exports) formats, so none decides on its own. ``event`` is read for what
    everyone sees (title, time, zone, settings); the place, the online link, the counts and the calendar
    entry's revision only from here."""

    event: object
    sight: Sight  # the guest-list rows and waitlist places the viewer sees
    place: Place | None  # None: hidden from this viewer
    place_withheld: bool  # a place is given but hidden from this viewer (until they accept)
    online_url: str | None  # the link of an online event, shown as the place is
    counts: Counts | None  # None: hidden from this viewer
    calendar_sequence: int  # SEQUENCE of the viewer's calendar entry


def _held_place(event) -> Place:
    return Place(venue_name=_field(event, "venue_name"), address=_field(event, "address"), location=event.location)


def place_seen(held: Place, sight: Sight) -> Place | None:
    """The place as a viewer with ``sight`` sees it: all of it, or none."""
    return held if sight.place else None


def as_seen(event, invitation, *, attendees: Callable[[], int] | int | None = None) -> SeenEvent:
    """``event`` as the person of ``invitation`` (their own invitation item, or None for someone outside the
    event) may see it, by :func:`seen_by`. ``attendees``: the attendees count, or how to count it (only
    counted when the viewer may see the counts)."""
    sight = seen_by(event, invitation)
    held = _held_place(event)
    place = place_seen(held, sight)
    counts = None
    if sight.counts:
        counted = attendees() if callable(attendees) else attendees
        counts = Counts(spots_filled=int(event.spots_filled or 0), attendees=counted)
    # Where the place shows only after accepting, the entry that shows it is one revision later, so a
    # calendar that had the entry without it takes the place in.
    revealed = place is not None and _field(event, "place_visibility") == PLACE_TO_ACCEPTED
    return SeenEvent(
        event=event,
        sight=sight,
        place=place,
        place_withheld=place is None and held.given(),
        online_url=(getattr(event, "online_url", None) or None) if place is not None else None,
        counts=counts,
        calendar_sequence=int(event.calendar_sequence or 0) + (1 if revealed else 0),
    )
