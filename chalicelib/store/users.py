"""The users table: users read by id, found and made by phone number in batches, the numbers an owner
has invited."""

from __future__ import annotations

from collections.abc import Iterable

from pynamodb.exceptions import TransactWriteError

from chalicelib.ids import new_id
from chalicelib.models.base import transact_write
from chalicelib.models.users import (
    PHONE_SK,
    PROFILE_SK,
    InvitedNumber,
    PhoneClaim,
    User,
    UsersTable,
    invited_sk,
    phone_of,
    phone_pk,
    user_pk,
)
from chalicelib.store.batch import batch_get
from chalicelib.store.conditions import condition_failed, conflicted
from chalicelib.timeutil import utcnow

USERS_PER_TRANSACTION = 50  # a user and its phone claim each: 100 items, DynamoDB's limit


def get_users(user_ids: Iterable[int]) -> dict[int, User]:
    """Users by id: one BatchGetItem per 100 ids, the calls in parallel."""
    keys = sorted(set(user_ids))
    if not keys:
        return {}

    return {user.id: user for user in batch_get(User, [(user_pk(uid), PROFILE_SK) for uid in keys])}


def users_and_invited(owner_id: int, numbers: Iterable[str]) -> tuple[dict[str, User], set[str]]:
    """The users of ``numbers`` (registered or invited before), and which of ``numbers`` ``owner_id``
    has invited before: the claims and the owner's marks in one BatchGetItem round, then the users."""
    numbers = list(dict.fromkeys(numbers))
    keys = [(phone_pk(number), PHONE_SK) for number in numbers]
    keys += [(user_pk(owner_id), invited_sk(number)) for number in numbers]
    claims: dict[str, int] = {}
    invited: set[str] = set()
    for item in batch_get(UsersTable, keys, consistent_read=True):
        if isinstance(item, PhoneClaim):
            claims[phone_of(item.pk)] = item.user_id
        elif isinstance(item, InvitedNumber):
            invited.add(item.sk.removeprefix(invited_sk("")))
    users = get_users(claims.values())
    return {number: users[uid] for number, uid in claims.items() if uid in users}, invited


def invited_marks(owner_id: int, numbers: Iterable[str]) -> list[InvitedNumber]:
    """Unsaved marks that ``owner_id`` has invited ``numbers`` (written with the invitations)."""
    now = utcnow()
    return [InvitedNumber(user_pk(owner_id), invited_sk(number), created=now) for number in numbers]


def create_inactive_users(numbers: list[str]) -> list[User] | None:
    """Users (not active) for at most ``USERS_PER_TRANSACTION`` numbers that had none, each with its phone
    claim, in one transaction; None when it was refused (a number claimed meanwhile, an id clash, a
    parallel transaction): the caller then makes them one by one."""
    now = utcnow()
    made = []
    try:
        with transact_write() as transaction:
            for number in numbers:
                user_id = new_id()
                user = User(
                    user_pk(user_id),
                    PROFILE_SK,
                    id=user_id,
                    phone_number=number,
                    is_active=False,
                    created=now,
                    modified=now,
                )
                transaction.save(
                    PhoneClaim(phone_pk(number), PHONE_SK, user_id=user_id), condition=PhoneClaim.pk.does_not_exist()
                )
                transaction.save(user, condition=User.pk.does_not_exist())
                made.append(user)
    except TransactWriteError as exc:
        if condition_failed(exc) or conflicted(exc):
            return None
        raise
    return made
