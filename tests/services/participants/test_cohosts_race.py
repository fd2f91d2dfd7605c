"""The limit of co-hosts holds when the owner's appointments race each other."""

from __future__ import annotations

import threading

import pytest

from chalicelib.errors import ValidationError
from chalicelib.services.participants import cohosts, event_reads
from chalicelib.services.replies import replies
from chalicelib.store import invitations as invitation_store
from chalicelib.store.invitations import find_invitation
from tests.utils.factories import make_event, make_person, stored_event
from tests.utils.races import race, waiting_after_first_call


def test_eight_parallel_appointments_make_exactly_five_cohosts(aws):
    owner = make_person("Owner")
    guests = [make_person(f"Guest {n}") for n in range(8)]
    event = make_event(owner, *guests)
    outcomes = race(lambda n: cohosts.appoint(owner.user, event.id, guests[n].user.id), 8, refused=ValidationError)
    assert outcomes.count("ok") == 5 and outcomes.count("refused") == 3
    view = event_reads.get_event(owner.user, event.id)
    assert sum(1 for inv in view.invitations if inv.cohost) == 5
    assert stored_event(event.id).cohost_count == 5


@pytest.mark.parametrize("round_", range(3))
def test_a_decline_racing_an_appointment_never_leaves_a_cohost_who_declined(aws, monkeypatch, round_):
    """The guest declines while the owner appoints them, both reading before either writes: whichever lands
    first, the other is refused (400) or reads again, and the invitation is never a declined co-host's."""
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    both_read = threading.Barrier(2, timeout=10)
    monkeypatch.setattr(cohosts, "permitted_view", waiting_after_first_call(cohosts.permitted_view, both_read))
    monkeypatch.setattr(
        invitation_store, "reply_state", waiting_after_first_call(invitation_store.reply_state, both_read)
    )

    def act(n: int) -> None:
        if n == 0:
            cohosts.appoint(owner.user, event.id, guest.user.id)
        else:
            replies.rsvp(guest.user, event.id, accept=False, message=None)

    race(act, 2, refused=ValidationError, workers=2)
    stored = find_invitation(event.id, guest.user.id)
    assert stored.has_accepted is False
    assert not stored.cohost and not stored_event(event.id).cohost_count
