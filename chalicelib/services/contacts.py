"""Favorite contacts and the lookups over the address book: who is registered, who invited me.

Favorites live under the owner's partition (``USER#<owner>`` / ``FAV#<e164>``): one Query reads
them all; writes go by ``BatchWriteItem`` (25 a call, the calls in parallel). Lookups of many
numbers go by ``BatchGetItem`` (100 keys a call, the calls in parallel): one round for the phone
claims, one for the profiles, so 1,000 numbers cost at most 20 calls in 2 sequential rounds.

Error shapes of the favorites body (Django REST framework's own):

- a JSON array of contacts (``ListSerializer`` of ``many=True``): a list with one object per entry,
  ``{}`` for the good ones, e.g. ``[{}, {"phone_number": ["Enter a valid phone number."]}]``;
  an entry that is not an object gets ``{"non_field_errors": ["Invalid data. Expected a
  dictionary, but got str."]}`` in its place; an array over 1,000 entries, or a body that is
  neither an array nor an object: ``{"non_field_errors": [...]}``. The same array may also come
  wrapped as ``{"contacts": [...]}``; its errors are then keyed ``{"contacts": [...]}``.
- the deprecated ``{"phone_numbers": [...]}`` (a ``ListField``): errors keyed by position,
  ``{"phone_numbers": {"1": ["Enter a valid phone number."]}}``, or
  ``{"phone_numbers": ["Ensure this field has no more than 1000 elements."]}``.

Every entry is checked and every photo decoded and re-encoded before anything is written, so a
400 stores nothing: no item and no S3 object.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.errors import PayloadTooLarge, ValidationError
from chalicelib.ids import new_id
from chalicelib.models.events import Invitation
from chalicelib.models.users import (
    PHONE_SK,
    Favorite,
    PhoneClaim,
    User,
    favorite_sk,
    phone_of,
    phone_pk,
    user_pk,
)
from chalicelib.parallel import chunks, parallel_map
from chalicelib.phones import normalize_phone
from chalicelib.services import avatars
from chalicelib.services.ratelimit import RollingLimit
from chalicelib.store.batch import BATCH_GET_KEYS, batch_get_chunk, batch_write
from chalicelib.store.users import get_users
from chalicelib.timeutil import utcnow
from chalicelib.validation import NOT_LIST, NOT_NULL, REQUIRED, Fields, text_errors_by_position

log = logging.getLogger("invites")

MAX_ENTRIES = 1000
MAX_NAME = 256
PHOTO_FIELD = "photo"
PHOTO_FOLDER = "favorites"

NO_DATA = "No data provided"
PHOTOS_TOO_COSTLY = "These photos are too large to process in one request: send fewer or smaller ones at a time."
NOT_A_DICT = "Invalid data. Expected a dictionary, but got {kind}."
TOO_MANY = f"Ensure this field has no more than {MAX_ENTRIES} elements."
_DATA_URI = re.compile(r"^data:[\w/+.-]*;base64,", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")

# ``photo`` was not sent: an upsert keeps the stored photo.
KEEP = object()


@dataclass
class ContactInput:
    """One validated entry. ``contact_name`` None: not sent; ``photo`` KEEP, None (remove) or bytes."""

    phone: str
    contact_name: str | None = None
    photo: Any = KEEP


# Reading the body


def _kind(value: Any) -> str:
    return type(value).__name__


def _entries_of(body: Any) -> tuple[str | None, list | None]:
    """(key errors go under, list of contact objects) or (None, None) for the phone_numbers shape."""
    if isinstance(body, list):
        return "", body
    if isinstance(body, dict) and "contacts" in body:
        if not isinstance(body["contacts"], list):
            raise ValidationError({"contacts": [NOT_LIST.format(kind=_kind(body["contacts"]))]})
        return "contacts", body["contacts"]
    if isinstance(body, dict):
        return None, None
    if body is None:
        raise ValidationError({"non_field_errors": [NO_DATA]})
    raise ValidationError({"non_field_errors": [NOT_LIST.format(kind=_kind(body))]})


def _raise_list_errors(key: str, errors: list | dict) -> None:
    raise ValidationError({key: errors} if key else errors)


def parse_favorites(body: Any, *, with_details: bool) -> list[ContactInput]:
    """Validate a favorites body of either shape; one entry per number, the last one sent wins.

    ``with_details`` (POST) reads ``contact_name`` and ``photo`` too and turns each photo into a
    clean JPEG (ready to store); without it (DELETE) only the numbers matter.
    """
    key, items = _entries_of(body)
    if items is None:
        fields = Fields(body)
        numbers = fields.phone_list("phone_numbers", required=True, max_items=MAX_ENTRIES)
        fields.raise_if_errors()
        return list({phone: ContactInput(phone) for phone in numbers}.values())
    if len(items) > MAX_ENTRIES:
        _raise_list_errors(key, {"non_field_errors": [TOO_MANY]})
    if with_details:
        photos = sum(1 for item in items if isinstance(item, dict) and item.get(PHOTO_FIELD) not in (None, ""))
        most = get_settings().favorite_photos_per_request
        if photos > most:  # counted before any photo is decoded
            _raise_list_errors(key, {"non_field_errors": [too_many_photos_message(most)]})

    entries, errors = [], []
    for item in items:
        entry, item_errors = _parse_entry(item, with_details)
        entries.append(entry)
        errors.append(item_errors)
    if any(errors):
        _raise_list_errors(key, errors)

    unique = list({entry.phone: entry for entry in entries}.values())
    if with_details:
        _check_decoding_budget(key, unique)
        errors = [{} for _ in items]
        position = {entry.phone: index for index, entry in enumerate(entries)}  # the last of each number
        for entry in unique:
            error = _process_photo(entry)
            if error:
                errors[position[entry.phone]] = {PHOTO_FIELD: [error]}
        if any(errors):
            _raise_list_errors(key, errors)
    return unique


def _parse_entry(item: Any, with_details: bool) -> tuple[ContactInput | None, dict]:
    if not isinstance(item, dict):
        return None, {"non_field_errors": [NOT_A_DICT.format(kind=_kind(item))]}
    fields = Fields(item)
    phone = fields.phone("phone_number", required=True)
    entry = ContactInput(phone or "")
    if with_details:
        entry.contact_name = fields.string("contact_name", max_length=MAX_NAME)
        if fields.present(PHOTO_FIELD):
            entry.photo = _decode_photo(item[PHOTO_FIELD], fields)
    return entry, fields.errors


def _decode_photo(value: Any, fields: Fields) -> bytes | None:
    """Base64 (optionally a ``data:image/...;base64,`` URI) to bytes; ``null`` or ``""`` removes."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        fields.error(PHOTO_FIELD, _invalid_image_message())
        return None
    max_bytes = get_settings().avatar_max_bytes
    text = _WHITESPACE.sub("", _DATA_URI.sub("", value, count=1))
    if len(text) > (max_bytes + 2) // 3 * 4:  # too big before decoding anything
        fields.error(PHOTO_FIELD, _too_large_message(max_bytes))
        return None
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        fields.error(PHOTO_FIELD, _invalid_image_message())
        return None


def _check_decoding_budget(key: str, entries: list[ContactInput]) -> None:
    """400 before any decoding when the photos together would decode to more than
    ``IMAGE_DECODE_PIXELS_PER_REQUEST`` pixels: the bound on the request's CPU for images."""
    from chalicelib.services.images import decoded_pixels

    budget = get_settings().image_decode_pixels_per_request
    total = sum(decoded_pixels(entry.photo) for entry in entries if isinstance(entry.photo, bytes))
    if total > budget:
        _raise_list_errors(key, {"non_field_errors": [PHOTOS_TOO_COSTLY]})


def too_many_photos_message(most: int) -> str:
    return f"Ensure this request has no more than {most} photos."


def _process_photo(entry: ContactInput) -> str | None:
    """Replace the entry's raw photo by a clean JPEG; the error message when it is no good image.

    At most ``FAVORITE_PHOTO_MAX_PIXELS``, read from the header before any pixel is decoded; only the
    big rendition is made (a contact has one photo)."""
    if not isinstance(entry.photo, bytes):
        return None
    from chalicelib.services.images import process_image

    settings = get_settings()
    try:
        processed = process_image(
            entry.photo,
            field=PHOTO_FIELD,
            max_bytes=settings.avatar_max_bytes,
            max_pixels=settings.favorite_photo_max_pixels,
            square=False,
        )
    except PayloadTooLarge:
        return _too_large_message(settings.avatar_max_bytes)
    except ValidationError as error:
        return error.body[PHOTO_FIELD][0]
    entry.photo = processed.big
    return None


def _invalid_image_message() -> str:
    from chalicelib.services.images import INVALID_IMAGE

    return INVALID_IMAGE


def _too_large_message(max_bytes: int) -> str:
    """Avatar's 413 text, here as a field error: "File too large. Maximum size is 4 MB."."""
    size = f"{max_bytes / 2**20:.2f}".rstrip("0").rstrip(".")
    return f"File too large. Maximum size is {size} MB."


# Favorites


def list_favorites(owner: User) -> list[Favorite]:
    """The owner's favorites by contact_name, case-insensitively (then by number)."""
    items = Favorite.query(user_pk(owner.id), Favorite.sk.startswith(favorite_sk("")), consistent_read=True)
    return _sorted(items)


def _sorted(favorites: Iterable[Favorite]) -> list[Favorite]:
    return sorted(favorites, key=lambda f: (f.contact_name.casefold(), f.contact_name, f.fav_phone))


def save_favorites(owner: User, body: Any) -> list[Favorite]:
    """Upsert the entries (by normalised number) and return the whole list.

    Order: validate and re-encode every photo; read the list; store the new photos (all of them,
    or none: S3 trouble is a 503 with nothing written); write the items; only then delete the
    photos they replaced. If a write fails, the new photos of items not written are deleted.
    """
    entries = parse_favorites(body, with_details=True)
    current = {favorite.fav_phone: favorite for favorite in list_favorites(owner)}
    now = utcnow()
    changed: list[Favorite] = []
    uploads: dict[str, tuple[str, bytes]] = {}  # sk -> (new key, JPEG)
    replaced: dict[str, str] = {}  # sk -> photo key the write makes stale
    for entry in entries:
        old = current.get(entry.phone)
        item = Favorite(
            user_pk(owner.id),
            favorite_sk(entry.phone),
            id=old.id if old else new_id(),
            fav_phone=entry.phone,
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
        batch_write(changed, written=written)
    except Exception:
        avatars.delete_quietly([key for sk, (key, _) in uploads.items() if sk not in written])
        avatars.delete_quietly([key for sk, key in replaced.items() if sk in written])
        raise
    avatars.delete_quietly(list(replaced.values()))
    current.update({item.fav_phone: item for item in changed})
    return _sorted(current.values())


def delete_favorites(owner: User, body: Any) -> list[Favorite]:
    """Remove the numbers named (unknown ones are ignored), then their photos; the rest of the list."""
    entries = parse_favorites(body, with_details=False)
    current = {favorite.fav_phone: favorite for favorite in list_favorites(owner)}
    doomed = [current[entry.phone] for entry in entries if entry.phone in current]
    written: set[str] = set()
    try:
        batch_write(doomed, delete=True, written=written)
    finally:
        avatars.delete_quietly([item.photo_key for item in doomed if item.sk in written])
    return _sorted(item for item in current.values() if item.sk not in written)


# Who is registered


def contact_lookup_limit(user: User) -> RollingLimit:
    return RollingLimit("contact-lookup", str(user.id), get_settings().contact_lookup_numbers_per_user_per_day)


def users_by_phone(caller: User, body: Any) -> list[tuple[str, User]]:
    """``(number as sent, active user)`` for each distinct number sent that belongs to one.

    Invalid numbers (and non-strings) are left out, as are unregistered and inactive ones; the
    caller's own number is not special. Limited by numbers, not requests: each distinct valid
    number counts against the caller's allowance of any 24 hours. A request whose numbers do not
    all fit what is left is refused whole (429, nothing counted, nothing looked up), so a client
    learns to send smaller batches later rather than getting a silently partial answer.
    """
    if not isinstance(body, dict):
        raise ValidationError({"non_field_errors": [NO_DATA if body is None else NOT_A_DICT.format(kind=_kind(body))]})
    sent = body.get("phone_numbers")
    if "phone_numbers" not in body:
        raise ValidationError({"phone_numbers": [REQUIRED]})
    if sent is None:
        raise ValidationError({"phone_numbers": [NOT_NULL]})
    if not isinstance(sent, list):
        raise ValidationError({"phone_numbers": [NOT_LIST.format(kind=_kind(sent))]})
    if len(sent) > MAX_ENTRIES:
        raise ValidationError({"phone_numbers": [TOO_MANY]})

    if unreadable := text_errors_by_position(sent):  # other non-numbers are simply left out
        raise ValidationError({"phone_numbers": unreadable})
    as_sent = {number: normalize_phone(number) for number in sent if isinstance(number, str)}
    as_sent = {number: e164 for number, e164 in as_sent.items() if e164}
    distinct = sorted(set(as_sent.values()))
    claims = _claims_within_limit(contact_lookup_limit(caller), distinct)  # rounds 1 and 2
    owner_of = {phone_of(claim.pk): claim.user_id for claim in claims}
    profiles = get_users(owner_of.values())  # round 3
    active = {uid: profile for uid, profile in profiles.items() if profile.is_active}
    rows = []
    for number, e164 in as_sent.items():
        user = active.get(owner_of.get(e164))
        if user is not None:
            rows.append((number, user))
    return rows


def _claims_within_limit(limit: RollingLimit, numbers: list[str]) -> list[PhoneClaim]:
    """The phone claims of ``numbers``, once they are counted against ``limit`` (429 otherwise).

    The counts are read first (over the limit: 429 before any lookup); the add to them and the
    claims' BatchGetItem calls then run side by side, and the claims are used only if the add held.
    """
    if not numbers:
        return []
    now = time.time()
    counts = limit.read(now)
    limit.check(counts, len(numbers), now)
    jobs = [lambda: limit.commit(counts, len(numbers), now)]
    for chunk in chunks([(phone_pk(e164), PHONE_SK) for e164 in numbers], BATCH_GET_KEYS):
        jobs.append(lambda chunk=chunk: batch_get_chunk(PhoneClaim, chunk))
    results = parallel_map(lambda job: job(), jobs)
    return [item for chunk in results[1:] for item in chunk]


# Who has invited me


def who_has_invited_me(caller: User) -> list[User]:
    """Distinct active owners of the events the caller is a guest of, latest invitation first.

    One Query of the ``by_user`` index (the caller's invitations; never a Scan), then one round of
    BatchGetItem for the owners. Invitations marked cancelled do not count. Not rate-limited: it
    only names people who chose to invite the caller, so it cannot enumerate the user base.
    """
    invitations = Invitation.by_user.query(user_pk(caller.id), filter_condition=Invitation.role == "guest")
    live = [inv for inv in invitations if not inv.cancelled and inv.owner_id != caller.id]
    live.sort(key=lambda inv: inv.created, reverse=True)
    owner_ids = list(dict.fromkeys(inv.owner_id for inv in live))
    owners = get_users(owner_ids)
    return [owners[uid] for uid in owner_ids if uid in owners and owners[uid].is_active]
