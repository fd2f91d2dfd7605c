"""The users table: profiles, phone claims, tokens, iOS devices and favorite contacts.

| item            | pk              | sk               |
|-----------------|-----------------|------------------|
| User            | USER#<id>       | PROFILE          |
| PhoneClaim      | PHONE#<e164>    | PHONE            |
| Token           | USER#<id>       | TOKEN#<sha256>   |
| Device          | USER#<id>       | DEVICE#<token>   |
| DeviceOwner     | DEVICE#<token>  | OWNER            |
| Favorite        | USER#<owner>    | FAV#<e164>       |
| InvitedNumber   | USER#<owner>    | INVITED#<e164>   |
| ExportRecord    | USER#<id>       | EXPORT           |
| DeletionJob     | ACCOUNT_DELETION| <user id>        |
| CalendarFeed    | USER#<id>       | CALFEED          |
| CalendarFeedKey | CALFEED#<sha256>| CALFEED          |

Every kind of item is defined here, so a read of a whole partition (``USER#<id>``) knows each item it
meets whatever else was imported.

The sparse index ``favorites_by_phone`` (``fav_phone``) finds who keeps a number as a favorite.
"""

from __future__ import annotations

from pynamodb.attributes import (
    BooleanAttribute,
    DiscriminatorAttribute,
    NumberAttribute,
    TTLAttribute,
    UnicodeAttribute,
    UnicodeSetAttribute,
    UTCDateTimeAttribute,
)
from pynamodb.indexes import GlobalSecondaryIndex, KeysOnlyProjection

from chalicelib.models.base import TableModel, table_meta

PROFILE_SK = "PROFILE"
PHONE_SK = "PHONE"
OWNER_SK = "OWNER"
EXPORT_SK = "EXPORT"
JOBS_PK = "ACCOUNT_DELETION"  # the partition of pending account deletions (one item per user)


USER_PREFIX = "USER#"
PHONE_PREFIX = "PHONE#"
TOKEN_PREFIX = "TOKEN#"
DEVICE_PREFIX = "DEVICE#"


def user_pk(user_id: int) -> str:
    return f"{USER_PREFIX}{user_id}"


def user_id_of(pk: str) -> int:
    """The user id of a ``USER#<id>`` key."""
    return int(pk.removeprefix(USER_PREFIX))


def phone_pk(e164: str) -> str:
    return f"{PHONE_PREFIX}{e164}"


def phone_of(pk: str) -> str:
    """The number of a ``PHONE#<e164>`` key."""
    return pk.removeprefix(PHONE_PREFIX)


def token_sk(token_hash: str) -> str:
    return f"{TOKEN_PREFIX}{token_hash}"


def device_sk(device_token: str) -> str:
    return f"{DEVICE_PREFIX}{device_token}"


def device_owner_pk(device_token: str) -> str:
    return f"{DEVICE_PREFIX}{device_token}"


def device_token_of(key: str) -> str:
    """The push token of a ``DEVICE#<token>`` key (a Device's sort key, a DeviceOwner's partition key)."""
    return key.removeprefix(DEVICE_PREFIX)


def invited_sk(e164: str) -> str:
    return f"INVITED#{e164}"


def favorite_sk(e164: str) -> str:
    return f"FAV#{e164}"


class FavoritesByPhone(GlobalSecondaryIndex):
    class Meta:
        index_name = "favorites_by_phone"
        projection = KeysOnlyProjection()

    fav_phone = UnicodeAttribute(hash_key=True)


class UsersTable(TableModel):
    Meta = table_meta("users_table")

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    kind = DiscriminatorAttribute()
    favorites_by_phone = FavoritesByPhone()


class User(UsersTable, discriminator="user"):
    id = NumberAttribute()
    phone_number = UnicodeAttribute()
    is_active = BooleanAttribute(default=False)
    full_name = UnicodeAttribute(default="")
    email = UnicodeAttribute(default="")
    photo_key = UnicodeAttribute(null=True)
    big_photo_key = UnicodeAttribute(null=True)
    # Avatar objects replaced but maybe not deleted yet (see services.avatars); never shown.
    stale_photo_keys = UnicodeSetAttribute(null=True)
    notify_new_invite = BooleanAttribute(default=True)
    notify_invite_rsvp = BooleanAttribute(default=True)
    notify_contact_joined = BooleanAttribute(default=True)
    notify_event_full = BooleanAttribute(default=True)
    notify_upcoming_event = BooleanAttribute(default=True)
    notify_event_change = BooleanAttribute(default=True)
    notify_announcements = BooleanAttribute(default=True)  # the host's announcements
    # The language the person last chose on a page (a catalogue's tag, languages/): their texts use it.
    language = UnicodeAttribute(null=True)
    fb_token = UnicodeAttribute(null=True)
    fb_id = UnicodeAttribute(null=True)
    created = UTCDateTimeAttribute()
    modified = UTCDateTimeAttribute()


class PhoneClaim(UsersTable, discriminator="phone"):
    """Makes a phone number belong to exactly one user (created with the user, conditionally)."""

    user_id = NumberAttribute()


class Token(UsersTable, discriminator="token"):
    """A bearer token, kept only as its SHA-256; the plain token is ``<user id>.<secret>``."""

    created = UTCDateTimeAttribute()
    expires_at = TTLAttribute()


class Device(UsersTable, discriminator="device"):
    endpoint_arn = UnicodeAttribute()
    created = UTCDateTimeAttribute()
    # The language the app registered the device with (a catalogue's tag, languages/): its pushes are in it.
    language = UnicodeAttribute(null=True)


class DeviceOwner(UsersTable, discriminator="device_owner"):
    """The user a device token belongs to now. SNS keeps one endpoint per token, so when a phone
    changes hands, the previous user's Device item goes, and their pushes stop reaching it.
    ``removing_until``: the owner is deleting the token's endpoint; nobody takes the token over until
    that is done (or this lease has passed), so nobody is left pointing at a deleted endpoint."""

    user_id = NumberAttribute()
    removing_until = UTCDateTimeAttribute(null=True)


class Favorite(UsersTable, discriminator="favorite"):
    id = NumberAttribute()
    fav_phone = UnicodeAttribute()
    contact_name = UnicodeAttribute(default="")
    photo_key = UnicodeAttribute(null=True)
    created = UTCDateTimeAttribute()


class InvitedNumber(UsersTable, discriminator="invited"):
    """A number this user has invited to some event: inviting it again costs nothing of the allowance
    that invitations share with contact lookups (services.events)."""

    created = UTCDateTimeAttribute()


class ExportRecord(UsersTable, discriminator="export"):
    """A user's data export: ``state`` "pending" until the file is written, then "ready" with its key;
    expires (TTL) with the file (store/exports.py)."""

    state = UnicodeAttribute()
    nonce = UnicodeAttribute()  # tells one request's worker from the next one's
    requested = UTCDateTimeAttribute()
    object_key = UnicodeAttribute(null=True)
    ready_at = UTCDateTimeAttribute(null=True)
    expires_at = TTLAttribute(null=True)


class DeletionJob(UsersTable, discriminator="deletion_job"):
    """A deletion in progress. ``full_name`` is kept only for the cancel notices of the person's events,
    and goes with the item when the cascade is over."""

    user_id = NumberAttribute()
    full_name = UnicodeAttribute(default="")
    requested = UTCDateTimeAttribute()
    # When the worker last started a step of it (its own message or one of its events'): a job worked on
    # lately is running, not lost.
    worked_on = UTCDateTimeAttribute(null=True)

    @property
    def last_progress(self):
        return self.worked_on or self.requested


OWNED_EVENT_PREFIX = "OWNS#"


def owned_event_sk(event_id: int) -> str:
    return f"{OWNED_EVENT_PREFIX}{event_id}"


class OwnedEvent(UsersTable, discriminator="owned_event"):
    """An event this user owns, written in the transaction that creates it and deleted with it: deleting the
    account finds every owned event by a consistent read of the user's partition (store/owned_events.py)."""

    event_id = NumberAttribute()


REMOVED_FROM_PREFIX = "REMOVEDFROM#"


def removed_from_sk(event_id: int) -> str:
    return f"{REMOVED_FROM_PREFIX}{event_id}"


class RemovedFrom(UsersTable, discriminator="removed_from"):
    """An event a host removed this user from, written in the removal's transaction: what they wrote there stays
    theirs, so their data export and their account's deletion find that event by the user's partition."""

    event_id = NumberAttribute()


CALENDAR_FEED_SK = "CALFEED"
CALENDAR_FEED_PREFIX = "CALFEED#"


def calendar_feed_pk(token_hash: str) -> str:
    return f"{CALENDAR_FEED_PREFIX}{token_hash}"


class CalendarFeed(UsersTable, discriminator="calendar_feed"):
    """The user's live calendar link: the SHA-256 of its current token (one at a time)."""

    token_hash = UnicodeAttribute()
    created = UTCDateTimeAttribute()


class CalendarFeedKey(UsersTable, discriminator="calendar_feed_key"):
    """Finds the user of a calendar link's token by its SHA-256; replaced with the token."""

    user_id = NumberAttribute()
