"""What a guest's invitations cost their ``guest_invites`` allowance. No chalice imports.

On an open guest list a guest pays for the numbers new to the event, and the invitee cap answers 400 as
for a host. Under ``count_only`` or ``hosts_only`` nothing a guest does may tell them who else is invited
or how many: every number they send costs the allowance, already invited or not, and the cap is checked
after the allowance and answers as the allowance does (403), so neither the charge nor the answer depends
on the list they cannot see."""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.domain import visibility
from chalicelib.errors import PermissionDenied, ValidationError
from chalicelib.services.hosting.invitees import INVITE_FIELD, guest_count
from chalicelib.store import invitations as invitation_store
from chalicelib.store.events import EventView

CANNOT_INVITE_MORE = "You cannot invite more people to this event."


class GuestCharge:
    """The allowance one guest's edit spends: charged before the invitations are written, given back for
    what was not invited when the list is open, and all of it when the edit fails."""

    def __init__(self, caller, view: EventView):
        self.own = view.invitation_of(caller.id)
        self.allowed = int(view.event.guest_invites or 0)
        self.hidden = not visibility.seen_by(view.event, self.own).whole_list
        self.charged = 0
        self._phone = caller.phone_number
        self._view = view

    def check_room(self) -> None:
        """403 while the event lets guests invite nobody (as for any edit) or the allowance is spent."""
        if not self.allowed:
            raise PermissionDenied()
        if int(self.own.guests_invited or 0) >= self.allowed:
            raise PermissionDenied(CANNOT_INVITE_MORE)

    def before_resolving(self, numbers: list[str] | None) -> None:
        """Hidden list: charge every number sent, then check the cap (403, the charge given back)."""
        if not self.hidden:
            return
        sent = [number for number in dict.fromkeys(numbers or []) if number != self._phone]
        self._charge(len(sent))
        if guest_count(self._view) + len(sent) > get_settings().invitees_per_event:
            self.give_back()
            raise PermissionDenied(CANNOT_INVITE_MORE)

    def after_resolving(self, adding: int) -> None:
        """Open list: charge the numbers new to the event."""
        if not self.hidden:
            self._charge(adding)

    def settle(self, invited: int) -> None:
        """Open list: give back the numbers someone else invited meanwhile (they were not this guest's)."""
        if not self.hidden and invited < self.charged:
            invitation_store.give_back_guest_invites(self.own, self.charged - invited)
            self.charged = invited

    def give_back(self) -> None:
        """The edit failed: everything charged comes back."""
        if self.charged:
            invitation_store.give_back_guest_invites(self.own, self.charged)
            self.charged = 0

    def refusal(self, error: ValidationError) -> Exception:
        """The error to answer for ``error``: on a hidden list the cap's 400 answers as the allowance."""
        if self.hidden and INVITE_FIELD in error.errors:
            return PermissionDenied(CANNOT_INVITE_MORE)
        return error

    def _charge(self, count: int) -> None:
        if count and not invitation_store.charge_guest_invites(self.own, count, self.allowed):
            raise PermissionDenied(CANNOT_INVITE_MORE)
        self.charged += count
