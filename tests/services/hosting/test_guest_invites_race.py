"""A guest's allowance of invitations holds when their invites race each other."""

from __future__ import annotations

from chalicelib.errors import PermissionDenied
from chalicelib.services.hosting import events
from chalicelib.services.participants import event_reads
from tests.utils.factories import make_event, make_person, phone
from tests.utils.races import race


def test_eight_parallel_invites_of_one_guest_with_an_allowance_of_three_add_three(aws):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, guest_invites=3)
    numbers = [phone() for _ in range(8)]

    def invite(n: int) -> None:
        events.update_event(guest.user, event.id, events.EventInput(invite_phone_numbers=[numbers[n]]))

    outcomes = race(invite, 8, refused=PermissionDenied)
    assert outcomes.count("ok") == 3 and outcomes.count("refused") == 5
    view = event_reads.get_event(owner.user, event.id)
    assert len(view.invitations) == 2 + 3
    assert view.invitation_of(guest.user.id).guests_invited == 3
    added = [inv for inv in view.invitations if inv.user_id not in (owner.user.id, guest.user.id)]
    assert {inv.invited_by for inv in added} == {guest.user.id}


def test_numbers_someone_else_invited_meanwhile_are_not_charged_to_the_guest(aws, monkeypatch):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, guest_invites=2)
    real_save = events.save_new_invitations

    def owner_was_faster(invitations, marks=()):
        return real_save(invitations[:1], marks)  # the second person was invited by the owner meanwhile

    monkeypatch.setattr(events, "save_new_invitations", owner_was_faster)
    events.update_event(guest.user, event.id, events.EventInput(invite_phone_numbers=[phone(), phone()]))
    view = event_reads.get_event(owner.user, event.id)
    assert len(view.invitations) == 3
    assert view.invitation_of(guest.user.id).guests_invited == 1


def test_under_a_hidden_list_parallel_invites_of_invited_numbers_spend_the_allowance_exactly(aws):
    owner, guest = make_person("Owner"), make_person("Guest")
    others = [make_person(f"Other {n}") for n in range(6)]
    event = make_event(owner, guest, *others, guest_invites=2, guest_list="hosts_only")

    def invite(n: int) -> None:
        events.update_event(guest.user, event.id, events.EventInput(invite_phone_numbers=[others[n].phone]))

    outcomes = race(invite, 6, refused=PermissionDenied)
    assert outcomes.count("ok") == 2 and outcomes.count("refused") == 4
    view = event_reads.get_event(owner.user, event.id)
    assert len(view.invitations) == 2 + 6
    assert view.invitation_of(guest.user.id).guests_invited == 2
