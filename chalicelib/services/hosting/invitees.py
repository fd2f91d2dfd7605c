"""The people of an invitation list: found or made by number, within the limits on inviting. No chalice
imports."""

from __future__ import annotations

from dataclasses import dataclass, field

from chalicelib import limits
from chalicelib.config import get_settings
from chalicelib.errors import ValidationError
from chalicelib.services.contacts.contacts import contact_lookup_limit
from chalicelib.services.guards.ratelimit import RollingLimit, charge_together
from chalicelib.services.identity.users import make_inactive_users
from chalicelib.store import rate_logs
from chalicelib.store import users as user_store
from chalicelib.store.events import EventView
from chalicelib.store.users import invited_marks
from chalicelib.timeutil import utcnow

INVITE_FIELD = "invite_phone_numbers"


@dataclass
class Invitees:
    users: list
    to_text: list  # people without an active account: they learn of the invitation by SMS
    marks: list = field(default_factory=list)  # numbers new to the owner, saved with the invitations
    charged: list = field(default_factory=list)  # the rolling charges paid for them (store.rate_logs)


def give_back_charges(invitees: Invitees) -> None:
    """Take back what resolving ``invitees`` charged: their invitations were not stored."""
    for receipt in invitees.charged:
        rate_logs.take_back(receipt)


def too_many_invitees_message() -> str:
    return f"An event can have at most {get_settings().invitees_per_event} invitees."


def _events_limit(owner) -> RollingLimit:
    """Events one owner creates in any 24 hours: nobody fills another person's lists, timeline or pushes."""
    return RollingLimit.of(limits.EVENTS_CREATED, owner.id)


def resolve_invitees(
    owner, numbers: list[str], *, skip_user_ids: set[int], view: EventView | None = None, more_charges=()
) -> Invitees:
    """Users for ``numbers`` (made inactive when unknown), once the limits allow them; those without an
    active account are to be texted.

    Checked before anything is written: at most ``INVITEES_PER_EVENT`` invitees (400), and the numbers
    the owner has never invited count against the allowance invitations share with contact lookups
    (429), together with the owner's events of the day when creating (no ``view`` of the event yet) and
    ``more_charges`` (``(RollingLimit, amount)`` pairs, e.g. a series' own daily limit).
    Costs: one BatchGetItem round (claims and the owner's marks), the users' reads, one read and one
    write of the counters, then the new users 50 a transaction."""
    numbers = [number for number in dict.fromkeys(numbers) if number != owner.phone_number]
    most = get_settings().invitees_per_event
    creating = view is None
    guests = 0 if creating else guest_count(view)
    if creating and len(numbers) > most:
        raise ValidationError.field(INVITE_FIELD, too_many_invitees_message())
    known, invited_before = user_store.users_and_invited(owner.id, numbers) if numbers else ({}, set())
    fresh = [number for number in numbers if number not in known or known[number].id not in skip_user_ids]
    if guests + len(fresh) > most:
        raise ValidationError.field(INVITE_FIELD, too_many_invitees_message())
    new_to_owner = [number for number in fresh if number not in invited_before]
    charges = [(contact_lookup_limit(owner), len(new_to_owner))]
    if creating:
        charges.append((_events_limit(owner), 1))
    charges += list(more_charges)
    charged = charge_together(charges)
    new_numbers = [number for number in fresh if number not in known]
    try:
        known.update(zip(new_numbers, make_inactive_users(new_numbers), strict=True))
    except Exception:
        give_back_charges(Invitees([], [], charged=charged))
        raise
    users = [known[number] for number in fresh]
    marks = invited_marks(owner.id, new_to_owner, utcnow())
    return Invitees(users, [user for user in users if not user.is_active], marks, charged)


def guest_count(view: EventView) -> int:
    """Invitees of the event (the owner not counted), by its counter or, for events stored before it,
    by its invitations."""
    return max(view.event.invitee_count or 0, len(view.invitations) - 1)


def check_invitees_fit(view: EventView, adding: int) -> int:
    """400 when ``adding`` more invitees do not fit the event as read in ``view``; else its invitee count."""
    guests = guest_count(view)
    if guests + adding > get_settings().invitees_per_event:
        raise ValidationError.field(INVITE_FIELD, too_many_invitees_message())
    return guests
