"""Export of a person's data (``POST``/``GET /users/me/export``). No chalice imports.

A request takes one of the day's exports (``EXPORTS_PER_DAY`` in any 24 hours, 429 beyond) and puts a
pending record, unless one is pending already (then it is that one's answer: one at a time). The
queue's worker (message ``data_export``) reads everything the person has, writes one JSON file to the
bucket under ``exports/<user id>/<random>.json`` (server-side encrypted; removed by the bucket's
lifecycle rule after a day, and never served by the avatar distribution), and marks the record ready.
``GET`` then answers a link to the service valid for an hour, which signs a fresh download each time it is
opened (services/account/export_links.py).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from chalicelib import aws, limits
from chalicelib.config import get_settings
from chalicelib.domain import waitlist as line_rules
from chalicelib.domain.answers import answer_of
from chalicelib.errors import NotFound
from chalicelib.messaging import notifications
from chalicelib.messaging.notifications import Outcome
from chalicelib.messaging.notifications.kinds import handles, queue_kind
from chalicelib.parallel import parallel_map
from chalicelib.services.account import export_links
from chalicelib.services.guards.ratelimit import RollingLimit
from chalicelib.services.participants import representations
from chalicelib.services.plans import plan_data
from chalicelib.store import exports as store
from chalicelib.store import removals as removal_store
from chalicelib.store.account_deletion import device_tokens, event_items, invitations_of, user_items
from chalicelib.store.events import EventView
from chalicelib.store.photos import READY
from chalicelib.store.records import (
    OWNER,
    Event,
    Favorite,
    Invitation,
    Message,
    OfflineGuest,
    Photo,
    Poll,
    TimeSuggestion,
    User,
)
from chalicelib.store.users import get_user, get_users
from chalicelib.timeutil import format_datetime, utcnow

# A person's data gathered into the file they download
DATA_EXPORT = queue_kind("data_export")

PhotoLink = Callable[[Photo, str], str]
EXPORT_PATH = "/users/me/export"  # the route whose links the file's photo links sit beside
FILE_DAYS = 1  # the bucket's lifecycle rule on exports/ (infra/template.yaml) removes the file after this
PENDING_LEASE = timedelta(minutes=15)  # a pending export older than this was lost: a new request may start one
FORMAT_VERSION = 1


def export_limit(user: User) -> RollingLimit:
    return RollingLimit.of(limits.EXPORTS, user.id)


def request_export(user: User, link_base: str = "") -> dict:
    """Start an export unless one is pending; ``{"status": "pending"}``. 429 past the day's allowance. ``link_base``
    (``<API base>/users/me/export``) is where the file's photo links point."""
    now = utcnow()
    record = store.get_record(user.id)
    if record is not None and record.state == store.PENDING and now - record.requested < PENDING_LEASE:
        return {"status": store.PENDING}
    export_limit(user).charge(1)
    nonce = secrets.token_hex(8)
    expires = now + timedelta(days=FILE_DAYS)
    if store.start(user.id, nonce, now, expires, record):
        notifications.enqueue(DATA_EXPORT, user_id=user.id, nonce=nonce, link_base=link_base)
    return {"status": store.PENDING}


def export_status(user: User, link_base: str) -> dict:
    """Pending, or ready with a link good for an hour (``<link_base>/<token>``, services/account/export_links.py); 404
    when never asked (or the file has expired)."""
    now = utcnow()
    record = store.get_record(user.id)
    if record is None or (record.expires_at is not None and record.expires_at <= now):
        raise NotFound()
    if record.state != store.READY:
        return {"status": store.PENDING}
    expires = export_links.link_expiry(now)
    url = f"{link_base}/{export_links.link_token(user.id, record.nonce, expires)}"
    return {"status": store.READY, "url": url, "expires_at": format_datetime(expires)}


# --------------------------------------------------------------------------- the worker


@handles(DATA_EXPORT)
def _on_data_export(message: dict) -> Outcome:
    user_id, nonce = int(message["user_id"]), message["nonce"]
    record = store.get_record(user_id)
    user = get_user(user_id)
    if record is None or record.nonce != nonce or record.state != store.PENDING or user is None:
        return Outcome()  # done, replaced, or the account is gone
    now = utcnow()
    key = f"exports/{user_id}/{secrets.token_urlsafe(16)}.json"
    base = message.get("link_base") or get_settings().public_base_url.rstrip("/") + EXPORT_PATH

    def photo_link(photo: Photo, size: str) -> str:
        return f"{base}/photos/{export_links.photo_link_token(user_id, nonce, photo, size)}"

    body = json.dumps(collect(user, now, photo_link), ensure_ascii=False, indent=1).encode("utf-8")
    aws.s3().put_object(
        Bucket=get_settings().avatar_bucket,
        Key=key,
        Body=body,
        ContentType="application/json",
        ContentDisposition='attachment; filename="my-data.json"',
        ServerSideEncryption="AES256",
        CacheControl="private, no-store",
    )
    store.mark_ready(user_id, nonce, key, now, now + timedelta(days=FILE_DAYS))
    return Outcome()


def collect(user: User, now: datetime, photo_link: PhotoLink = lambda photo, size: "") -> dict:
    """Everything kept about ``user``, as the export file holds it; ``photo_link(photo, size)`` is the link to one
    size of a photo they added."""
    items = user_items(user.id)
    invitations = invitations_of(user.id)
    partitions = parallel_map(lambda inv: (inv, event_items(inv.event_id)), invitations)
    owned = [(inv, found) for inv, found in partitions if inv.role == OWNER]
    received = [(inv, found) for inv, found in partitions if inv.role != OWNER]
    people = {item.user_id for _, found in owned for item in found if isinstance(item, (Invitation, Message))}
    people |= {inv.owner_id for inv in invitations}
    added = _added_by(user.id, received)
    people |= {item.user_id for item in added}
    users = get_users(people | {user.id})
    users[user.id] = user
    return {
        "format_version": FORMAT_VERSION,
        "exported_at": format_datetime(now),
        "profile": {
            **representations.user_json(user, with_event_change=True),
            "created": format_datetime(user.created),
        },
        "devices": [{"token": token} for token, _ in device_tokens(items)],
        "favorites": [
            representations.favorite_json(item, owner_id=user.id) for item in items if isinstance(item, Favorite)
        ],
        "events_owned": [_owned_event(found, users, user.id) for _, found in owned],
        "numbers_invited": _numbers_invited(owned, added, users),
        "invitations_received": [_received(inv, found, users, user.id) for inv, found in received],
        "photos_added": _photos_added(partitions, user.id, photo_link),
        "events_removed_from": _removed_from(user.id, {inv.event_id for inv in invitations}),
        **plan_data.exported(user.id),
    }


def _photos_added(partitions: list, me: int, photo_link: PhotoLink) -> list[dict]:
    """The album photos the person added to any event, newest first, each with its event and links to both sizes
    (links to the service, which sign a fresh download each time they are opened: services/account/export_links.py)."""
    mine = [
        (inv.event_id, item)
        for inv, found in partitions
        for item in found
        if isinstance(item, Photo) and item.user_id == me and item.state == READY
    ]
    mine.sort(key=lambda pair: pair[1].id, reverse=True)
    return [
        {
            "event_id": event_id,
            "id": photo.id,
            "user_id": photo.user_id,
            "thumb_url": photo_link(photo, "thumb"),
            "url": photo_link(photo, "big"),
            "created_at": format_datetime(photo.created),
        }
        for event_id, photo in mine
    ]


def _added_by(me: int, received: list) -> list[Invitation]:
    """The invitations the person added to other people's events, as a guest or a co-host."""
    return [
        item
        for _, found in received
        for item in found
        if isinstance(item, Invitation) and getattr(item, "invited_by", None) == me
    ]


def _numbers_invited(owned: list, added: list[Invitation], users: dict[int, User]) -> list[dict]:
    """Each phone number the person invited, with those events' ids: to their own events, and to other
    people's as a guest or a co-host (``added``)."""
    invited = [item for _, found in owned for item in found if isinstance(item, Invitation) and item.role != OWNER]
    events_of: dict[str, set[int]] = {}
    for item in invited + added:
        if item.user_id in users:
            events_of.setdefault(users[item.user_id].phone_number, set()).add(item.event_id)
    return [{"phone_number": number, "event_ids": sorted(ids)} for number, ids in sorted(events_of.items())]


def _split(found: list) -> tuple[Event | None, list, list, list, list]:
    event = next((item for item in found if isinstance(item, Event)), None)
    kept = [item for item in found if not getattr(item, "removed", None)]  # what was taken down is in no export
    pick = lambda kind: [item for item in kept if isinstance(item, kind)]  # noqa: E731
    return event, pick(Invitation), pick(Message), pick(Poll), pick(TimeSuggestion)


def _suggestion_json(item: TimeSuggestion) -> dict:
    return {
        "id": item.id,
        "suggested_time": format_datetime(item.suggested_time),
        "comment": item.comment or "",
        "created": format_datetime(item.created),
    }


def _owned_event(found: list, users: dict[int, User], me: int) -> dict:
    event, invitations, messages, polls, suggestions = _split(found)
    if event is None:
        return {}
    invitations.sort(key=lambda inv: (inv.role != OWNER, inv.created, inv.id))
    messages.sort(key=lambda msg: (msg.created, msg.id))
    offline = sorted((item for item in found if isinstance(item, OfflineGuest)), key=lambda guest: guest.id)
    view = EventView(event, invitations, messages, polls, users, offline_guests=offline)
    body = representations.event_json(view, me, representations.DETAIL)
    body["time_suggestions"] = [_suggestion_json(item) for item in suggestions]
    return body


def _answers(event, mine: Invitation) -> list[dict]:
    """Every answer the person gave, with the question it answered (null when the host removed it since)."""
    asked = {question["id"]: question["text"] for question in (event.questions or [])} if event else {}
    return [
        {"question_id": key, "question": asked.get(key), "answer": value} for key, value in (mine.answers or {}).items()
    ]


def _received(invitation: Invitation, found: list, users: dict[int, User], me: int) -> dict:
    event, invitations, messages, polls, suggestions = _split(found)
    owner = users.get(invitation.owner_id)
    mine = next((inv for inv in invitations if inv.user_id == me), invitation)
    position = line_rules.places_by_user(invitations).get(me)
    return {
        "event_id": invitation.event_id,
        "title": event.title if event else "",
        "event_date": format_datetime(event.event_date) if event else None,
        "host": owner.full_name if owner else "",
        "invited": format_datetime(invitation.created),
        "has_accepted_invite": mine.has_accepted,
        "answer": answer_of(mine, position),
        "extra_guests": int(mine.extra_guests or 0),
        "waitlist_position": position,
        "rsvp_message": mine.rsvp_message or "",
        "rsvp_time": format_datetime(mine.rsvp_time),
        "answers": _answers(event, mine),
        **_written(messages, polls, suggestions, me),
    }


def _written(messages: list, polls: list, suggestions: list, me: int) -> dict:
    """What the person wrote in an event's conversation (and nobody took down)."""
    return {
        "messages_written": [
            {"id": m.id, "body": m.body, "created": format_datetime(m.created)} for m in messages if m.user_id == me
        ],
        "polls_written": [representations.poll_json(p) for p in polls if p.user_id == me],
        "time_suggestions_written": [_suggestion_json(s) for s in suggestions if s.user_id == me],
    }


def _removed_from(user_id: int, invited_to: set[int]) -> list[dict]:
    """The events hosts removed the person from (and did not invite them to again), with what they wrote there:
    it stays theirs."""
    event_ids = [event_id for event_id in removal_store.events_removed_from(user_id) if event_id not in invited_to]
    found = parallel_map(lambda event_id: (event_id, event_items(event_id)), event_ids)
    removed = []
    for event_id, items in found:
        event, _, messages, polls, suggestions = _split(items)
        if event is not None:
            removed.append({"event_id": event_id, **_written(messages, polls, suggestions, user_id)})
    return removed
