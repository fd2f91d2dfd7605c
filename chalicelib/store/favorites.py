"""Favorites: ``FAV#<number>`` items under their keeper's partition (the name the keeper gave the
number), found by number through the keys-only ``favorites_by_phone`` index."""

from __future__ import annotations

from chalicelib.models.users import (
    PROFILE_SK,
    Favorite,
    User,
    UsersTable,
    favorite_sk,
    user_id_of,
    user_pk,
)
from chalicelib.store.batch import batch_get, index_keys


def keeper_ids(e164: str) -> list[int]:
    """Ids of the users keeping ``e164`` as a favorite (one Query of the index, every page), sorted."""
    return sorted({user_id_of(item["pk"]) for item in index_keys(UsersTable, "favorites_by_phone", e164)})


def keepers_with_names(keeper_ids: list[int], e164: str) -> list[tuple[User, str]]:
    """Each keeper's profile and the name they gave ``e164`` ("" when none), in ``keeper_ids`` order;
    keepers without a profile left out. One BatchGetItem per 50 keepers."""
    keys = [key for uid in keeper_ids for key in ((user_pk(uid), PROFILE_SK), (user_pk(uid), favorite_sk(e164)))]
    found: dict[str, dict] = {}
    for item in batch_get(UsersTable, keys):
        found.setdefault(item.pk, {})[item.sk] = item
    pairs = []
    for uid in keeper_ids:
        items = found.get(user_pk(uid), {})
        user, favorite = items.get(PROFILE_SK), items.get(favorite_sk(e164))
        if isinstance(user, User):
            pairs.append((user, favorite.contact_name if isinstance(favorite, Favorite) else ""))
    return pairs
