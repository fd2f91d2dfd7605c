"""Texts that keep guests without the app in the loop when the owner changes or cancels an event.

Guests without the app (no completed login) who have not declined are texted; app users get their push.

- Change of date/time or place: the first edit of a burst is held (``HELD#<event>``, with what the event
  said before it) and a ``change_texts_due`` message is queued with a delay, so it arrives ten minutes after
  that first edit; later edits of the burst add nothing. When it arrives, each guest whose last text (or,
  without one, the burst's "before") differs from the event now gets one text with the final state.
  Between 21:00 and 08:00 in the event's zone it waits (in delayed hops of at most 15 minutes) until
  08:00, unless the event starts within 12 hours. At most CHANGE_TEXTS_PER_GUEST_PER_DAY (3) change
  texts per guest per event per local day.
- A guest who may not see the place (``place_visibility``, domain/visibility.py) is told the time alone, and
  nothing when only the place changed.
- Cancellation: texted at once by the queue handler of the cancel (or of the owner's account deletion);
  a held burst is then dropped.

Every text is claimed first (``SENT#<type>#<occurrence>#<user>#sms``), so a redelivered message texts
nobody twice; the stop list, the carrier's opt-out list and the owner's hourly quota apply.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import datetime, timedelta
from types import SimpleNamespace

from chalicelib import localtime
from chalicelib.config import get_settings
from chalicelib.domain import visibility
from chalicelib.domain.recurrence import Cadence
from chalicelib.invite_links import hash_code, link_url, new_code
from chalicelib.languages import dates
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.messaging import sms_segments
from chalicelib.messaging.notifications import queueing
from chalicelib.messaging.notifications.kinds import handles, kind_named, queue_kind
from chalicelib.messaging.notifications.messages import Outcome, RetryLater, event_expiry
from chalicelib.services.texts import text_outbox
from chalicelib.services.texts.host_label import host_label
from chalicelib.services.texts.invitation_texts import allowed_now, owner_quota_key, reachable
from chalicelib.services.texts.repeat_words import from_when
from chalicelib.services.texts.text_language import words_for
from chalicelib.services.texts.text_wording import ending, place_line, segment_limits, shown_title
from chalicelib.store import claims, guest_notices
from chalicelib.store.events import GUEST, EventView, load_partition
from chalicelib.store.users import get_users
from chalicelib.timeutil import utcnow

# Change texts held for a burst of edits or for quiet hours
CHANGE_TEXTS_DUE = queue_kind("change_texts_due")
# Queue kinds handled elsewhere (each declared with its handler); here they name texts and their claims
EVENT_CANCELLED = kind_named("event_cancelled")

log = logging.getLogger("invites")

CHANGE_TEXT = "event_changed_sms"  # the claim's type of a change text
SMS_DEVICE = "sms"
BURST_SECONDS = 600
MAX_QUEUE_DELAY = 900  # SQS's longest DelaySeconds
QUIET_FROM, QUIET_UNTIL = 21, 8  # local hours
CLOSE_START = timedelta(hours=12)
# Edited fields that change what a change text says.
TEXTED_FIELDS = frozenset({"event_date", "is_time_specified", "location", "address", "venue_name", "online_url"})
# Translators: {title} is the event's, {when} its new date and time; the link and the opt-out words follow.
CHANGED = N_('{service}: "{title}" is now {when}.')
# Translators: as above, with {place} the event's place (its name and address, or "online").
CHANGED_WITH_PLACE = N_('{service}: "{title}" is now {when}, {place}.')
# Translators: {name} is the host's, {when} the date the event was on; the opt-out words follow.
CANCELLED = N_('{service}: {name} cancelled "{title}" ({when}).')


def told_state(seen: visibility.SeenEvent) -> str:
    """What a change text tells the viewer of ``seen`` about the event: when it is and where (when they may
    see the place), as one comparable string."""
    event, place = seen.event, seen.place
    where = []
    if place is not None:
        where = [place.venue_name, place.address]
        if seen.online_url:
            where.append(seen.online_url)
        if place.location is not None:
            where.append(f"{place.location.latitude},{place.location.longitude}")
    return json.dumps([event.event_date.isoformat(), bool(event.is_time_specified), where])


def told_in_full(view: EventView) -> str:
    """:func:`told_state` as the owner sees the event (all of it): what it said before an edit."""
    return told_state(visibility.as_seen(view.event, view.invitation_of(view.event.owner_id)))


def without_place(state: str) -> str:
    """A ``told_state`` as told to someone who may not see the place."""
    when, timed, _where = json.loads(state)
    return json.dumps([when, timed, []])


def change_text(seen: visibility.SeenEvent, link: str, said: Words | None = None) -> str:
    """``<service>: "<title>" is now <when>[, <place>]. <link> Reply STOP to opt out.`` in the person's words
    (``said``; English by default). The place is cut before the title (neither below its minimum), within the
    invitation texts' segment limits; left out for a guest who may not see it."""
    event, said = seen.event, said or words(None)
    service = get_settings().service_name
    place = place_line(seen.place, seen.online_url, said) if seen.place else ""
    after = ending(said, link)

    def wording(when: str) -> sms_segments.Template:
        if place:
            return lambda where, title: (
                said._(CHANGED_WITH_PLACE, service=service, title=title, when=when, place=where) + after
            )
        return lambda _where, title: said._(CHANGED, service=service, title=title, when=when) + after

    whens = (dates.short_when(event, said.language), dates.short_when(event, said.language, weekday=False))
    return sms_segments.fit([wording(when) for when in whens], place, shown_title(event.title, said), segment_limits())


def cancel_text(owner_name: str, event, series_words: Cadence | str = "", said: Words | None = None) -> str:
    """``<service>: <name> cancelled "<title>" (<when>). Reply STOP to opt out.`` in the person's words, cut like
    an invitation; for a series' dates from this one on, ``(<series words> from <when>)``: its cadence in the
    person's words (old English words as they came)."""
    service, said = get_settings().service_name, said or words(None)
    after = ending(said)

    def wording(when: str) -> sms_segments.Template:
        when = from_when(series_words, when, said)
        return lambda who, title: said._(CANCELLED, service=service, name=who, title=title, when=when) + after

    whens = (dates.short_when(event, said.language), dates.short_when(event, said.language, weekday=False))
    return sms_segments.fit(
        [wording(when) for when in whens], owner_name, shown_title(event.title, said), segment_limits()
    )


def sender_name(owner) -> str:
    """The host as the texts name them: the same label as the guest page (services/texts/host_label.py)."""
    return host_label(owner)


def _guests_without_app(view: EventView) -> tuple[dict, list]:
    """(users by id, guests without the app who have not declined)."""
    ids = [inv.user_id for inv in view.invitations if inv.role == GUEST and inv.has_accepted is not False]
    users = get_users([*ids, view.event.owner_id])
    return users, [users[uid] for uid in ids if uid in users and not users[uid].is_active]


def send_claimed(owner, event, people: list, kind: str, occurrence: str, word, *, allowed=allowed_now) -> tuple:
    """Claim, check and send one text per person (``word(person)`` gives it) through the text outbox; returns
    (texted, failed): texted are those SNS took or whose text the outbox will try again, failed those to try
    again with the caller's message. Those the stop list, the opt-out list or the quota (``allowed``, charging
    the owner's hourly quota) leave out are marked done: no retry texts them."""
    lease = get_settings().notification_lease_seconds
    claimed = {}
    for person in people:
        key = claims.claim_key(kind, occurrence, person.id, SMS_DEVICE)
        claim = claims.claim_delivery(key, event_expiry(event), lease)
        if claim is not None:
            claimed[person.id] = (person, claim)
    if not claimed:
        return [], 0
    now = time.time()
    try:
        chosen = {person.id for person in allowed(owner, reachable([person for person, _ in claimed.values()]), now)}
    except Exception:  # noqa: BLE001 - the checks failed: nobody texted, the queue tries again
        log.warning("%s texts not sent: the stop list or the opt-out check failed", kind)
        for _, claim in claimed.values():
            claims.release_claim(claim)
        return [], len(claimed)
    quota = (owner_quota_key(owner, now),)
    texted, failed = [], 0
    for person, claim in claimed.values():
        if person.id not in chosen:
            text_outbox.not_sending(claim)
            continue
        try:
            body = word(person)
        except Exception:  # noqa: BLE001 - its link could not be written: the queue delivers the message again
            claims.release_claim(claim)
            failed += 1
            continue
        text = text_outbox.Text(
            kind, occurrence, event.id, person.id, person.phone_number, body, event_expiry(event), quota
        )
        outcome = text_outbox.send_held(claim, text)
        if outcome in (text_outbox.SENT, text_outbox.QUEUED):
            texted.append(person)
        elif outcome == text_outbox.NOT_QUEUED:
            failed += 1
    return texted, failed


def fresh_link(event_id: int, user_id: int) -> str:
    """A new link to the guest's page for a text (its hash kept as the invitation's ``notice_link_hash``;
    the invitation's own link keeps working); "" without a public base URL."""
    if not get_settings().public_base_url:
        return ""
    code = new_code(event_id)
    guest_notices.set_notice_link(event_id, user_id, hash_code(code))
    return link_url(code)


def text_cancelled(view: EventView, owner_name: str | None = None, series_words: Cadence | str = "") -> Outcome:
    """The cancellation text to each guest without the app who had not declined, once; drops a held burst."""
    event = view.event
    held = guest_notices.held_burst(event.id)
    if held is not None:
        guest_notices.end_burst(event.id, held.first_edit_at)
    users, people = _guests_without_app(view)
    owner = users.get(event.owner_id) or SimpleNamespace(id=event.owner_id)
    name = owner_name or sender_name(users.get(event.owner_id))

    def word(person) -> str:
        return cancel_text(name, event, series_words, words_for(person))

    texted, failed = send_claimed(owner, event, people, EVENT_CANCELLED, str(event.id), word)
    return Outcome(sent=len(texted), failed=failed)


def hold_change(message: dict) -> None:
    """From an ``event_changed`` message: start a burst unless one is held, and queue its delayed due message.
    Raises RetryLater when that message could not be queued (the burst is dropped, the edit's message comes back)."""
    if not TEXTED_FIELDS & set(message.get("fields", [])) or "before" not in message:
        return
    event_id = int(message["event_id"])
    first = int(message.get("at") or utcnow().timestamp())
    if not guest_notices.hold_burst(event_id, first, message["before"], utcnow() + timedelta(days=2)):
        return
    delay = max(0, min(MAX_QUEUE_DELAY, first + BURST_SECONDS - int(utcnow().timestamp())))
    # those the edit invited got the invitation text with the event as it is: no change text for that edit
    due = {"event_id": event_id, "burst": first, "before": message["before"], "delay_seconds": delay}
    if message.get("exclude"):
        due["exclude"] = list(message["exclude"])
    if not queueing.enqueue(CHANGE_TEXTS_DUE, **due):
        guest_notices.end_burst(event_id, first)
        raise RetryLater(f"change texts of event {event_id} not queued")


def _quiet_wait(event, now: datetime) -> int:
    """Seconds until 08:00 in the event's zone when ``now`` is in its quiet hours and the event does not
    start within 12 hours; else 0."""
    local = now.astimezone(localtime.zone_of(event))
    if QUIET_UNTIL <= local.hour < QUIET_FROM:
        return 0
    if timedelta(0) <= event.event_date - now <= CLOSE_START:
        return 0
    morning = local.replace(hour=QUIET_UNTIL, minute=0, second=0, microsecond=0)
    if local.hour >= QUIET_FROM:
        morning = (local + timedelta(days=1)).replace(hour=QUIET_UNTIL, minute=0, second=0, microsecond=0)
    return max(1, int((morning - local).total_seconds()))


@handles(CHANGE_TEXTS_DUE)
def send_held_changes(message: dict) -> Outcome:
    """A burst's due message: one change text per guest whose last news differs from the event now."""
    event_id, burst = int(message["event_id"]), int(message["burst"])
    view = load_partition(event_id)
    if view is None or view.event.cancelled:
        guest_notices.end_burst(event_id, burst)
        return Outcome()
    event, now = view.event, utcnow()
    wait = _quiet_wait(event, now)
    if wait:
        later = {key: message[key] for key in ("event_id", "burst", "before", "exclude") if key in message}
        if not queueing.enqueue(CHANGE_TEXTS_DUE, **later, delay_seconds=min(MAX_QUEUE_DELAY, wait)):
            raise RetryLater(f"change texts of event {event_id} not put off")
        return Outcome()
    guest_notices.end_burst(event_id, burst)  # edits from now on start the next burst
    users, people = _guests_without_app(view)
    owner = users.get(event.owner_id)
    if owner is None:
        return Outcome()
    seen = {person.id: visibility.as_seen(event, view.invitation_of(person.id)) for person in people}
    states = {person.id: told_state(seen[person.id]) for person in people}
    day = now.astimezone(localtime.zone_of(event)).date().isoformat()
    told = guest_notices.told(event_id, [person.id for person in people])
    due, counts = [], {}
    invited_by_the_edit = set(message.get("exclude", []))
    for person in people:
        if person.id in invited_by_the_edit:
            continue
        last = told.get(person.id)
        before = last.told if last else message["before"]
        if seen[person.id].place is None:
            before = without_place(before)  # a change of the place alone is no news to them
        if before == states[person.id]:
            continue  # an edit put back what they were told
        counts[person.id] = last.count if last and last.day == day else 0
        if counts[person.id] < get_settings().change_texts_per_guest_per_day:
            due.append(person)

    def word(person) -> str:
        return change_text(seen[person.id], fresh_link(event_id, person.id), words_for(person))

    texted, failed = send_claimed(owner, event, due, CHANGE_TEXT, f"{event_id}@{burst}", word)
    for person in texted:
        told_now, count = states[person.id], counts[person.id] + 1
        guest_notices.record_told(event_id, person.id, told_now, day, count, event_expiry(event))
    return Outcome(sent=len(texted), failed=failed)
