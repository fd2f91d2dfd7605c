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
Pure: the caller has read the event and the person's invitation (None for someone outside the event,
who sees what a guest who has not answered sees).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from chalicelib.domain import event_fields
from chalicelib.domain.roles import Action, is_host, permits, role_of

EVERYONE, _COUNT_ONLY, HOSTS_ONLY = event_fields.GUEST_LIST_SHOWN
PLACE_TO_EVERYONE, PLACE_TO_ACCEPTED = event_fields.PLACE_SHOWN
# the place, as the event's fields: where it is, or the link to where an online event happens
PLACE_FIELDS = frozenset({"venue_name", "address", "location", "online_url"})


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


def _setting(event, name: str) -> str:
    return event_fields.shown_value(event_fields.BY_NAME[name], getattr(event, name, None))


def seen_by(event, invitation) -> Sight:
    """What the person of ``invitation`` (their own invitation item in ``event``, or None) may see of it."""
    role = role_of(invitation)
    guest_list = _setting(event, "guest_list")
    accepted = invitation is not None and invitation.has_accepted is True
    return Sight(
        viewer_id=invitation.user_id if invitation is not None else None,
        whole_list=permits(role, Action.SEE_WHOLE_GUEST_LIST) or guest_list == EVERYONE,
        counts=permits(role, Action.SEE_WHOLE_GUEST_LIST) or guest_list != HOSTS_ONLY,
        place=permits(role, Action.SEE_PLACE) or _setting(event, "place_visibility") == PLACE_TO_EVERYONE or accepted,
    )


def online_url(event, sight: Sight) -> str | None:
    """The event's online link as ``sight`` shows it: null when it has none or the viewer may not see the place."""
    return (getattr(event, "online_url", None) or None) if sight.place else None
