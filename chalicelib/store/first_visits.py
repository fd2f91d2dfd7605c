"""The first visit of a guest's page, kept on their invitation (``first_opened_at``) for the hosts to see."""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.events import Invitation, event_pk, invitation_sk
from chalicelib.store import Refused, refusals


def note_first_visit(event_id: int, user_id: int, at: datetime) -> bool:
    """``first_opened_at`` = ``at`` unless it is set: one conditional UpdateItem. False when it was set already (a
    visit meanwhile) or the invitation is gone."""
    invitation = Invitation(event_pk(event_id), invitation_sk(user_id))
    condition = Invitation.pk.exists() & Invitation.first_opened_at.does_not_exist()
    try:
        with refusals():
            invitation.update(actions=[Invitation.first_opened_at.set(at)], condition=condition)
    except Refused:
        return False
    return True
