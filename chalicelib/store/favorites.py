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
from chalicelib.store.batch import batch_get, batch_write, index_keys


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


def favorites_of(owner_id: int) -> list[Favorite]:
    """The owner's favorites, read consistently: one Query of their partition's ``FAV#`` items."""
    return list(Favorite.query(user_pk(owner_id), Favorite.sk.startswith(favorite_sk("")), consistent_read=True))


def new_favorite(owner_id: int, e164: str, *, favorite_id: int, contact_name: str, photo_key, created) -> Favorite:
    """A favorite item (not stored yet)."""
    return Favorite(
        user_pk(owner_id),
        favorite_sk(e164),
        id=favorite_id,
        fav_phone=e164,
        contact_name=contact_name,
        photo_key=photo_key,
        created=created,
    )


def write_favorites(items: list[Favorite], *, written: set[str]) -> None:
    """Put ``items``, 25 a BatchWriteItem side by side; the sort key of each one written goes into ``written``."""
    batch_write(items, written=written)


def delete_favorites(items: list[Favorite], *, written: set[str]) -> None:
    """Delete ``items`` as :func:`write_favorites` puts them."""
    batch_write(items, delete=True, written=written)
