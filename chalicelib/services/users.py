"""Users: finding and creating them by phone number, and editing the profile."""

from __future__ import annotations

from pynamodb.exceptions import TransactWriteError

from chalicelib.ids import new_id
from chalicelib.models.base import transact_write
from chalicelib.models.users import PHONE_SK, PROFILE_SK, PhoneClaim, User, phone_pk, user_pk
from chalicelib.parallel import chunks, parallel_map
from chalicelib.store import users as user_store
from chalicelib.store.conditions import condition_failed
from chalicelib.timeutil import utcnow

_CREATE_ATTEMPTS = 4


def get_user(user_id: int) -> User | None:
    try:
        return User.get(user_pk(user_id), PROFILE_SK)
    except User.DoesNotExist:
        return None


def find_claim(e164: str) -> PhoneClaim | None:
    try:
        return PhoneClaim.get(phone_pk(e164), PHONE_SK, consistent_read=True)
    except PhoneClaim.DoesNotExist:
        return None


def find_user_by_phone(e164: str) -> User | None:
    claim = find_claim(e164)
    return get_user(claim.user_id) if claim else None


def user_for_login(e164: str, claim: PhoneClaim | None) -> tuple[User, bool]:
    """The user about to log in with ``e164``, whose claim was read already; made (active) when the
    number is new. Returns (user, created). Activating an invitee is left to the caller's transaction."""
    if claim is not None:
        user = get_user(claim.user_id)
        if user is not None:
            return user, False
    user = _create_user(e164, active=True)
    if user is not None:
        return user, True
    return find_or_create_user(e164, active=False)[0], False  # claimed a moment ago: theirs


def _create_user(e164: str, *, active: bool) -> User | None:
    """Create the user and its phone claim together; None when the number was claimed meanwhile."""
    now = utcnow()
    for _ in range(_CREATE_ATTEMPTS):
        user_id = new_id()
        user = User(
            user_pk(user_id), PROFILE_SK, id=user_id, phone_number=e164, is_active=active, created=now, modified=now
        )
        claim = PhoneClaim(phone_pk(e164), PHONE_SK, user_id=user.id)
        try:
            with transact_write() as transaction:
                transaction.save(claim, condition=PhoneClaim.pk.does_not_exist())
                transaction.save(user, condition=User.pk.does_not_exist())
        except TransactWriteError as exc:
            if condition_failed(exc, 0):  # the number is claimed
                return None
            if condition_failed(exc, 1):
                continue  # id clash: draw another
            raise
        return user
    raise RuntimeError("could not draw a free user id")


def find_or_create_user(e164: str, *, active: bool) -> tuple[User, bool]:
    """The user owning ``e164``, made if needed; activated when ``active``. Returns (user, activated)."""
    for _ in range(_CREATE_ATTEMPTS):
        user = find_user_by_phone(e164)
        if user is None:
            user = _create_user(e164, active=active)
            if user is None:
                continue  # someone claimed the number a moment ago: read theirs
            return user, active
        if active and not user.is_active:
            user.update(actions=[User.is_active.set(True), User.modified.set(utcnow())])
            return user, True
        return user, False
    raise RuntimeError("phone claim kept changing")


def make_inactive_users(numbers: list[str]) -> list[User]:
    """Users (not active) for ``numbers``, which had none a moment ago, in the order given: 50 a
    transaction, the transactions side by side; a transaction refused (a number claimed meanwhile) is
    made again one number at a time, taking the user who claimed it."""

    def make(chunk: list[str]) -> list[User]:
        made = user_store.create_inactive_users(chunk)
        if made is None:
            made = [find_or_create_user(number, active=False)[0] for number in chunk]
        return made

    batches = parallel_map(make, chunks(numbers, user_store.USERS_PER_TRANSACTION))
    return [user for batch in batches for user in batch]


def update_profile(user: User, changes: dict) -> User:
    """Write only the named profile fields (the caller has validated them)."""
    if not changes:
        return user
    actions = [
        getattr(User, name).remove() if value is None else getattr(User, name).set(value)
        for name, value in changes.items()
    ]
    actions.append(User.modified.set(utcnow()))
    user.update(actions=actions, condition=User.pk.exists())
    return user
