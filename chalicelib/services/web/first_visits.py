"""The first time a guest opens their page, noted for the hosts (``first_opened_at``; docs/notifications.md).

Cheap on the page's read path: nothing when the invitation read with the page already has the time, else one
conditional UpdateItem that only a first visit can win. A host's (a co-host's own page) visit is never noted.
Best effort: a fault leaves the visit unnoted (logged) and the page is shown as usual."""

from __future__ import annotations

import logging
from datetime import datetime

from chalicelib.domain.roles import is_host, role_of
from chalicelib.store import first_visits

log = logging.getLogger("invites")


def note_visit(invitation, now: datetime) -> None:
    """Note ``now`` as the first visit of the page of ``invitation`` (as read with the page) if it is one."""
    if invitation.first_opened_at is not None or is_host(role_of(invitation)):
        return
    try:
        first_visits.note_first_visit(invitation.event_id, invitation.user_id, now)
    except Exception:  # noqa: BLE001 - a visit left unnoted costs the guest nothing
        log.warning("guest page: a first visit was not noted", exc_info=True)
