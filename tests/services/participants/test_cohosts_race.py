"""The limit of co-hosts holds when the owner's appointments race each other."""

from __future__ import annotations

from chalicelib.errors import ValidationError
from chalicelib.services.participants import cohosts, event_reads
from tests.utils.factories import make_event, make_person, stored_event
from tests.utils.races import race


def test_eight_parallel_appointments_make_exactly_five_cohosts(aws):
    owner = make_person("Owner")
    guests = [make_person(f"Guest {n}") for n in range(8)]
    event = make_event(owner, *guests)
    outcomes = race(lambda n: cohosts.appoint(owner.user, event.id, guests[n].user.id), 8, refused=ValidationError)
    assert outcomes.count("ok") == 5 and outcomes.count("refused") == 3
    view = event_reads.get_event(owner.user, event.id)
    assert sum(1 for inv in view.invitations if inv.cohost) == 5
    assert stored_event(event.id).cohost_count == 5
