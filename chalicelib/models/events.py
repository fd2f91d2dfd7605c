"""The events table: an event and everything said about it, in one partition.

| item        | pk           | sk                          |
|-------------|--------------|-----------------------------|
| Event       | EVENT#<id>   | META                        |
| Invitation  | EVENT#<id>   | INV#<user id>  (owner too)  |
| Message     | EVENT#<id>   | MSG#<created>#<message id>  |
| Poll        | EVENT#<id>   | POLL#<poll id>              |
| Suggestion  | EVENT#<id>   | TS#<suggestion id>          |
| Removal     | EVENT#<id>   | REMOVED#<user id>           |
| Waiting     | EVENT#<id>   | WAIT#<arrival>#<user id>    |
| JoinRequest | EVENT#<id>   | ~JOINREQ#<user id>          |
| Photo       | EVENT#<id>   | ~PHOTO#<photo id>           |
| JoinCode    | JOINCODE#<sha256 of code> | META           |
| Series      | SERIES#<id>  | META                        |

One Query of the partition up to ``TS#`` returns an event with its invitees, messages and polls; the
time suggestions, the waitlist (``WAIT#``, in arrival order) and the join requests (``~JOINREQ#``, the
tilde sorting after every letter) sort after it and are read only by their own queries. A Series item
(models/series.py) names the events of a series in date order. A JoinCode item
finds the event of a join link's code in one GetItem.
Invitation items carry ``user_pk``/``date_key`` for the ``by_user`` index: a person's events by
date (lists, filters, timeline, stats), and ``owner_id`` for "who has invited me".
Event items carry ``remind_day``/``event_date_key`` for the sparse ``upcoming`` index that the
scheduled reminder queries; DueStep items (``~DUE#<step>``) share it under ``DUE#<day>`` keys, by due time.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pynamodb.attributes import (
    BooleanAttribute,
    DiscriminatorAttribute,
    JSONAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
    UTCDateTimeAttribute,
)
from pynamodb.indexes import GlobalSecondaryIndex, IncludeProjection, KeysOnlyProjection

from chalicelib.models.base import TableModel, table_meta
from chalicelib.timeutil import format_datetime

OWNER, GUEST = "owner", "guest"  # Invitation.role
META_SK = "META"
INVITATION_PREFIX = "INV#"
MESSAGE_PREFIX = "MSG#"
POLL_PREFIX = "POLL#"
SUGGESTION_PREFIX = "TS#"
WAIT_PREFIX = "WAIT#"
REMOVAL_PREFIX = "REMOVED#"  # before TS#: an event read loads them with the invitations (page links, joins)
OFFLINE_PREFIX = "OFF#"  # sorts before TS#: an event read loads the offline guests with the invitations
# Announcements sort after the time suggestions (``TS#``), so an event read leaves them out too.
ANNOUNCEMENT_PREFIX = "UPDATE#"
JOIN_REQUEST_PREFIX = "~JOINREQ#"
JOIN_CODE_PREFIX = "JOINCODE#"
PHOTO_PREFIX = "~PHOTO#"  # after ``~JOINREQ#``: read only by the album's own queries
DUE_PREFIX = "~DUE#"  # a step due before the start (store/due_steps.py): read by its key only


EVENT_PREFIX = "EVENT#"


def event_pk(event_id: int) -> str:
    return f"{EVENT_PREFIX}{event_id}"


def event_id_of(pk: str) -> int:
    """The event id of an ``EVENT#<id>`` key."""
    return int(pk.removeprefix(EVENT_PREFIX))


def invitation_sk(user_id: int) -> str:
    return f"{INVITATION_PREFIX}{user_id}"


def message_sk(created, message_id: int) -> str:
    """Sorts oldest first: ``MSG#2026-12-01T18:00:00.123456Z#0000000000000042``."""
    return f"{MESSAGE_PREFIX}{created.astimezone(UTC):%Y-%m-%dT%H:%M:%S.%f}Z#{message_id:016d}"


def announcement_sk(created, announcement_id: int) -> str:
    """Sorts oldest first: ``UPDATE#2026-12-01T18:00:00.123456Z#0000000000000042``."""
    return f"{ANNOUNCEMENT_PREFIX}{created.astimezone(UTC):%Y-%m-%dT%H:%M:%S.%f}Z#{announcement_id:016d}"


def removal_sk(user_id: int) -> str:
    return f"{REMOVAL_PREFIX}{user_id}"


def offline_sk(guest_id: int) -> str:
    return f"{OFFLINE_PREFIX}{guest_id:016d}"


def photo_sk(photo_id: int) -> str:
    """Sorts by id, which grows with time (chalicelib/ids.py): ``~PHOTO#0000000000000042``."""
    return f"{PHOTO_PREFIX}{photo_id:016d}"


def wait_sk(arrival, user_id: int) -> str:
    """Sorts in arrival order, then by person: ``WAIT#2026-12-01T18:00:00.123456Z#0000000000000042``."""
    return f"{WAIT_PREFIX}{arrival.astimezone(UTC):%Y-%m-%dT%H:%M:%S.%f}Z#{user_id:016d}"


def wait_time_of(key: str) -> datetime:
    """The arrival instant of a :func:`wait_sk` key."""
    stamp = key.removeprefix(WAIT_PREFIX).partition("#")[0]
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def date_key(event_date, event_id: int) -> str:
    """Sorts by date, then id: ``2026-12-01T18:00:00Z#0000000000000042``."""
    return f"{format_datetime(event_date)}#{event_id:016d}"


def date_of_key(key: str) -> str:
    """The formatted date of a :func:`date_key` (what sorts before the id)."""
    return key.partition("#")[0]


class ByUser(GlobalSecondaryIndex):
    """A person's invitations (as owner or guest) by event date."""

    class Meta:
        index_name = "by_user"
        projection = IncludeProjection(
            # ``kind`` too: PynamoDB filters every model query on its discriminator
            ["kind", "event_id", "owner_id", "role", "has_accepted", "cancelled", "created", "rsvp_time"]
        )

    user_pk = UnicodeAttribute(hash_key=True)
    date_key = UnicodeAttribute(range_key=True)


class Upcoming(GlobalSecondaryIndex):
    """Events by the UTC day they happen, for the reminder schedule (sparse: only live events)."""

    class Meta:
        index_name = "upcoming"
        projection = KeysOnlyProjection()

    remind_day = UnicodeAttribute(hash_key=True)
    date_key = UnicodeAttribute(range_key=True)


class CoordinateAttribute(NumberAttribute):
    """A latitude or longitude. DynamoDB refuses a number nearer to 0 than 1e-130 (ValidationException), so such a
    value, valid JSON and a valid coordinate, is stored as the 0 it is to any map."""

    def serialize(self, value):
        return super().serialize(0.0 if abs(value) < 1e-130 else value)


class Location(MapAttribute):
    latitude = CoordinateAttribute()
    longitude = CoordinateAttribute()


class EventsTable(TableModel):
    Meta = table_meta("events_table")

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    kind = DiscriminatorAttribute()
    by_user = ByUser()
    upcoming = Upcoming()


class Event(EventsTable, discriminator="event"):
    id = NumberAttribute()
    owner_id = NumberAttribute()
    title = UnicodeAttribute()
    event_date = UTCDateTimeAttribute()
    is_time_specified = BooleanAttribute(default=False)
    total_spots = NumberAttribute(default=0)
    # spots_filled = accepted guests + spots_filled_by_hand + offline_spots; all kept as atomic counters.
    accepted_count = NumberAttribute(default=0)
    spots_filled_by_hand = NumberAttribute(default=0)
    offline_spots = NumberAttribute(null=True)  # the parties of the offline guests (OFF# items)
    offline_count = NumberAttribute(null=True)  # OFF# items, at most MAX_OFFLINE_GUESTS
    spots_filled = NumberAttribute(default=0)
    location = Location(null=True)
    address = UnicodeAttribute(default="")
    venue_name = UnicodeAttribute(default="")
    online_url = UnicodeAttribute(null=True)  # an https link to where an online event happens
    cancelled = BooleanAttribute(default=False)
    message_count = NumberAttribute(default=0)
    poll_count = NumberAttribute(default=0)
    # absent on events stored before the limit: counted from 0 (see services.conversation)
    suggestion_count = NumberAttribute(default=0)
    # how many people each guest may bring, and whether a full event keeps a waitlist
    max_extra_guests = NumberAttribute(default=0)
    waitlist = BooleanAttribute(default=False)
    waiting_count = NumberAttribute(default=0)  # parties on the waitlist (WAIT# items)
    # the key of the latest party to join: a join must sort after it, so the line's order is the order
    # the joins were written in, and a place told is never taken by someone who came later
    last_wait_key = UnicodeAttribute(null=True)
    # guests invited (the owner not counted), at most INVITEES_PER_EVENT; absent on events stored before it
    invitee_count = NumberAttribute(null=True)
    remind_day = UnicodeAttribute(null=True)
    date_key = UnicodeAttribute(null=True)
    created = UTCDateTimeAttribute()
    modified = UTCDateTimeAttribute()
    # Absent on events stored before them (read as: UTC, 120 minutes, sequence 0, last edit = ``modified``).
    time_zone = UnicodeAttribute(null=True)  # IANA name the owner chose
    utc_offset_minutes = NumberAttribute(null=True)  # the offset event_date was sent with
    duration_minutes = NumberAttribute(null=True)
    # The calendar entry's SEQUENCE and LAST-MODIFIED: edits of what it shows (date, title, place) and cancel.
    calendar_sequence = NumberAttribute(null=True)
    # Closing replies: after rsvp_deadline, or while replies_paused, accepting is refused (declining is not).
    rsvp_deadline = UTCDateTimeAttribute(null=True)
    replies_paused = BooleanAttribute(null=True)
    calendar_modified = UTCDateTimeAttribute(null=True)
    # Hosting together; absent on events stored before them (read as their defaults: today's behaviour).
    join_mode = UnicodeAttribute(null=True)  # invite_only, open, approval
    join_code_hash = UnicodeAttribute(null=True)  # SHA-256 of the current join link's code
    guest_invites = NumberAttribute(null=True)  # numbers each guest may add
    guest_list = UnicodeAttribute(null=True)  # everyone, count_only, hosts_only
    place_visibility = UnicodeAttribute(null=True)  # everyone, accepted
    # What guests who accept are asked (domain.questions); the last id number given, never given again.
    questions = JSONAttribute(null=True)
    question_last_id = NumberAttribute(null=True)
    cohost_count = NumberAttribute(null=True)  # invitations with ``cohost`` set, at most MAX_COHOSTS
    join_request_count = NumberAttribute(null=True)  # pending JoinRequest items, at most JOIN_REQUESTS_PER_EVENT
    # The cover image's S3 keys (services/hosting/covers.py): the picture and its link-preview card; absent without.
    cover_key = UnicodeAttribute(null=True)
    cover_card_key = UnicodeAttribute(null=True)
    # A date of a series (the Series item ``SERIES#<series_id>``): its place in it, from 1; absent otherwise.
    series_id = NumberAttribute(null=True)
    occurrence = NumberAttribute(null=True)
    # The day itself (services/the_day/photos.py, services/the_day/check_ins.py); absent on events stored before them.
    album = UnicodeAttribute(null=True)  # off, guests
    photo_count = NumberAttribute(null=True)  # Photo items, pending or ready, at most PHOTOS_PER_EVENT
    checked_in_count = NumberAttribute(null=True)  # parties checked in at the door
    # Reminders and "still coming?" (domain/event_fields.py); absent on events stored before them: their defaults.
    reminder_hours = NumberAttribute(null=True)
    confirm_attendance = BooleanAttribute(null=True)
    confirm_hours = NumberAttribute(null=True)
    release_unconfirmed = BooleanAttribute(null=True)


class Invitation(EventsTable, discriminator="invitation"):
    id = NumberAttribute()
    event_id = NumberAttribute()
    user_id = NumberAttribute()
    owner_id = NumberAttribute()
    role = UnicodeAttribute()  # "owner" or "guest"
    cohost = BooleanAttribute(null=True)  # a guest the owner made a co-host (domain.roles)
    guests_invited = NumberAttribute(null=True)  # numbers this guest added, at most the event's guest_invites
    invited_by = NumberAttribute(null=True)  # the user who added this invitee when not the owner
    has_seen = BooleanAttribute(default=False)
    has_accepted = BooleanAttribute(null=True)
    maybe = BooleanAttribute(null=True)  # the guest said maybe: no spot held, has_accepted stays null
    rsvp_message = UnicodeAttribute(default="")
    rsvp_time = UTCDateTimeAttribute(null=True)
    replied_by_host = BooleanAttribute(null=True)  # the reply was recorded by a host, not by the guest
    answers = JSONAttribute(null=True)  # {question id: answer} given on accepting
    cancelled = BooleanAttribute(default=False)
    # SHA-256 of the web link code texted to a guest without an account (chalicelib/invite_links.py)
    link_hash = UnicodeAttribute(null=True)
    # a second link, minted when a waitlisted guest without an account is promoted and texted again
    notice_link_hash = UnicodeAttribute(null=True)
    # what became of the invitation text to a guest without an account (services/texts/text_outbox.py); hosts see it
    text_status = UnicodeAttribute(null=True)
    extra_guests = NumberAttribute(default=0)  # people the guest brings: the party takes 1 + extra_guests spots
    wait_key = UnicodeAttribute(null=True)  # the sort key of the guest's WAIT# item while waiting
    photo_count = NumberAttribute(null=True)  # photos this person added, pending or ready, at most PHOTOS_PER_PERSON
    checkin_token = UnicodeAttribute(null=True)  # the random part of the party's check-in code, made on first ask
    checked_in_at = UTCDateTimeAttribute(null=True)
    attendance_confirmed = BooleanAttribute(null=True)  # the answer to "still coming?": null until given
    invited_via = UnicodeAttribute(null=True)  # "link": joined by the join link (domain/invitation_insight.py)
    first_opened_at = UTCDateTimeAttribute(null=True)  # the guest's first visit of their page (store/first_visits.py)
    user_pk = UnicodeAttribute()
    date_key = UnicodeAttribute()
    created = UTCDateTimeAttribute()


class OfflineGuest(EventsTable, discriminator="offline_guest"):
    """Someone without a phone a host counts in: a name and the people they bring, holding spots."""

    id = NumberAttribute()
    name = UnicodeAttribute()
    extra_guests = NumberAttribute(default=0)
    created = UTCDateTimeAttribute()
    checked_in_at = UTCDateTimeAttribute(null=True)


class Photo(EventsTable, discriminator="photo"):
    """A photo of the event's album: ``pending`` from the upload's grant until its processing, then ``ready``
    with its two JPEGs (a failed upload's item is deleted). Its sort key sorts after ``TS#``, so an event read
    never loads it, and by id, so newest first is the partition's order backwards."""

    id = NumberAttribute()
    user_id = NumberAttribute()
    state = UnicodeAttribute()  # pending, ready
    upload_key = UnicodeAttribute()  # where the presigned POST puts the original
    thumb_key = UnicodeAttribute(null=True)
    big_key = UnicodeAttribute(null=True)
    created = UTCDateTimeAttribute()


class WaitlistEntry(EventsTable, discriminator="waiting"):
    """A party waiting for spots; its sort key gives its place in line."""

    user_id = NumberAttribute()
    extra_guests = NumberAttribute(default=0)
    texted = BooleanAttribute(default=False)  # invited by text: told of a promotion by text with a page link


class JoinRequest(EventsTable, discriminator="join_request"):
    """Someone who asked to join by the event's link while it wants approval; one per person."""

    user_id = NumberAttribute()
    requested = UTCDateTimeAttribute()


class DueStep(EventsTable, discriminator="due_step"):
    """A step due before the event's start (``~DUE#<step>``: domain/attendance_steps.py), in the sparse
    ``upcoming`` index under ``DUE#<UTC day>`` by its due time while it waits; out of it once done or off."""

    step = UnicodeAttribute()
    remind_day = UnicodeAttribute(null=True)  # ``DUE#<UTC day>`` while waiting
    date_key = UnicodeAttribute(null=True)  # ``<due time>#<event id>``


class JoinCode(EventsTable, discriminator="join_code"):
    """The event a join link's code opens, keyed by the code's SHA-256 (the code itself is never stored)."""

    event_id = NumberAttribute()


class Message(EventsTable, discriminator="message"):
    id = NumberAttribute()
    user_id = NumberAttribute()
    body = UnicodeAttribute(null=True)  # None once removed
    created = UTCDateTimeAttribute()
    removed = BooleanAttribute(null=True)  # taken down by its author or a host: stays in place, its text gone


class Removal(EventsTable, discriminator="removal"):
    """A guest a host removed: their old page links answer "no longer invited", and joining by link is 404."""

    user_id = NumberAttribute()
    link_hashes = ListAttribute(of=UnicodeAttribute, default=list)  # the invitation's page links, hashed
    removed = UTCDateTimeAttribute()


class Announcement(EventsTable, discriminator="announcement"):
    """A message from the owner to the guests, by their answer (``audience``: going, waiting, no_reply, declined)."""

    id = NumberAttribute()
    user_id = NumberAttribute()
    text = UnicodeAttribute()
    audience = ListAttribute(of=UnicodeAttribute)
    created = UTCDateTimeAttribute()


class Poll(EventsTable, discriminator="poll"):
    id = NumberAttribute()
    user_id = NumberAttribute()
    suggested_date = UTCDateTimeAttribute()
    suggested_venue = UnicodeAttribute(null=True)  # None once removed
    removed = BooleanAttribute(null=True)
    # trimmed, case-folded venue and the instant: two polls with the same key are duplicates
    dedupe_key = UnicodeAttribute()
    created = UTCDateTimeAttribute()


class TimeSuggestion(EventsTable, discriminator="time_suggestion"):
    id = NumberAttribute()
    user_id = NumberAttribute()
    suggested_time = UTCDateTimeAttribute()
    comment = UnicodeAttribute(null=True, default="")  # None once removed
    removed = BooleanAttribute(null=True)
    like_count = NumberAttribute(default=0)
    is_set = BooleanAttribute(default=False)
    created = UTCDateTimeAttribute()
