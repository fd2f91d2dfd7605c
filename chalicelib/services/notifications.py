"""Push notifications (README, "Notifications"). No chalice imports.

A request that causes notifications calls :func:`enqueue` once per trigger, after its own writes:
one small SQS message (``{"type", "id", "event_id", "actor_id", ...}``). The queue's Lambda
(:func:`handle_queue_batch`) expands it to recipients, keeps those whose ``notify_*`` flag allows
it, and publishes an APNS push to each of their devices (SNS platform endpoints). Without a queue
URL (tests, ``make run``) the message is processed right away in the same process.

Types and who gets what:

| message           | recipients                          | flag                    | once per                 |
|-------------------|-------------------------------------|-------------------------|--------------------------|
| ``new_invite``    | the invitees named (active only)    | ``notify_new_invite``   | event, invitee           |
| ``invite_rsvp``   | the owner                           | ``notify_invite_rsvp``  | message, owner           |
|  (event full)     | the owner, when an accept filled it | ``notify_event_full``   | event, owner             |
| ``contact_joined``| users keeping the number as favorite| ``notify_contact_joined``| joiner, recipient       |
| ``event_changed`` | the invitees (not the owner)        | ``notify_event_change`` | message, invitee         |
| ``event_cancelled``| the invitees; also flags invitations| ``notify_event_change``| event, invitee           |
| ``upcoming_event``| owner and accepted invitees         | ``notify_upcoming_event``| event and its date, attendee |

Invitees without an account (``is_active`` false) get the SMS invitation from the request instead
(services/events.py); pushes skip them, so nobody gets both.

Idempotency: before each publish, a claim ``SENT#<type>#<occurrence>#<user>#<device>`` is put in the
auth table under "absent, or a stale claim" (conditional PutItem, TTL). Publish OK: the claim
becomes "sent". A transient failure: the claim is deleted (only if still ours) and the message
fails, so SQS delivers it again and only the pushes without a claim are retried. A worker that dies
between claim and publish leaves a "sending" claim that the next delivery takes over once the
lease (``NOTIFICATION_LEASE_SECONDS``) is over. So a redelivered message sends nothing twice, and a
failed push is retried, then parked in the queue's dead-letter queue.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pynamodb.exceptions import PutError, UpdateError

from chalicelib import aws, notify
from chalicelib.config import get_settings
from chalicelib.ids import new_id
from chalicelib.models.auth import SentNotification, sent_pk
from chalicelib.models.events import GUEST, Event, EventsTable, event_id_of
from chalicelib.models.users import (
    PROFILE_SK,
    Favorite,
    User,
    UsersTable,
    device_token_of,
    favorite_sk,
    user_id_of,
    user_pk,
)
from chalicelib.parallel import chunks, parallel_map
from chalicelib.services import devices
from chalicelib.services.users import get_user
from chalicelib.store.batch import batch_get, index_keys
from chalicelib.store.conditions import condition_failed
from chalicelib.store.events import EventView, flag_invitations_cancelled, load_partition
from chalicelib.store.users import get_users
from chalicelib.timeutil import format_datetime, utcnow

log = logging.getLogger("invites")

NEW_INVITE = "new_invite"
INVITE_RSVP = "invite_rsvp"
EVENT_FULL = "event_full"
CONTACT_JOINED = "contact_joined"
EVENT_CHANGED = "event_changed"
EVENT_CANCELLED = "event_cancelled"
UPCOMING_EVENT = "upcoming_event"

SENDING, SENT = "sending", "sent"
CLAIM_DAYS = 14  # at least the queue's retention: a redelivery always finds the claim
SQS_BATCH = 10

# Edited fields, as a person would name them.
FIELD_WORDS = {
    "title": "title",
    "event_date": "date",
    "is_time_specified": "time",
    "location": "location",
    "address": "address",
    "venue_name": "venue",
}


class RetryLater(Exception):
    """Some pushes of a message failed for a reason that may pass: let the queue deliver it again."""


@dataclass
class Outcome:
    """What processing one message did, for logs and tests."""

    sent: int = 0
    duplicates: int = 0  # already claimed by an earlier delivery
    removed_endpoints: int = 0
    failed: int = 0

    def __iadd__(self, other: Outcome) -> Outcome:
        self.sent += other.sent
        self.duplicates += other.duplicates
        self.removed_endpoints += other.removed_endpoints
        self.failed += other.failed
        return self


@dataclass(frozen=True)
class Push:
    kind: str  # the payload's "type" and the first part of the idempotency key
    occurrence: str  # what makes it one notification: an event id, or the queue message's id
    title: str
    body: str
    event_id: int | None = None
    expires_at: datetime | None = None  # of the claim; default CLAIM_DAYS from now
    extra: dict = field(default_factory=dict)

    def data(self) -> dict:
        return {"type": self.kind, "event_id": self.event_id, **self.extra}

    @classmethod
    def once_per_event(cls, kind: str, event: Event, body: str, occurrence: str | None = None) -> Push:
        """A push sent at most once per recipient for ``event``: its claim lasts until the event is over."""
        return cls(kind, occurrence or str(event.id), event.title, body, event.id, _event_expiry(event))


# --------------------------------------------------------------------------- request side


def enqueue(kind: str, **fields) -> bool:
    """Hand one trigger to the notifications queue; never raises.

    Without a queue URL the message is processed here and now (local runs). Returns False when it
    could not be handed over (logged): the caller's own change stands, its notifications are lost.
    """
    message = {"type": kind, "id": new_id(), **fields}
    url = get_settings().notifications_queue_url
    try:
        if url:
            aws.sqs().send_message(QueueUrl=url, MessageBody=json.dumps(message))
        else:
            process(message)
        return True
    except Exception:  # noqa: BLE001 - a notification never fails the request that caused it
        log.exception("notification %s for event %s not handed over", kind, fields.get("event_id"))
        return False


def _send_many(messages: list[dict]) -> None:
    url = get_settings().notifications_queue_url
    if not url:
        for message in messages:
            try:
                process(message)
            except Exception:  # noqa: BLE001 - one event's failure must not stop the others
                log.exception("notification %s failed", message.get("type"))
        return
    for chunk in chunks(messages, SQS_BATCH):
        entries = [{"Id": str(n), "MessageBody": json.dumps(message)} for n, message in enumerate(chunk)]
        answer = aws.sqs().send_message_batch(QueueUrl=url, Entries=entries)
        if answer.get("Failed"):
            raise RetryLater(f"{len(answer['Failed'])} reminder messages not queued")


# --------------------------------------------------------------------------- queue side


def handle_queue_batch(records: Iterable[tuple[str, str]]) -> None:
    """The SQS handler: process each ``(body, receipt handle)``. When any fails, the others are
    deleted from the queue and the batch raises, so SQS delivers only the failed ones again (their
    pushes already sent are skipped by their claims). Unreadable messages are logged and dropped."""
    done, failed, total = [], 0, 0
    for body, receipt in records:
        total += 1
        try:
            message = json.loads(body)
            if not isinstance(message, dict):
                raise ValueError("not an object")
        except ValueError:
            log.error("dropping an unreadable notification message")
            done.append(receipt)
            continue
        try:
            process(message)
        except Exception:  # noqa: BLE001 - reported below by failing the batch
            log.exception("notification %s failed; the queue will retry it", message.get("type"))
            failed += 1
            continue
        done.append(receipt)
    if failed:
        _delete_from_queue(done)
        raise RetryLater(f"{failed} of {total} notification messages failed")


def _delete_from_queue(receipts: list[str]) -> None:
    url = get_settings().notifications_queue_url
    if not url or not receipts:
        return
    for chunk in chunks(receipts, SQS_BATCH):
        try:
            entries = [{"Id": str(n), "ReceiptHandle": receipt} for n, receipt in enumerate(chunk)]
            aws.sqs().delete_message_batch(QueueUrl=url, Entries=entries)
        except Exception:  # noqa: BLE001 - they come back and are skipped by their claims
            log.warning("could not delete processed notification messages")


def enqueue_many(messages: list[dict]) -> None:
    """Queue several messages (10 a SendMessageBatch); raises when some could not be queued. Without a
    queue URL they are processed here and now, each on its own."""
    _send_many([{"id": new_id(), **message} for message in messages])


def process(message: dict) -> Outcome:
    """Expand one message to its pushes and send them. Raises :class:`RetryLater` when some failed
    for a reason that may pass, after trying all of them."""
    handler = _HANDLERS.get(message.get("type")) or _account_handler(message.get("type"))
    if handler is None:
        log.error("dropping a notification of unknown type %r", message.get("type"))
        return Outcome()
    outcome = handler(message)
    if outcome.failed:
        raise RetryLater(f"{outcome.failed} pushes of {message.get('type')} failed")
    return outcome


# --------------------------------------------------------------------------- the schedule


def enqueue_reminders(now: datetime | None = None) -> int:
    """Queue one ``upcoming_event`` message per live event starting within the reminder window,
    found through the sparse ``upcoming`` index (one Query per UTC day in the window, never a Scan).
    Returns how many. A reminded event leaves the index, so the hourly run finds each one once."""
    now = now or utcnow()
    end = now + timedelta(hours=get_settings().reminder_hours_ahead)
    window = Event.date_key.between(format_datetime(now), f"{format_datetime(end)}#~")
    messages = []
    day = now.date()
    while day <= end.date():
        for item in index_keys(EventsTable, "upcoming", day.isoformat(), window):
            event_id = event_id_of(item["pk"])
            messages.append(
                {"type": UPCOMING_EVENT, "id": new_id(), "event_id": event_id, "date_key": item["date_key"]}
            )
        day += timedelta(days=1)
    _send_many(messages)
    return len(messages)


# --------------------------------------------------------------------------- the triggers


def _name(user: User | None) -> str:
    if user is None:
        return "Someone"
    return user.full_name or user.phone_number


def _when(event: Event) -> str:
    return event.event_date.strftime("%b %d, %Y at %H:%M UTC" if event.is_time_specified else "%b %d, %Y")


def _event_expiry(event: Event) -> datetime:
    """Claims of once-per-event pushes live until the event is over (at least CLAIM_DAYS). Dates are 1970-2100
    since the limit; an event stored before it may be on 9999-12-31, where a day more does not exist."""
    try:
        over = event.event_date + timedelta(days=1)
    except OverflowError:
        over = event.event_date
    return max(utcnow() + timedelta(days=CLAIM_DAYS), over)


def _view(event_id: int, *, live: bool = True) -> EventView | None:
    view = load_partition(int(event_id))
    if view is None or (live and view.event.cancelled):
        return None
    return view


def _guest_ids(view: EventView) -> list[int]:
    return [inv.user_id for inv in view.invitations if inv.role == GUEST]


def _on_new_invite(message: dict) -> Outcome:
    view = _view(message["event_id"])
    if view is None:
        return Outcome()
    event = view.event
    invited = set(_guest_ids(view))
    ids = [uid for uid in message.get("user_ids", []) if uid in invited]
    users = get_users([*ids, event.owner_id])
    push = Push.once_per_event(NEW_INVITE, event, f"{_name(users.get(event.owner_id))} invited you: {_when(event)}.")
    return _deliver([(users[uid], push) for uid in ids if uid in users], "notify_new_invite")


def _on_invite_rsvp(message: dict) -> Outcome:
    view = _view(message["event_id"])
    if view is None:
        return Outcome()
    event = view.event
    users = get_users([event.owner_id, message["actor_id"]])
    owner, guest = users.get(event.owner_id), users.get(message["actor_id"])
    if owner is None:
        return Outcome()
    accepted = bool(message.get("accepted"))
    body = f"{_name(guest)} is coming." if accepted else f"{_name(guest)} can't make it."
    if message.get("message"):
        body += f" \u201c{message['message']}\u201d"
    reply = Push(INVITE_RSVP, str(message["id"]), event.title, body, event.id)
    outcome = _deliver([(owner, reply)], "notify_invite_rsvp")
    if accepted and event.total_spots and event.spots_filled >= event.total_spots:
        full = Push.once_per_event(EVENT_FULL, event, f"All {event.total_spots} spots are taken.")
        outcome += _deliver([(owner, full)], "notify_event_full")
    return outcome


def _on_contact_joined(message: dict) -> Outcome:
    joiner = get_user(int(message["user_id"]))
    if joiner is None or not joiner.is_active:
        return Outcome()
    phone = joiner.phone_number
    keepers = sorted(
        {user_id_of(item["pk"]) for item in index_keys(UsersTable, "favorites_by_phone", phone)} - {joiner.id}
    )
    # each keeper's profile (flags) and favorite (the name they gave the number): one BatchGetItem per 50
    keys = [key for uid in keepers for key in ((user_pk(uid), PROFILE_SK), (user_pk(uid), favorite_sk(phone)))]
    found: dict[str, dict] = {}
    for item in batch_get(UsersTable, keys):
        found.setdefault(item.pk, {})[item.sk] = item
    service = get_settings().service_name
    pairs = []
    for uid in keepers:
        items = found.get(user_pk(uid), {})
        user, favorite = items.get(PROFILE_SK), items.get(favorite_sk(phone))
        if not isinstance(user, User):
            continue
        name = (favorite.contact_name if isinstance(favorite, Favorite) else "") or joiner.full_name or phone
        push = Push(CONTACT_JOINED, str(joiner.id), service, f"{name} joined {service}.", extra={"user_id": joiner.id})
        pairs.append((user, push))
    return _deliver(pairs, "notify_contact_joined")


def _on_event_changed(message: dict) -> Outcome:
    view = _view(message["event_id"])
    if view is None:
        return Outcome()
    event = view.event
    left_out = set(message.get("exclude", []))  # invited by the same edit: they get new_invite
    ids = [uid for uid in _guest_ids(view) if uid not in left_out]
    users = get_users([*ids, event.owner_id])
    words = [FIELD_WORDS.get(name, name) for name in message.get("fields", [])]
    what = ", ".join(dict.fromkeys(words)) or "details"
    body = f"{_name(users.get(event.owner_id))} changed the {what}."
    push = Push(EVENT_CHANGED, str(message["id"]), event.title, body, event.id)
    return _deliver([(users[uid], push) for uid in ids if uid in users], "notify_event_change")


def _on_event_cancelled(message: dict) -> Outcome:
    """Flags every invitation cancelled (the part of cancel taken off the request), then tells the
    invitees. Nothing when the event is not cancelled (a message about a cancel that failed)."""
    view = _view(message["event_id"], live=False)
    if view is None or not view.event.cancelled:
        return Outcome()
    flag_invitations_cancelled(view)
    return cancel_notices(view)


def cancel_notices(view: EventView, owner_name: str | None = None) -> Outcome:
    """The ``event_cancelled`` push to each guest of a cancelled event, once. ``owner_name`` stands in for
    the owner's profile when it is gone already (an account being deleted)."""
    event = view.event
    ids = _guest_ids(view)
    users = get_users([*ids, event.owner_id])
    name = owner_name or _name(users.get(event.owner_id))
    push = Push.once_per_event(EVENT_CANCELLED, event, f"{name} cancelled the event.")
    return _deliver([(users[uid], push) for uid in ids if uid in users], "notify_event_change")


def _on_upcoming_event(message: dict) -> Outcome:
    view = _view(message["event_id"])
    if view is None or view.event.date_key != message.get("date_key") or view.event.event_date <= utcnow():
        return Outcome()  # cancelled, moved (the new date has its own reminder) or over
    event = view.event
    ids = [event.owner_id] + [inv.user_id for inv in view.invitations if inv.role == GUEST and inv.has_accepted is True]
    users = get_users(ids)
    push = Push.once_per_event(
        UPCOMING_EVENT, event, f"Starts {_when(event)}.", occurrence=f"{event.id}@{event.date_key.partition('#')[0]}"
    )
    outcome = _deliver([(users[uid], push) for uid in ids if uid in users], "notify_upcoming_event")
    if not outcome.failed:
        # reminded: out of the ``upcoming`` index, unless the date moved meanwhile
        try:
            event.update(actions=[Event.remind_day.remove()], condition=Event.date_key == message["date_key"])
        except UpdateError as exc:
            if not condition_failed(exc):
                raise
    return outcome


def _account_handler(kind):
    """Account deletion and data export share this queue; their handlers live with their rules."""
    from chalicelib.services import account_deletion, data_export

    return {**account_deletion.QUEUE_HANDLERS, **data_export.QUEUE_HANDLERS}.get(kind)


_HANDLERS = {
    NEW_INVITE: _on_new_invite,
    INVITE_RSVP: _on_invite_rsvp,
    CONTACT_JOINED: _on_contact_joined,
    EVENT_CHANGED: _on_event_changed,
    EVENT_CANCELLED: _on_event_cancelled,
    UPCOMING_EVENT: _on_upcoming_event,
}


# --------------------------------------------------------------------------- delivery


def _deliver(pairs: list[tuple[User, Push]], flag: str) -> Outcome:
    """Each push to every device of its user, for active users whose ``flag`` is on, once."""
    wanted = [(user, push) for user, push in pairs if user.is_active and getattr(user, flag)]
    total = Outcome()
    for outcome in parallel_map(lambda pair: _deliver_to_user(*pair), wanted):
        total += outcome
    return total


def _deliver_to_user(user: User, push: Push) -> Outcome:
    outcome = Outcome()
    for device in devices.user_devices(user.id):
        token = device_token_of(device.sk)
        claim = _claim(sent_pk(push.kind, push.occurrence, user.id, token), push.expires_at)
        if claim is None:
            outcome.duplicates += 1
            continue
        try:
            notify.send_push(device.endpoint_arn, user.id, push.title, push.body, push.data())
        except Exception as exc:  # noqa: BLE001 - sorted out below
            if _endpoint_gone(exc):
                try:
                    devices.forget_endpoint(device)
                except Exception:  # noqa: BLE001 - retried with the message
                    log.warning("could not forget a disabled endpoint of user %s", user.id)
                    _release(claim)
                    outcome.failed += 1
                    continue
                log.info("removed a disabled push endpoint of user %s", user.id)
                outcome.removed_endpoints += 1
                continue  # the claim stays: there is nothing left to send to
            log.warning("push %s to user %s failed: %s", push.kind, user.id, _error_code(exc))
            _release(claim)
            outcome.failed += 1
            continue
        _mark_sent(claim)
        outcome.sent += 1
    return outcome


def _error_code(exc: BaseException) -> str:
    response = getattr(exc, "response", None) or {}
    return response.get("Error", {}).get("Code") or type(exc).__name__


def _endpoint_gone(exc: BaseException) -> bool:
    """SNS says the endpoint is disabled (APNS dropped the token) or does not exist."""
    response = getattr(exc, "response", None)
    if not isinstance(response, dict):
        return False
    error = response.get("Error", {})
    code, text = error.get("Code", ""), (error.get("Message") or "").lower()
    if code in ("EndpointDisabled", "EndpointDisabledException", "NotFound", "NotFoundException"):
        return True
    return code in ("InvalidParameter", "InvalidParameterException") and ("endpoint" in text or "targetarn" in text)


def _claim(key: str, expires_at: datetime | None) -> SentNotification | None:
    """Take the key; None when a delivery already sent it, or is sending it within its lease."""
    now = int(time.time())
    lease = get_settings().notification_lease_seconds
    claim = SentNotification(
        key,
        state=SENDING,
        nonce=secrets.token_hex(8),
        claimed_at=now,
        expires_at=expires_at or timedelta(days=CLAIM_DAYS),
    )
    stale = (SentNotification.state == SENDING) & (SentNotification.claimed_at < now - lease)
    try:
        claim.save(condition=SentNotification.pk.does_not_exist() | stale)
    except PutError as exc:
        if condition_failed(exc):
            return None
        raise
    return claim


def _release(claim: SentNotification) -> None:
    """Give the key back after a failed publish, so the redelivery sends it."""
    try:
        claim.delete(condition=SentNotification.nonce == claim.nonce)
    except Exception:  # noqa: BLE001 - then the lease runs out and the redelivery takes it over
        log.warning("could not release a push claim")


def _mark_sent(claim: SentNotification) -> None:
    try:
        claim.update(actions=[SentNotification.state.set(SENT)], condition=SentNotification.nonce == claim.nonce)
    except Exception:  # noqa: BLE001 - the push went out; a "sending" claim still blocks for its lease
        log.warning("could not mark a push claim sent")
