"""Favorite contacts and the lookups over the address book: who is registered, who invited me.

Favorites live under the owner's partition (``USER#<owner>`` / ``FAV#<e164>``): one Query reads
them all; writes go by ``BatchWriteItem`` (25 a call, the calls in parallel). Lookups of many
numbers go by ``BatchGetItem`` (100 keys a call, the calls in parallel): one round for the phone
claims, one for the profiles, so 1,000 numbers cost at most 20 calls in 2 sequential rounds.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from chalicelib import aws, limits
from chalicelib.ids import new_id
from chalicelib.parallel import chunks, parallel_map
from chalicelib.phones import normalize_phone
from chalicelib.services.guards.ratelimit import RollingLimit
from chalicelib.services.media import avatars
from chalicelib.store import favorites as favorite_store
from chalicelib.store.batch import BATCH_GET_KEYS
from chalicelib.store.invitations import guest_invitations
from chalicelib.store.records import Favorite, User
from chalicelib.store.users import claims_chunk, get_users
from chalicelib.timeutil import utcnow

log = logging.getLogger("invites")

PHOTO_FOLDER = "favorites"


# ``photo`` was not sent: an upsert keeps the stored photo.
KEEP = object()


@dataclass
class ContactInput:
    """One entry of a favorites body, checked. ``contact_name`` None: not sent; ``photo`` KEEP, None
    (remove it) or a re-encoded JPEG."""

    phone: str
    contact_name: str | None = None
    photo: Any = KEEP


# Favorites


def list_favorites(owner):
    """The owner's favorites by contact_name, case-insensitively (then by number)."""
    return _sorted(favorite_store.favorites_of(owner.id))


def _sorted(favorites: Iterable):
    return sorted(favorites, key=lambda f: (f.contact_name.casefold(), f.contact_name, f.fav_phone))


def save_favorites(owner: User, entries: list[ContactInput]) -> list[Favorite]:
    """Upsert the entries (one per normalised number, photos already re-encoded) and return the whole list.

    Order: read the list; store the new photos (all of them,
    or none: S3 trouble is a 503 with nothing written); write the items; only then delete the
    photos they replaced. If a write fails, the new photos of items not written are deleted.
    """
    current = {favorite.fav_phone: favorite for favorite in list_favorites(owner)}
    now = utcnow()
    changed: list = []
    uploads: dict[str, tuple[str, bytes]] = {}  # sk -> (new key, JPEG)
    replaced: dict[str, str] = {}  # sk -> photo key the write makes stale
    for entry in entries:
        old = current.get(entry.phone)
        item = favorite_store.new_favorite(
            owner.id,
            entry.phone,
            favorite_id=old.id if old else new_id(),
            contact_name=entry.contact_name if entry.contact_name is not None else (old.contact_name if old else ""),
            photo_key=old.photo_key if old else None,
            created=old.created if old else now,
        )
        if entry.photo is not KEEP:
            item.photo_key = None
            if entry.photo is not None:
                item.photo_key = f"{avatars.new_image_prefix(PHOTO_FOLDER, owner.id)}.jpg"
                uploads[item.sk] = (item.photo_key, entry.photo)
            if old and old.photo_key and old.photo_key != item.photo_key:
                replaced[item.sk] = old.photo_key
        if old and old.contact_name == item.contact_name and old.photo_key == item.photo_key:
            continue  # nothing new: no write
        changed.append(item)

    with aws.aws_unavailable_as_503("Image storage"):
        try:
            parallel_map(lambda upload: avatars.put_image(upload[0], upload[1], "image/jpeg"), list(uploads.values()))
        except Exception:
            avatars.delete_quietly([key for key, _ in uploads.values()])
            raise

    written: set[str] = set()
    try:
        favorite_store.write_favorites(changed, written=written)
    except Exception:
        avatars.delete_quietly([key for sk, (key, _) in uploads.items() if sk not in written])
        avatars.delete_quietly([key for sk, key in replaced.items() if sk in written])
        raise
    avatars.delete_quietly(list(replaced.values()))
    current.update({item.fav_phone: item for item in changed})
    return _sorted(current.values())


def delete_favorites(owner: User, entries: list[ContactInput]) -> list[Favorite]:
    """Remove the numbers named (unknown ones are ignored), then their photos; the rest of the list."""
    current = {favorite.fav_phone: favorite for favorite in list_favorites(owner)}
    doomed = [current[entry.phone] for entry in entries if entry.phone in current]
    written: set[str] = set()
    try:
        favorite_store.delete_favorites(doomed, written=written)
    finally:
        avatars.delete_quietly([item.photo_key for item in doomed if item.sk in written])
    return _sorted(item for item in current.values() if item.sk not in written)


# Who is registered


def contact_lookup_limit(user) -> RollingLimit:
    return RollingLimit.of(limits.CONTACT_LOOKUPS, user.id)


def users_by_phone(caller: User, sent: list[Any]) -> list[tuple[str, User]]:
    """``(number as sent, active user)`` for each distinct number in ``sent`` that belongs to one.

    Invalid numbers (and non-strings) are left out, as are unregistered and inactive ones; the
    caller's own number is not special. Limited by numbers, not requests: each distinct valid
    number counts against the caller's allowance of any 24 hours. A request whose numbers do not
    all fit what is left is refused whole (429, nothing counted, nothing looked up), so a client
    learns to send smaller batches later rather than getting a silently partial answer.
    """
    as_sent = {number: normalize_phone(number) for number in sent if isinstance(number, str)}
    as_sent = {number: e164 for number, e164 in as_sent.items() if e164}
    distinct = sorted(set(as_sent.values()))
    owner_of = _claims_within_limit(contact_lookup_limit(caller), distinct)  # rounds 1 and 2
    profiles = get_users(owner_of.values())  # round 3
    active = {uid: profile for uid, profile in profiles.items() if profile.is_active}
    rows = []
    for number, e164 in as_sent.items():
        user = active.get(owner_of.get(e164))
        if user is not None:
            rows.append((number, user))
    return rows


def _claims_within_limit(limit: RollingLimit, numbers: list[str]) -> dict[str, int]:
    """``{number: user id}`` of the held ``numbers``, once they are counted against ``limit`` (429 otherwise).

    The counts are read first (over the limit: 429 before any lookup); the add to them and the
    claims' BatchGetItem calls then run side by side, and the claims are used only if the add held.
    """
    if not numbers:
        return {}
    now = time.time()
    counts = limit.read(now)
    limit.check(counts, len(numbers), now)
    jobs = [lambda: limit.commit(counts, len(numbers), now)]
    for chunk in chunks(numbers, BATCH_GET_KEYS):
        jobs.append(lambda chunk=chunk: claims_chunk(chunk))
    results = parallel_map(lambda job: job(), jobs)
    return {number: user_id for found in results[1:] for number, user_id in found.items()}


# Who has invited me


def who_has_invited_me(caller) -> list:
    """Distinct active owners of the events the caller is a guest of, latest invitation first.

    One Query of the ``by_user`` index (the caller's invitations; never a Scan), then one round of
    BatchGetItem for the owners. Invitations marked cancelled do not count. Not rate-limited: it
    only names people who chose to invite the caller, so it cannot enumerate the user base.
    """
    invitations = guest_invitations(caller.id)
    live = [inv for inv in invitations if not inv.cancelled and inv.owner_id != caller.id]
    live.sort(key=lambda inv: inv.created, reverse=True)
    owner_ids = list(dict.fromkeys(inv.owner_id for inv in live))
    owners = get_users(owner_ids)
    return [owners[uid] for uid in owner_ids if uid in owners and owners[uid].is_active]
