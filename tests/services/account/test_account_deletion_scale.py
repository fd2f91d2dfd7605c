"""The cascade of a heavy account, scaled down: what it costs grows with what the person has, item by item.

The full heavy account of the brief (1,000 invitations, 100 owned events of 500 invitees, 500 favorites)
is this data set times 10 (events, invitations) and 10 (favorites); docs/data-rights.md has the measured
time on moto and the extrapolation.
"""

from __future__ import annotations

import time

import pytest

from chalicelib.ids import new_id
from chalicelib.jobs import queue_handler
from chalicelib.models.events import (
    GUEST,
    META_SK,
    OWNER,
    Event,
    Invitation,
    Message,
    date_key,
    event_pk,
    invitation_sk,
)
from chalicelib.models.users import PROFILE_SK, Favorite, User, favorite_sk, user_pk
from chalicelib.services.account.account_deletion import ACCOUNT_DELETION
from chalicelib.store import account_deletion as store
from chalicelib.timeutil import utcnow
from tests.utils.avatars import AVATAR_BUCKET
from tests.utils.aws_env import aws_client
from tests.utils.factories import future

OWNED_EVENTS, INVITEES, INVITATIONS, FAVORITES = 10, 50, 100, 50


def _user(user_id: int, name: str) -> User:
    now = utcnow()
    return User(
        user_pk(user_id),
        PROFILE_SK,
        id=user_id,
        phone_number=f"+1202555{user_id % 10000:04d}",
        is_active=True,
        full_name=name,
        created=now,
        modified=now,
    )


def _event(event_id: int, owner_id: int, accepted: int) -> Event:
    now, when = utcnow(), future()
    return Event(
        event_pk(event_id),
        META_SK,
        id=event_id,
        owner_id=owner_id,
        title="Party",
        event_date=when,
        accepted_count=accepted,
        spots_filled=accepted,
        message_count=0,
        poll_count=0,
        date_key=date_key(when, event_id),
        created=now,
        modified=now,
    )


def _invitation(event: Event, user_id: int, role: str, accepted: bool | None) -> Invitation:
    return Invitation(
        event_pk(event.id),
        invitation_sk(user_id),
        id=new_id(),
        event_id=event.id,
        user_id=user_id,
        owner_id=event.owner_id,
        role=role,
        has_accepted=accepted,
        user_pk=user_pk(user_id),
        date_key=event.date_key,
        created=utcnow(),
    )


def _heavy_account() -> tuple[int, list[int]]:
    """The person, OWNED_EVENTS events of theirs with INVITEES guests each, INVITATIONS accepted invitations
    with a message each to other people's events, FAVORITES favorites with a photo."""
    me = new_id()
    users, events, others, favorites = [_user(me, "Heavy")], [], [], []
    for _ in range(OWNED_EVENTS):
        event = _event(new_id(), me, 0)
        events.append(event)
        guests = [_user(new_id(), "Guest") for _ in range(INVITEES)]
        users += guests
        others += [_invitation(event, me, OWNER, True)] + [_invitation(event, g.id, GUEST, None) for g in guests]
    host = _user(new_id(), "Host")
    users.append(host)
    received = []
    for _ in range(INVITATIONS):
        event = _event(new_id(), host.id, 1)
        received.append(event.id)
        events.append(event)
        others += [_invitation(event, host.id, OWNER, True), _invitation(event, me, GUEST, True)]
        others.append(
            Message(event_pk(event.id), f"MSG#{new_id()}", id=new_id(), user_id=me, body="hi", created=utcnow())
        )
        event.message_count = 1
    s3 = aws_client("s3")
    for n in range(FAVORITES):
        key = f"favorites/{me}/{n}.jpg"
        s3.put_object(Bucket=AVATAR_BUCKET, Key=key, Body=b"jpeg")
        favorites.append(
            Favorite(
                user_pk(me),
                favorite_sk(f"+1415555{n:04d}"),
                id=new_id(),
                fav_phone=f"+1415555{n:04d}",
                photo_key=key,
                created=utcnow(),
            )
        )
    for table, items in ((User, users), (Favorite, favorites), (Event, events + others)):
        with table.batch_write() as batch:
            for item in items:
                batch.save(item)
    return me, received


@pytest.mark.scale
def test_a_heavy_account_costs_a_bounded_number_of_calls_per_item(aws, capsys):
    me, received = _heavy_account()
    store.close_account(User.get(user_pk(me), PROFILE_SK))
    aws.reset()
    started = time.perf_counter()
    queue_handler.process({"type": ACCOUNT_DELETION, "id": 1, "user_id": me, "fan_out": True})
    seconds = time.perf_counter() - started
    calls = aws.of("dynamodb")
    with capsys.disabled():
        print(f"\ncascade: {seconds:.1f} s on moto, {sum(calls.values())} DynamoDB calls {dict(calls)}")
    assert store.pending_jobs() == [] and store.user_items(me) == []
    assert calls["Scan"] == 0
    guests = OWNED_EVENTS * INVITEES
    # the cancel notices look up each guest's devices (one Query each), as a cancel does; the rest is batched
    assert calls["Query"] <= guests + 2 * INVITATIONS + 4 * OWNED_EVENTS + 10
    assert calls["BatchWriteItem"] <= OWNED_EVENTS * (INVITEES // 25 + 1) + FAVORITES // 25 + 2
    assert calls["TransactWriteItems"] <= 2 * INVITATIONS + OWNED_EVENTS + 2
    assert aws_client("s3").list_objects_v2(Bucket=AVATAR_BUCKET, Prefix=f"favorites/{me}/").get("KeyCount") == 0
