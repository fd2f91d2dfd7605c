"""Users: finding and creating them by phone number, and editing the profile."""

from __future__ import annotations

from chalicelib import store
from chalicelib.ids import new_id
from chalicelib.parallel import chunks, parallel_map
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.store import users as user_store
from chalicelib.store.users import find_claim, get_user
from chalicelib.timeutil import utcnow

CREATE_ATTEMPTS = 4

__all__ = ["find_claim", "find_or_create_user", "find_user_by_phone", "get_user", "update_profile", "user_for_login"]


def find_user_by_phone(e164: str):
    claim = find_claim(e164)
    return get_user(claim.user_id) if claim else None


def user_for_login(e164: str, claim) -> tuple:
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


def _create_user(e164: str, *, active: bool):
    """Create the user and its phone claim together; None when the number was claimed meanwhile."""
    now = utcnow()

    def create(_attempt: int):
        try:
            return user_store.create_user(new_id(), e164, active=active, now=now)
        except store.Refused as refused:
            if refused.item_failed(user_store.CLAIM_ITEM):  # the number is claimed
                return None
            if refused.item_failed(user_store.USER_ITEM):
                raise TryAgain() from None  # id clash: draw another
            raise

    try:
        return retry(create, attempts=CREATE_ATTEMPTS)
    except AttemptsSpent:
        raise RuntimeError("could not draw a free user id") from None


def find_or_create_user(e164: str, *, active: bool):
    """The user owning ``e164``, made if needed; activated when ``active``. Returns (user, activated)."""

    def find_or_create(_attempt: int):
        user = find_user_by_phone(e164)
        if user is None:
            user = _create_user(e164, active=active)
            if user is None:
                raise TryAgain()  # someone claimed the number a moment ago: read theirs
            return user, active
        if active and not user.is_active:
            user_store.activate(user, utcnow())
            return user, True
        return user, False

    try:
        return retry(find_or_create, attempts=CREATE_ATTEMPTS)
    except AttemptsSpent:
        raise RuntimeError("phone claim kept changing") from None


def make_inactive_users(numbers: list[str]) -> list:
    """Users (not active) for ``numbers``, which had none a moment ago, in the order given: 50 a
    transaction, the transactions side by side; a transaction refused (a number claimed meanwhile) is
    made again one number at a time, taking the user who claimed it."""
    now = utcnow()

    def make(chunk: list[str]) -> list:
        made = user_store.create_inactive_users(chunk, now)
        if made is None:
            made = [find_or_create_user(number, active=False)[0] for number in chunk]
        return made

    batches = parallel_map(make, chunks(numbers, user_store.USERS_PER_TRANSACTION))
    return [user for batch in batches for user in batch]


def update_profile(user, changes: dict):
    """Write only the named profile fields (the caller has validated them)."""
    if not changes:
        return user
    user_store.update_profile(user, changes, utcnow())
    return user
