"""Change texts held for a burst of edits, and what each guest without the app was last texted about an
event (the auth table's ``HELD#`` and ``TOLD#`` items; rules in services/texts/guest_texts.py)."""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.auth import HeldChangeTexts, ToldGuest, held_pk, told_pk
from chalicelib.models.events import Invitation, event_pk, invitation_sk
from chalicelib.store import Refused, refusals


def hold_burst(event_id: int, first_edit_at: int, before: str, expires_at: datetime) -> bool:
    """Start a burst unless one is held already (conditional PutItem); True when this call started it."""
    held = HeldChangeTexts(held_pk(event_id), first_edit_at=first_edit_at, before=before, expires_at=expires_at)
    try:
        with refusals():
            held.save(condition=HeldChangeTexts.pk.does_not_exist())
    except Refused:
        return False
    return True


def held_burst(event_id: int) -> HeldChangeTexts | None:
    try:
        return HeldChangeTexts.get(held_pk(event_id), consistent_read=True)
    except HeldChangeTexts.DoesNotExist:
        return None


def end_burst(event_id: int, first_edit_at: int) -> None:
    """Forget the burst that began at ``first_edit_at`` (a later one is left alone); gone already is fine."""
    try:
        with refusals():
            HeldChangeTexts(held_pk(event_id)).delete(condition=HeldChangeTexts.first_edit_at == first_edit_at)
    except Refused:
        pass


def told(event_id: int, user_ids: list[int]) -> dict[int, ToldGuest]:
    """{user id: what they were last texted} for those of ``user_ids`` who were texted a change."""
    keys = [told_pk(event_id, uid) for uid in user_ids]
    found = {}
    for item in ToldGuest.batch_get(keys, consistent_read=True):
        found[int(item.pk.rsplit("#", 1)[1])] = item
    return found


def record_told(event_id: int, user_id: int, state: str, day: str, count: int, expires_at: datetime) -> None:
    ToldGuest(told_pk(event_id, user_id), told=state, day=day, count=count, expires_at=expires_at).save()


def set_notice_link(event_id: int, user_id: int, link_hash: str) -> None:
    """Make ``link_hash`` the invitation's second link (the one texted last); the invitation's own link stays."""
    invitation = Invitation(event_pk(event_id), invitation_sk(user_id))
    try:
        with refusals():
            invitation.update(actions=[Invitation.notice_link_hash.set(link_hash)], condition=Invitation.pk.exists())
    except Refused:
        pass  # the invitation is gone: the text goes without a working link, like any removed guest's
