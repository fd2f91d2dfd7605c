"""Joining by link: POST /events/{id}/join_link, POST /events/join and the hosts' join requests."""

from __future__ import annotations

from chalicelib.errors import Throttled
from chalicelib.models.events import Invitation, JoinRequest
from chalicelib.services.hosting import events, join_links
from tests.utils.api import body, get, post_json
from tests.utils.factories import future, make_event, make_person, stored_event
from tests.utils.notifications import add_device, pushes
from tests.utils.races import race


def _event(owner, *guests, join_mode="open", **extra):
    event = make_event(owner, *guests, title="Picnic", when=future(days=5), **extra)
    if join_mode != "invite_only":
        events.update_event(owner.user, event.id, events.EventInput(join_mode=join_mode))
    return event


def _link(client, host, event) -> str:
    response = post_json(client, f"/events/{event.id}/join_link", {}, host.token)
    assert response.status_code == 200, response.body
    return body(response)["url"].rsplit("/j/", 1)[1]


def _join(client, person, code, headers=None):
    return post_json(client, "/events/join", {"code": code}, person.token, headers=headers)


def _invited(event_id: int) -> set[int]:
    return {inv.user_id for inv in Invitation.query(f"EVENT#{event_id}", Invitation.sk.startswith("INV#"))}


def _requests(event_id: int) -> list[int]:
    return [item.user_id for item in JoinRequest.query(f"EVENT#{event_id}", JoinRequest.sk.startswith("~JOINREQ#"))]


def test_the_join_link_is_a_url_with_the_join_mode_and_only_its_hash_is_stored(client):
    alice = make_person("Alice")
    event = _event(alice, join_mode="approval")
    response = post_json(client, f"/events/{event.id}/join_link", {}, alice.token)
    assert response.status_code == 200
    answer = body(response)
    assert set(answer) == {"url", "join_mode"} and answer["join_mode"] == "approval"
    code = answer["url"].rsplit("/j/", 1)[1]
    assert answer["url"].startswith("http") and len(code) == 32
    stored = stored_event(event.id)
    assert stored.join_code_hash and code not in str(stored.attribute_values)


def test_an_open_event_takes_whoever_holds_the_link_and_counts_them(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = _event(alice)
    code = _link(client, alice, event)
    response = _join(client, bob, code)
    assert response.status_code == 200
    shown = body(response)
    assert shown["id"] == event.id and bob.user.id in {row["user_id"] for row in shown["invitees"]}
    assert bob.user.id in _invited(event.id) and stored_event(event.id).invitee_count == 1
    # joining again: 200, nothing changes
    assert _join(client, bob, code).status_code == 200 and stored_event(event.id).invitee_count == 1
    # and the event is Bob's now
    assert get(client, f"/events/{event.id}", bob.token).status_code == 200


def test_an_invitee_joining_by_link_gets_the_event_unchanged(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = _event(alice, bob, join_mode="approval")
    code = _link(client, alice, event)
    assert _join(client, bob, code).status_code == 200
    assert _requests(event.id) == [] and stored_event(event.id).invitee_count == 1


def test_a_replaced_link_answers_404_at_once(client):
    alice, bob, cara = make_person("Alice"), make_person("Bob"), make_person("Cara")
    event = _event(alice)
    old = _link(client, alice, event)
    new = _link(client, alice, event)
    assert old != new
    assert _join(client, bob, old).status_code == 404 and bob.user.id not in _invited(event.id)
    assert _join(client, cara, new).status_code == 200


def test_invite_only_unknown_or_malformed_codes_answer_404(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = _event(alice, join_mode="invite_only")
    code = _link(client, alice, event)
    assert _join(client, bob, code).status_code == 404
    assert _join(client, bob, "A" * 32).status_code == 404
    assert _join(client, bob, "not a code").status_code == 404
    assert _invited(event.id) == {alice.user.id}
    response = post_json(client, "/events/join", {}, bob.token)
    assert response.status_code == 400 and body(response) == {"code": ["This field is required."]}
    assert post_json(client, "/events/join", {"code": code}).status_code == 401


def test_a_code_of_the_wrong_type_or_too_long_is_400_by_field_and_joins_nobody(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = _event(alice, join_mode="open")
    code = _link(client, alice, event)
    for sent in (123, [code], {"code": code}, None):
        response = post_json(client, "/events/join", {"code": sent}, bob.token)
        assert response.status_code == 400 and list(body(response)) == ["code"], sent
    too_long = post_json(client, "/events/join", {"code": code + "A" * 5000}, bob.token)
    assert too_long.status_code == 400 and list(body(too_long)) == ["code"]
    assert _invited(event.id) == {alice.user.id}


def test_a_cancelled_event_answers_409_and_takes_nobody(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = _event(alice)
    code = _link(client, alice, event)
    events.cancel_event(alice.user, event.id)
    response = _join(client, bob, code)
    assert response.status_code == 409 and body(response) == {"detail": "This event is over."}
    assert bob.user.id not in _invited(event.id)


def test_only_hosts_make_links_and_decide_requests(client):
    alice, bob, stranger = make_person("Alice"), make_person("Bob"), make_person("Sam")
    event = _event(alice, bob, join_mode="approval")
    for person, status in ((bob, 403), (stranger, 404)):
        assert post_json(client, f"/events/{event.id}/join_link", {}, person.token).status_code == status
        assert get(client, f"/events/{event.id}/join_requests", person.token).status_code == status
        path = f"/events/{event.id}/join_requests/{alice.user.id}/approve"
        assert post_json(client, path, None, person.token).status_code == status


def test_asking_to_join_waits_for_the_host_who_sees_requests_oldest_first(client):
    alice, bob, cara = make_person("Alice"), make_person("Bob Brown"), make_person("Cara")
    event = _event(alice, join_mode="approval")
    code = _link(client, alice, event)
    first = _join(client, bob, code)
    assert first.status_code == 202 and body(first) == {"status": "pending"}
    assert _join(client, bob, code).status_code == 202  # asking twice: still one request
    assert _join(client, cara, code).status_code == 202
    assert bob.user.id not in _invited(event.id)
    assert get(client, f"/events/{event.id}", bob.token).status_code == 404
    listed = body(get(client, f"/events/{event.id}/join_requests", alice.token))
    assert [row["user_id"] for row in listed] == [bob.user.id, cara.user.id]
    assert listed[0]["full_name"] == "Bob Brown" and set(listed[0]) == {"user_id", "full_name", "requested_at"}


def test_approving_makes_an_invitee_and_pushes_them_declining_is_silent(client):
    alice, bob, cara = make_person("Alice"), make_person("Bob"), make_person("Cara")
    arns = {bob: add_device(bob, "b" * 64), cara: add_device(cara, "c" * 64)}
    event = _event(alice, join_mode="approval")
    code = _link(client, alice, event)
    _join(client, bob, code), _join(client, cara, code)
    approved = post_json(client, f"/events/{event.id}/join_requests/{bob.user.id}/approve", None, alice.token)
    declined = post_json(client, f"/events/{event.id}/join_requests/{cara.user.id}/decline", None, alice.token)
    assert approved.status_code == 204 and declined.status_code == 204
    assert _invited(event.id) == {alice.user.id, bob.user.id} and _requests(event.id) == []
    assert stored_event(event.id).invitee_count == 1 and stored_event(event.id).join_request_count == 0
    assert [push["type"] for push in pushes(arns[bob])] == ["new_invite"]
    assert pushes(arns[cara]) == []
    assert get(client, f"/events/{event.id}", bob.token).status_code == 200
    # a decided request is gone: deciding it again is 404
    again = post_json(client, f"/events/{event.id}/join_requests/{bob.user.id}/approve", None, alice.token)
    assert again.status_code == 404


def test_pending_requests_stop_at_the_limit_under_threads(client, override_settings):
    override_settings(join_requests_per_event=3)
    alice = make_person("Alice")
    event = _event(alice, join_mode="approval")
    code = _link(client, alice, event)
    askers = [make_person(f"Asker {n}") for n in range(8)]

    def ask(n):
        join_links.join(askers[n].user, code)

    results = race(ask, 8, refused=Throttled)
    assert results.count("ok") == 3 and results.count("refused") == 5
    assert len(_requests(event.id)) == 3 and stored_event(event.id).join_request_count == 3
    response = _join(client, make_person("Late"), code)
    assert response.status_code == 429 and "Retry-After" in response.headers


def test_a_number_asks_to_join_at_most_n_events_a_day_under_threads(client, override_settings):
    override_settings(join_requests_per_number_per_day=3)
    alice, bob = make_person("Alice"), make_person("Bob")
    codes = []
    for _ in range(6):
        event = _event(alice, join_mode="approval")
        codes.append((event.id, _link(client, alice, event)))

    def ask(n):
        join_links.join(bob.user, codes[n][1])

    results = race(ask, 6, refused=Throttled)
    assert results.count("ok") == 3 and results.count("refused") == 3
    assert sum(bob.user.id in _requests(event_id) for event_id, _ in codes) == 3


def test_open_joins_stop_at_the_invitee_limit_under_threads(client, override_settings):
    override_settings(invitees_per_event=3)
    alice = make_person("Alice")
    event = _event(alice)
    code = _link(client, alice, event)
    joiners = [make_person(f"Joiner {n}") for n in range(8)]
    from chalicelib.errors import Conflict

    def go(n):
        join_links.join(joiners[n].user, code)

    results = race(go, 8, refused=Conflict)
    assert results.count("ok") == 3 and results.count("refused") == 5
    assert len(_invited(event.id)) == 4 and stored_event(event.id).invitee_count == 3


def test_join_takes_an_idempotency_key(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = _event(alice, join_mode="approval")
    code = _link(client, alice, event)
    headers = {"Idempotency-Key": "join-1"}
    first = _join(client, bob, code, headers)
    again = _join(client, bob, code, headers)
    assert first.status_code == again.status_code == 202 and body(again) == {"status": "pending"}
    other = post_json(client, "/events/join", {"code": "B" * 32}, bob.token, headers=headers)
    assert other.status_code == 422


def test_a_deleted_event_takes_its_join_link_lookup_with_it(client):
    from chalicelib.models.events import JoinCode
    from chalicelib.store import account_deletion

    alice, bob = make_person("Alice"), make_person("Bob")
    event = _event(alice)
    code = _link(client, alice, event)
    code_hash = stored_event(event.id).join_code_hash
    account_deletion.delete_event(event.id, alice.id)
    assert list(JoinCode.query(f"JOINCODE#{code_hash}")) == []
    assert _join(client, bob, code).status_code == 404


def test_joining_finds_the_event_by_one_getitem_and_never_scans(client, aws):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = _event(alice)
    code = _link(client, alice, event)
    aws.reset()
    assert join_links.join(bob.user, code).joined
    calls = aws.of("dynamodb")
    assert calls["GetItem"] == 1 and calls["Query"] == 1 and calls["TransactWriteItems"] == 1
    assert calls["Scan"] == 0


def test_a_throttled_database_answers_503_and_nobody_joins(client, fail_aws):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = _event(alice)
    code = _link(client, alice, event)
    fail_aws("dynamodb", "TransactWriteItems")
    response = _join(client, bob, code)
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert bob.user.id not in _invited(event.id)


def test_a_deleted_askers_request_leaves_the_list_and_frees_its_place(client):
    from chalicelib.models.users import User

    alice, bob, cara = make_person("Alice"), make_person("Bob"), make_person("Cara")
    event = _event(alice, join_mode="approval")
    code = _link(client, alice, event)
    _join(client, bob, code), _join(client, cara, code)
    User.get(f"USER#{bob.user.id}", "PROFILE").delete()
    listed = body(get(client, f"/events/{event.id}/join_requests", alice.token))
    assert [row["user_id"] for row in listed] == [cara.user.id]
    assert _requests(event.id) == [cara.user.id] and stored_event(event.id).join_request_count == 1


def test_the_hosts_are_pushed_once_when_someone_asks_to_join(client):
    alice, cohost, bob = make_person("Alice"), make_person("Cohen"), make_person("Bob Brown")
    event = _event(alice, cohost, join_mode="approval")
    Invitation.get(f"EVENT#{event.id}", f"INV#{cohost.user.id}").update(actions=[Invitation.cohost.set(True)])
    arns = {alice: add_device(alice, "a" * 64), cohost: add_device(cohost, "d" * 64)}
    code = _link(client, alice, event)
    _join(client, bob, code), _join(client, bob, code)
    for arn in arns.values():
        [push] = [p for p in pushes(arn) if p["type"] == "join_requested"]
        assert push["aps"]["alert"]["body"] == "Bob Brown asked to join."
