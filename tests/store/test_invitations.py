"""store.invitations: the caller's own invitation read with their token, used once."""

from __future__ import annotations

from chalicelib.models.events import OWNER
from chalicelib.services.identity.tokens import authenticate
from chalicelib.store import invitations
from tests.utils.factories import make_event, make_person


def test_the_invitation_read_with_the_token_is_used_once_then_read_again(aws):
    alice, gus = make_person("Alice"), make_person("Gus")
    event = make_event(alice, gus)
    aws.reset()
    user, _ = authenticate(gus.token, event_id=event.id)
    assert user.id == gus.id and aws.of("dynamodb") == {"BatchGetItem": 1}

    # the role check's first read takes it without a call
    assert invitations.own_invitation(event.id, gus.id).user_id == gus.id
    assert aws.of("dynamodb") == {"BatchGetItem": 1}
    # anything asked after that (it may follow a write) is read again
    assert invitations.own_invitation(event.id, gus.id).user_id == gus.id
    assert aws.of("dynamodb") == {"BatchGetItem": 1, "GetItem": 1}


def test_someone_else_or_another_event_is_read_not_taken(aws):
    alice, gus = make_person("Alice"), make_person("Gus")
    event, other = make_event(alice, gus), make_event(alice)
    authenticate(gus.token, event_id=event.id)
    aws.reset()
    assert invitations.own_invitation(other.id, gus.id) is None
    assert invitations.own_invitation(event.id, alice.id).role == OWNER
    assert aws.of("dynamodb") == {"GetItem": 2}


def test_a_stranger_reads_ahead_nothing_and_a_later_request_starts_empty(aws):
    alice, stranger = make_person("Alice"), make_person("Stranger")
    event = make_event(alice)
    authenticate(stranger.token, event_id=event.id)
    aws.reset()
    assert invitations.own_invitation(event.id, stranger.id) is None
    assert aws.of("dynamodb") == {}
    # a request that names no event leaves nothing from the one before it
    authenticate(stranger.token, event_id=event.id)
    authenticate(stranger.token)
    aws.reset()
    assert invitations.own_invitation(event.id, stranger.id) is None
    assert aws.of("dynamodb") == {"GetItem": 1}
