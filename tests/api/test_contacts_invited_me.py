"""GET /users/who_has_invited_me: distinct active owners, latest invitation first, never a Scan."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from chalicelib.models.events import Invitation, date_key, event_pk, invitation_sk
from chalicelib.models.users import User, user_pk
from chalicelib.services.identity import users
from tests.utils.api import body, get
from tests.utils.factories import user_with_token

PATH = "/users/who_has_invited_me"
_event_ids = itertools.count(5000)
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _invite(owner: User, guest: User, *, invited_days_ago: float, event_in_days: float = 10, cancelled=False) -> int:
    """The guest's Invitation item of a new event of ``owner``, written straight to the table."""
    event_id = next(_event_ids)
    event_date = NOW + timedelta(days=event_in_days)
    Invitation(
        event_pk(event_id),
        invitation_sk(guest.id),
        id=event_id * 10,
        event_id=event_id,
        user_id=guest.id,
        owner_id=owner.id,
        role="guest",
        cancelled=cancelled,
        user_pk=user_pk(guest.id),
        date_key=date_key(event_date, event_id),
        created=NOW - timedelta(days=invited_days_ago),
    ).save()
    return event_id


def _own_event(owner: User) -> None:
    """The owner's own invitation item (role owner), as the events service writes it."""
    event_id = next(_event_ids)
    Invitation(
        event_pk(event_id),
        invitation_sk(owner.id),
        id=event_id * 10,
        event_id=event_id,
        user_id=owner.id,
        owner_id=owner.id,
        role="owner",
        user_pk=user_pk(owner.id),
        date_key=date_key(NOW, event_id),
        created=NOW,
    ).save()


@pytest.fixture
def me(aws):
    return user_with_token("+14155550900", full_name="Me")


def test_distinct_active_owners_latest_invitation_first(client, me, aws):
    user, token = me
    ann, _ = user_with_token("+14155550101", full_name="Ann")
    bob, _ = user_with_token("+14155550102", full_name="Bob")
    cy, _ = user_with_token("+14155550103", full_name="Cy")
    ghost, _ = user_with_token("+14155550104", active=False)
    dee, _ = user_with_token("+14155550105", full_name="Dee")
    users.update_profile(bob, {"notify_event_change": False})
    _invite(ann, user, invited_days_ago=5, event_in_days=1)
    _invite(bob, user, invited_days_ago=3, event_in_days=30)
    _invite(ann, user, invited_days_ago=1, event_in_days=60)  # Ann's latest invitation is the most recent
    _invite(cy, user, invited_days_ago=2, event_in_days=5)
    _invite(ghost, user, invited_days_ago=0.5)  # an owner who is not active: left out
    _invite(dee, user, invited_days_ago=0.1, cancelled=True)  # only a cancelled invitation: left out
    _invite(ann, bob, invited_days_ago=0)  # someone else's invitation
    _own_event(user)  # my own event: I am not my own inviter

    aws.reset()
    response = get(client, PATH, token)
    assert response.status_code == 200
    owners = body(response)
    assert [o["full_name"] for o in owners] == ["Ann", "Cy", "Bob"]
    assert owners[2]["notify_event_change"] is False and owners[0]["notify_event_change"] is True
    assert set(owners[0]) >= {"id", "is_active", "full_name", "email", "phone_number", "photo", "big_photo"}
    assert "auth_token" not in owners[0]
    calls = aws.of("dynamodb")
    # one Query of by_user, one BatchGetItem for the owners (plus one for authentication); no Scan
    assert calls == {"BatchGetItem": 2, "Query": 1}


def test_nobody_invited_me_is_an_empty_list(client, me):
    _, token = me
    response = get(client, PATH, token)
    assert response.status_code == 200 and body(response) == []


def test_many_owners_are_fetched_in_parallel_batches(client, me, aws):
    user, token = me
    now = datetime.now(UTC)
    owners = [
        User(
            user_pk(30_000 + i),
            "PROFILE",
            id=30_000 + i,
            phone_number=f"+1212555{i:04d}",
            is_active=True,
            full_name=f"Owner {i:03d}",
            created=now,
            modified=now,
        )
        for i in range(150)
    ]
    with User.batch_write() as batch:
        for owner in owners:
            batch.save(owner)
    for age, owner in enumerate(owners):
        _invite(owner, user, invited_days_ago=age)
    aws.reset()
    response = get(client, PATH, token)
    assert [o["id"] for o in body(response)] == [o.id for o in owners]
    assert aws.of("dynamodb")["BatchGetItem"] == 1 + 2  # authentication, then 100 + 50 owners


def test_head_and_auth(client, me):
    _, token = me
    response = client.http.request("HEAD", PATH, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200 and not response.body
    assert get(client, PATH).status_code == 401
