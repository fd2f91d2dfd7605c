"""Maybe: POST /events/{id}/maybe, the ``answer`` every invitation shows and the hosts' ``maybe_count``."""

from __future__ import annotations

from chalicelib.errors import Conflict
from chalicelib.services.replies import replies
from chalicelib.store import invitations as invitation_store
from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, stored_event
from tests.utils.races import race, read_together


def answer(client, person, event_id, word, payload=None):
    return post_json(client, f"/events/{event_id}/{word}", payload or {}, token=person.token)


def detail(client, person, event_id):
    return body(get(client, f"/events/{event_id}", token=person.token))


def answers_by_name(shown: dict) -> dict:
    return {row["full_name"]: row["answer"] for row in shown["invitees"]}


def test_maybe_is_stored_holds_no_spot_and_old_clients_see_no_reply(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=2)
    response = answer(client, bob, event.id, "maybe", {"rsvp_message": "Depends on work"})
    assert response.status_code == 200
    invitation = body(response)
    assert invitation["answer"] == "maybe" and invitation["has_accepted_invite"] is None
    assert invitation["rsvp_message"] == "Depends on work" and invitation["extra_guests"] == 0
    stored = invitation_store.find_invitation(event.id, bob.id)
    assert stored.maybe is True and stored.has_accepted is None
    assert stored_event(event.id).spots_filled == 0
    assert detail(client, alice, event.id)["maybe_count"] == 1


def test_a_going_guest_who_says_maybe_frees_the_spots_and_then_may_accept_again(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=3, max_extra_guests=2)
    answer(client, bob, event.id, "accept", {"extra_guests": 2})
    assert stored_event(event.id).spots_filled == 3
    assert body(answer(client, bob, event.id, "maybe"))["answer"] == "maybe"
    assert stored_event(event.id).spots_filled == 0 and stored_event(event.id).accepted_count == 0
    again = body(answer(client, bob, event.id, "accept"))
    assert again["answer"] == "going" and again["has_accepted_invite"] is True
    assert invitation_store.find_invitation(event.id, bob.id).maybe is None
    assert detail(client, alice, event.id)["maybe_count"] == 0


def test_a_going_guest_saying_maybe_seats_the_head_of_the_waitlist(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=1, waitlist=True)
    answer(client, bob, event.id, "accept")
    assert body(answer(client, carol, event.id, "accept"))["answer"] == "waiting"
    answer(client, bob, event.id, "maybe")
    shown = detail(client, alice, event.id)
    assert answers_by_name(shown) == {"Alice": "going", "Bob": "maybe", "Carol": "going"}
    assert stored_event(event.id).spots_filled == 1 and stored_event(event.id).waiting_count == 0


def test_a_waiting_guest_saying_maybe_leaves_the_line(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=1, waitlist=True)
    answer(client, bob, event.id, "accept")
    answer(client, carol, event.id, "accept")
    assert body(answer(client, carol, event.id, "maybe"))["waitlist_position"] is None
    assert stored_event(event.id).waiting_count == 0 and stored_event(event.id).spots_filled == 1
    assert answers_by_name(detail(client, alice, event.id))["Carol"] == "maybe"


def test_every_answer_shows_and_maybe_count_is_for_hosts_only(client):
    alice, bob, carol, dan, erin = (make_person(name) for name in ("Alice", "Bob", "Carol", "Dan", "Erin"))
    event = make_event(alice, bob, carol, dan, erin, total_spots=2, waitlist=True)
    answer(client, bob, event.id, "accept")
    answer(client, carol, event.id, "reject")
    answer(client, dan, event.id, "maybe")
    answer(client, make_person("Zed"), event.id, "maybe")  # a stranger: nothing of the event reached
    answer(client, alice, event.id, "accept")  # the owner's own is not a reply
    answer(client, erin, event.id, "accept")
    hosts_view = detail(client, alice, event.id)
    assert answers_by_name(hosts_view) == {
        "Alice": "going",
        "Bob": "going",
        "Carol": "declined",
        "Dan": "maybe",
        "Erin": "going",
    }
    assert hosts_view["maybe_count"] == 1
    assert detail(client, bob, event.id)["maybe_count"] is None
    frank = make_person("Frank")
    full = make_event(alice, bob, frank, total_spots=1, waitlist=True)
    answer(client, bob, full.id, "accept")
    answer(client, frank, full.id, "accept")
    assert answers_by_name(detail(client, alice, full.id)) == {"Alice": "going", "Bob": "going", "Frank": "waiting"}
    unanswered = make_event(alice, carol)
    assert answers_by_name(detail(client, alice, unanswered.id))["Carol"] == "no_reply"


def test_the_owner_and_strangers_cannot_say_maybe(client):
    alice, bob, zed = make_person("Alice"), make_person("Bob"), make_person("Zed")
    event = make_event(alice, bob)
    assert answer(client, alice, event.id, "maybe").status_code == 403
    assert answer(client, zed, event.id, "maybe").status_code == 404
    assert answer(client, bob, event.id, "maybe", {"rsvp_message": "x" * 61}).status_code == 400
    assert invitation_store.find_invitation(event.id, bob.id).maybe is None


def test_maybes_racing_accepts_on_a_nearly_full_event_keep_the_counters_exact(client, monkeypatch):
    alice = make_person("Alice")
    goers = [make_person(f"Goer {n}") for n in range(4)]
    waverers = [make_person(f"Waverer {n}") for n in range(4)]
    event = make_event(alice, *goers, *waverers, total_spots=3)
    for waverer in waverers[:2]:
        replies.rsvp(waverer.user, event.id, accept=True, message="")  # two of the three spots taken

    def act(n: int) -> None:
        if n % 2 == 0:
            replies.say_maybe(waverers[n // 2].user, event.id, message="")
        else:
            replies.rsvp(goers[n // 2].user, event.id, accept=True, message="")

    read_together(monkeypatch, invitation_store, "reply_state", 8)  # every racer reads before any writes
    outcomes = race(act, 8, refused=Conflict)
    assert outcomes[0::2] == ["ok"] * 4  # a maybe never fails for lack of room
    stored = stored_event(event.id)
    invitations = invitation_store.invitations_of(event.id)
    going = [inv for inv in invitations if inv.has_accepted is True and inv.user_id != alice.id]
    maybes = [inv for inv in invitations if inv.maybe]
    assert stored.spots_filled == len(going) == stored.accepted_count == outcomes[1::2].count("ok")
    assert len(going) <= 3 and len(maybes) == 4
