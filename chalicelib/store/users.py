"""The users table read by id."""

from __future__ import annotations

from collections.abc import Iterable

from chalicelib.models.users import PROFILE_SK, User, user_pk
from chalicelib.store.batch import batch_get


def get_users(user_ids: Iterable[int]) -> dict[int, User]:
    """Users by id: one BatchGetItem per 100 ids, the calls in parallel."""
    keys = sorted(set(user_ids))
    if not keys:
        return {}

    return {user.id: user for user in batch_get(User, [(user_pk(uid), PROFILE_SK) for uid in keys])}
