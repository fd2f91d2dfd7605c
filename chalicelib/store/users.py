"""Users and their phone claims, read and written: ``USER#<id>``/``PROFILE`` and ``PHONE#<e164>``/``PHONE``
(which user holds a number) in the users table, and ``USER#<owner>``/``INVITED#<e164>``, the numbers an
owner has invited. Tokens are in store/tokens.py."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

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
from chalicelib.store import Contended, Refused, refusals
from chalicelib.store.batch import batch_get, batch_get_chunk


def get_user(user_id: int) -> User | None:
    try:
        return User.get(user_pk(user_id), PROFILE_SK)
    except User.DoesNotExist:
        return None


def get_users(user_ids: Iterable[int]) -> dict[int, User]:
    """Users by id: one BatchGetItem per 100 ids, the calls in parallel."""
    keys = sorted(set(user_ids))
    if not keys:
        return {}

    return {user.id: user for user in batch_get(User, [(user_pk(uid), PROFILE_SK) for uid in keys])}


def find_claim(e164: str) -> PhoneClaim | None:
    """Who holds the number, read consistently."""
    try:
        return PhoneClaim.get(phone_pk(e164), PHONE_SK, consistent_read=True)
    except PhoneClaim.DoesNotExist:
        return None


def user_ids_by_phone(numbers: list[str]) -> dict[str, int]:
    """The ids of the users holding ``numbers`` (those held), read consistently: one BatchGetItem per 100."""
    claims = batch_get(PhoneClaim, [(phone_pk(number), PHONE_SK) for number in numbers], consistent_read=True)
    return {phone_of(claim.pk): claim.user_id for claim in claims}


def claims_chunk(numbers: list[str]) -> dict[str, int]:
    """``{number: user id}`` of the held ``numbers`` (at most BATCH_GET_KEYS): one BatchGetItem, not
    consistent, for callers that run it side by side with other calls."""
    claims = batch_get_chunk(PhoneClaim, [(phone_pk(number), PHONE_SK) for number in numbers])
    return {phone_of(claim.pk): claim.user_id for claim in claims}


CLAIM_ITEM, USER_ITEM = 0, 1  # positions in :func:`create_user`'s transaction, as Refused.items names them


def create_user(user_id: int, e164: str, *, active: bool, now: datetime) -> User:
    """The user and its phone claim in one transaction, each on condition it is new. Raises Refused:
    item CLAIM_ITEM when the number is held, USER_ITEM when the id is taken."""
    user = User(
        user_pk(user_id), PROFILE_SK, id=user_id, phone_number=e164, is_active=active, created=now, modified=now
    )
    claim = PhoneClaim(phone_pk(e164), PHONE_SK, user_id=user.id)
    with refusals(), transact_write() as transaction:
        transaction.save(claim, condition=PhoneClaim.pk.does_not_exist())
        transaction.save(user, condition=User.pk.does_not_exist())
    return user


def activate(user: User, now: datetime) -> None:
    user.update(actions=[User.is_active.set(True), User.modified.set(now)])


def update_profile(user: User, changes: dict, now: datetime) -> None:
    """Write the named profile fields (None removes one), on condition the user exists."""
    actions = [
        getattr(User, name).remove() if value is None else getattr(User, name).set(value)
        for name, value in changes.items()
    ]
    actions.append(User.modified.set(now))
    user.update(actions=actions, condition=User.pk.exists())


# --------------------------------------------------------------------------- avatar keys


def _same_avatar_keys(user: User):
    """The profile still holds the avatar keys read into ``user``."""
    condition = User.pk.exists()
    for attribute, value in ((User.big_photo_key, user.big_photo_key), (User.photo_key, user.photo_key)):
        condition &= attribute.does_not_exist() if value is None else attribute == value
    return condition


def reread(user: User) -> None:
    """Refresh ``user`` from the table, read consistently."""
    user.refresh(consistent_read=True)


def set_avatar_keys(user: User, big_key: str, small_key: str, now: datetime) -> None:
    """Point the profile at the new keys, recording the replaced ones as stale, on condition the keys read
    are still there (else Refused). Refreshes ``user`` from the answer."""
    replaced = {key for key in (user.big_photo_key, user.photo_key) if key}
    actions = [User.big_photo_key.set(big_key), User.photo_key.set(small_key), User.modified.set(now)]
    if replaced:
        actions.append(User.stale_photo_keys.add(replaced))
    with refusals():
        user.update(actions=actions, condition=_same_avatar_keys(user))


def clear_avatar_keys(user: User, now: datetime) -> None:
    """Remove the profile's avatar keys, on condition the keys read are still there (else Refused)."""
    actions = [User.big_photo_key.remove(), User.photo_key.remove(), User.modified.set(now)]
    with refusals():
        user.update(actions=actions, condition=_same_avatar_keys(user))


def forget_stale_avatar_keys(user: User, keys: set[str]) -> None:
    user.update(actions=[User.stale_photo_keys.delete(keys)], condition=User.pk.exists())


def user_with_id(user_id: int) -> User:
    """A user record holding only its id (no read), for rules that need only who acts."""
    return User(user_pk(user_id), PROFILE_SK, id=user_id)


USERS_PER_TRANSACTION = 50  # a user and its phone claim each: 100 items, DynamoDB's limit


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


def invited_marks(owner_id: int, numbers: Iterable[str], now: datetime) -> list[InvitedNumber]:
    """Unsaved marks that ``owner_id`` has invited ``numbers`` (written with the invitations)."""
    return [InvitedNumber(user_pk(owner_id), invited_sk(number), created=now) for number in numbers]


def create_inactive_users(numbers: list[str], now: datetime) -> list[User] | None:
    """Users (not active) for at most ``USERS_PER_TRANSACTION`` numbers that had none, each with its phone
    claim, in one transaction; None when it was refused (a number claimed meanwhile, an id clash, a
    parallel transaction): the caller then makes them one by one."""
    made = []
    try:
        with refusals(), transact_write() as transaction:
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
                claim = PhoneClaim(phone_pk(number), PHONE_SK, user_id=user_id)
                transaction.save(claim, condition=PhoneClaim.pk.does_not_exist())
                transaction.save(user, condition=User.pk.does_not_exist())
                made.append(user)
    except (Refused, Contended):
        return None
    return made
