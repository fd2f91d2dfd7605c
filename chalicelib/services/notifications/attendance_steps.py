"""The steps due before an event's start (domain/attendance_steps.py), run from the queue: the hourly schedule
finds the due ones (store/due_steps.py, one Query per day) and queues one ``due_step`` message each.

- ``reminder``: going guests without the app get the reminder text (app users keep the ``upcoming_event``
  push), with the place only where domain/visibility.py lets them see it.
- ``confirm``: going parties are asked "still coming?": a push to app users, a text to the others.
- ``release``: with someone waiting, the parties that did not confirm are moved to the head of the line
  (services/replies/attendance.py) and told.

Each text or push is claimed per person, kind and event before it goes (guest_texts.send_claimed, push
delivery), so a re-run of the hourly job or a redelivered message sends nothing twice; the stop list, the
carrier's opt-out list, the owner's hourly quota and the month's text budget apply. A step is taken out of the
index only once nothing of it failed; until then every hourly run queues it again. Nothing is sent in the quiet
hours of the event's zone (the step waits for the first run after them), after a cancellation or after the start.
"""

from __future__ import annotations

from datetime import datetime

from chalicelib import localtime
from chalicelib.domain import attendance_steps, visibility
from chalicelib.domain.attendance_steps import CONFIRM, RELEASE, REMINDER
from chalicelib.languages.catalogues import N_
from chalicelib.messaging.notifications import queueing
from chalicelib.messaging.notifications.kinds import handles, queue_kind
from chalicelib.messaging.notifications.messages import Outcome, Push, event_expiry
from chalicelib.messaging.notifications.push_words import PushWords
from chalicelib.services.push.push_delivery import deliver
from chalicelib.services.replies import attendance
from chalicelib.services.texts import attendance_texts, text_outbox
from chalicelib.services.texts.guest_texts import SMS_DEVICE, fresh_link, send_claimed
from chalicelib.services.texts.text_language import words_for
from chalicelib.store import due_steps
from chalicelib.store.claims import claim_key
from chalicelib.store.events import GUEST, EventView, load_partition
from chalicelib.store.users import get_users
from chalicelib.timeutil import utcnow

# A step due before an event's start: the reminder text, "still coming?" and the release of unconfirmed spots
DUE_STEP = queue_kind("due_step")

# The claims' kinds: one text, and one push, per person per event and kind.
TEXT_KINDS = {REMINDER: text_outbox.REMINDER, CONFIRM: text_outbox.STILL_COMING, RELEASE: text_outbox.RELEASED}
PUSH_KINDS = {CONFIRM: "still_coming", RELEASE: "released"}
LOOKBACK_DAYS = 2  # a step left waiting (a run missed, quiet hours) is found again for this long
PUSH_FLAG = "notify_upcoming_event"


def enqueue_due_steps(now: datetime | None = None) -> int:
    """Queue one ``due_step`` message per step due by ``now``: one Query per UTC day from LOOKBACK_DAYS back.
    Returns how many."""
    now = now or utcnow()
    messages = [
        {"type": DUE_STEP, "event_id": event_id, "step": step, "due_key": key}
        for day in due_steps.days_back(now, LOOKBACK_DAYS)
        for event_id, step, key in due_steps.due_until(day, now)
    ]
    queueing.send_many(messages)
    return len(messages)


@handles(DUE_STEP)
def run_due_step(message: dict) -> Outcome:
    event_id, step, key = int(message["event_id"]), message["step"], message["due_key"]
    view = load_partition(event_id)
    if view is None:
        return Outcome()
    event, now = view.event, utcnow()
    due = attendance_steps.due_times(event).get(step)
    if due is None or due_steps.due_key(due, event_id) != key:
        return Outcome()  # turned off or moved by an edit, which wrote the step's new item
    if event.cancelled or event.event_date <= now:
        due_steps.done(event_id, step, key)
        return Outcome()
    if step != RELEASE and attendance_steps.is_quiet(now, localtime.zone_of(event)):
        return Outcome()  # still in the index: the first hourly run after the quiet hours sends it
    outcome = _RUNS[step](view, now)
    if not outcome.failed:
        due_steps.done(event_id, step, key)
    return outcome


def _going(view: EventView) -> list:
    return [inv for inv in view.invitations if inv.role == GUEST and inv.has_accepted is True and not inv.wait_key]


def _tell(view: EventView, user_ids: list[int], step: str, word, push_body: PushWords | None) -> Outcome:
    """A push (``push_body``) to those of ``user_ids`` with the app, the text ``word(event, link, person)`` to
    the others, each once."""
    event = view.event
    users = get_users([*user_ids, event.owner_id])
    owner = users.get(event.owner_id)
    outcome = Outcome()
    if push_body is not None:
        push = Push(PUSH_KINDS[step], str(event.id), event.title, push_body, event.id, event_expiry(event))
        outcome += deliver([(users[uid], push) for uid in user_ids if uid in users], PUSH_FLAG)
    people = [users[uid] for uid in user_ids if uid in users and not users[uid].is_active]
    if owner is None or not people:
        return outcome
    texted, failed = send_claimed(
        owner,
        event,
        people,
        TEXT_KINDS[step],
        str(event.id),
        lambda person: word(fresh_link(event.id, person.id), person),
    )
    told = {person.id for person in texted}
    held = [claim_key(TEXT_KINDS[step], str(event.id), p.id, SMS_DEVICE) for p in people if p.id not in told]
    # a claim still "sending" is a worker's that may have died: the step stays due until its lease runs out
    outcome += Outcome(sent=len(texted), failed=failed + due_steps.still_sending(held))
    return outcome


def _remind(view: EventView, now: datetime) -> Outcome:
    event = view.event
    sees_place = {inv.user_id: visibility.seen_by(event, inv).place for inv in _going(view)}

    def word(link: str, person) -> str:
        said = words_for(person)
        return attendance_texts.reminder_text(event, link, now, with_place=sees_place[person.id], said=said)

    return _tell(view, list(sees_place), REMINDER, word, None)


def _ask(view: EventView, _now: datetime) -> Outcome:
    event = view.event
    asked = [inv.user_id for inv in _going(view) if inv.attendance_confirmed is None]

    def word(link: str, person) -> str:
        return attendance_texts.still_coming_text(event, link, words_for(person))

    said = PushWords("push.still_coming", N_("Still coming? Confirm, or free your spot for someone waiting."))
    return _tell(view, asked, CONFIRM, word, said)


def _release(view: EventView, _now: datetime) -> Outcome:
    event = view.event
    if not int(event.waiting_count or 0):
        return Outcome()  # nobody waiting: every party keeps its spot
    released = attendance.release_unconfirmed(view, event.owner_id)  # after a crash: those of the last run too

    def word(link: str, person) -> str:
        return attendance_texts.released_text(event, link, words_for(person))

    said = PushWords("push.released", N_("We gave your spot to someone waiting, since we didn't hear back."))
    return _tell(view, released.waiting, RELEASE, word, said)


_RUNS = {REMINDER: _remind, CONFIRM: _ask, RELEASE: _release}
