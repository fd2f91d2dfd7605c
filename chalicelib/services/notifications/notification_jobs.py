"""The queue's notification jobs: who gets which push for each message type, and its wording.

| message           | recipients                          | flag                    | once per                 |
|-------------------|-------------------------------------|-------------------------|--------------------------|
| ``new_invite``    | the invitees named (active only)    | ``notify_new_invite``   | event, invitee           |
| ``invite_rsvp``   | the owner                           | ``notify_invite_rsvp``  | message, owner           |
|  (event full)     | the owner, when an accept filled it | ``notify_event_full``   | event, owner             |
| ``contact_joined``| users keeping the number as favorite| ``notify_contact_joined``| joiner, recipient       |
| ``event_changed`` | the invitees (not the owner)*       | ``notify_event_change`` | message, invitee         |
| ``event_cancelled``| the invitees; also flags invitations| ``notify_event_change``| event, invitee           |
| ``upcoming_event``| owner and accepted invitees         | ``notify_upcoming_event``| event and its date, attendee |
| ``waitlist_promoted``| the guests seated from the waitlist | ``notify_event_change`` | event, guest             |
| ``change_texts_due``| guests without the app, not declined | (texts: guest_texts.py) | burst, guest           |
| ``waitlist_dropped``| waiting guests whose party no longer fits| ``notify_event_change`` | event, guest         |

News goes only as far as each recipient may see the event (domain/visibility.py): ``invite_rsvp`` names a
guest only to those who may see that guest's row; (*) an ``event_changed`` push names no change of the place
to a guest who may not see it, and is not sent when the place was all that changed.

Invitees without an account (``is_active`` false) get the SMS invitation from the request instead
(services/hosting/events.py); pushes skip them, so nobody gets both. A promoted guest without an account is
texted by the queue handler (a link to their page), once: behind a claim like a push's. Changes and
cancellations reach guests without the app by text (guest_texts.py).
"""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.domain import visibility
from chalicelib.domain.recurrence import Cadence
from chalicelib.languages import dates
from chalicelib.languages.catalogues import ENGLISH, N_
from chalicelib.languages.catalogues import words as words_in
from chalicelib.messaging.notifications.kinds import handles, queue_kind
from chalicelib.messaging.notifications.messages import EVENT_FULL, FIELD_WORDS, Outcome, Push
from chalicelib.messaging.notifications.push_words import PushWords, Value
from chalicelib.services.push.push_delivery import deliver
from chalicelib.services.texts import guest_texts, repeat_words
from chalicelib.services.texts.promotion_texts import text_dropped, text_promoted
from chalicelib.store import favorites
from chalicelib.store.events import GUEST, EventView, flag_invitations_cancelled, load_partition, mark_reminded
from chalicelib.store.users import get_user, get_users
from chalicelib.timeutil import utcnow

# The notifications: each kind's value is also the push type of its pushes
NEW_INVITE = queue_kind("new_invite")
INVITE_RSVP = queue_kind("invite_rsvp")
CONTACT_JOINED = queue_kind("contact_joined")
EVENT_CHANGED = queue_kind("event_changed")
EVENT_CANCELLED = queue_kind("event_cancelled")
UPCOMING_EVENT = queue_kind("upcoming_event")
WAITLIST_PROMOTED = queue_kind("waitlist_promoted")
WAITLIST_DROPPED = queue_kind("waitlist_dropped")
JOIN_REQUESTED = queue_kind("join_requested")


def _name(user) -> str:
    if user is None:
        return "Someone"
    return user.full_name or user.phone_number


def _when(event) -> str:
    return event.event_date.strftime("%b %d, %Y at %H:%M UTC" if event.is_time_specified else "%b %d, %Y")


def _when_in(event) -> Value:
    """The date as a push says it: English as it always did, every other language in its own forms and the
    event's zone."""
    return lambda language: _when(event) if language == ENGLISH else dates.short_when(event, language)


def _view(event_id: int, *, live: bool = True) -> EventView | None:
    view = load_partition(int(event_id))
    if view is None or (live and view.event.cancelled):
        return None
    return view


def _guest_ids(view: EventView) -> list[int]:
    return [inv.user_id for inv in view.invitations if inv.role == GUEST]


@handles(NEW_INVITE)
def _new_invite(message: dict) -> Outcome:
    view = _view(message["event_id"])
    if view is None:
        return Outcome()
    event = view.event
    invited = set(_guest_ids(view))
    ids = [uid for uid in message.get("user_ids", []) if uid in invited]
    users = get_users([*ids, event.owner_id])
    said = PushWords(
        "push.new_invite",
        N_("{name} invited you: {when}."),
        {"name": _name(users.get(event.owner_id)), "when": _when_in(event)},
    )
    push = Push.once_per_event(NEW_INVITE, event, said)
    return deliver([(users[uid], push) for uid in ids if uid in users], "notify_new_invite")


@handles(INVITE_RSVP)
def _invite_rsvp(message: dict) -> Outcome:
    view = _view(message["event_id"])
    if view is None:
        return Outcome()
    event = view.event
    users = get_users([event.owner_id, message["actor_id"]])
    owner, guest = users.get(event.owner_id), users.get(message["actor_id"])
    if owner is None:
        return Outcome()
    accepted = bool(message.get("accepted"))
    values = {"name": _name(guest), "message": message.get("message") or ""}
    if values["message"]:
        said = (
            PushWords("push.coming_with_message", N_("{name} is coming. \u201c{message}\u201d"), values)
            if accepted
            else PushWords("push.not_coming_with_message", N_("{name} can't make it. \u201c{message}\u201d"), values)
        )
    else:
        said = (
            PushWords("push.coming", N_("{name} is coming."), values)
            if accepted
            else PushWords("push.not_coming", N_("{name} can't make it."), values)
        )
    reply = Push(INVITE_RSVP, str(message["id"]), event.title, said, event.id)
    told = [owner] if _sees_row_of(view, owner.id, message["actor_id"]) else []
    outcome = deliver([(person, reply) for person in told], "notify_invite_rsvp")
    if accepted and event.total_spots and event.spots_filled >= event.total_spots:
        said = PushWords("push.event_full", N_("All {count} spots are taken."), {"count": str(event.total_spots)})
        full = Push.once_per_event(EVENT_FULL, event, said)
        outcome += deliver([(owner, full)], "notify_event_full")
    return outcome


def _sees_row_of(view: EventView, viewer_id: int, person_id: int) -> bool:
    """Whether ``viewer_id`` may see ``person_id`` in the event's guest list: news of a person's answer goes
    only to those (domain/visibility.py)."""
    row = view.invitation_of(person_id)
    return row is None or visibility.seen_by(view.event, view.invitation_of(viewer_id)).sees_row(row)


def _sees_place(view: EventView, user_id: int) -> bool:
    return visibility.as_seen(view.event, view.invitation_of(user_id)).place is not None


def _change_words(fields: list[str], *, with_place: bool) -> str | None:
    """The changed fields as a person names them; without the place's for someone who may not see it (None
    when nothing else changed: no news for them)."""
    hidden = visibility.PLACE_FIELDS | visibility.SEEN_FIELDS  # the place, and the online link shown as it is
    shown = [name for name in fields if with_place or name not in hidden]
    if fields and not shown:
        return None
    return ", ".join(dict.fromkeys(FIELD_WORDS.get(name, name) for name in shown)) or "details"


def _changed_in(what: str) -> Value:
    """The changed fields' words (``date, venue``) in a language: each one the catalogues name."""

    def in_language(language: str) -> str:
        if language == ENGLISH:
            return what
        said = words_in(language)
        named = {
            "address": said._p("changed field", "address"),
            "date": said._p("changed field", "date"),
            "location": said._p("changed field", "location"),
            "online link": said._p("changed field", "online link"),
            "time": said._p("changed field", "time"),
            "title": said._p("changed field", "title"),
            "venue": said._p("changed field", "venue"),
            "details": said._p("changed field", "details"),
        }
        return ", ".join(named.get(word, word) for word in what.split(", "))

    return in_language


@handles(CONTACT_JOINED)
def _contact_joined(message: dict) -> Outcome:
    joiner = get_user(int(message["user_id"]))
    if joiner is None or not joiner.is_active:
        return Outcome()
    phone = joiner.phone_number
    keepers = [uid for uid in favorites.keeper_ids(phone) if uid != joiner.id]
    service = get_settings().service_name
    pairs = []
    for user, contact_name in favorites.keepers_with_names(keepers, phone):
        name = contact_name or joiner.full_name or phone
        said = PushWords("push.contact_joined", N_("{name} joined {service}."), {"name": name, "service": service})
        push = Push(CONTACT_JOINED, str(joiner.id), service, said, extra={"user_id": joiner.id})
        pairs.append((user, push))
    return deliver(pairs, "notify_contact_joined")


@handles(EVENT_CHANGED)
def _event_changed(message: dict) -> Outcome:
    view = _view(message["event_id"])
    if view is None:
        return Outcome()
    event = view.event
    left_out = set(message.get("exclude", []))  # invited by the same edit: they get new_invite
    ids = [uid for uid in _guest_ids(view) if uid not in left_out]
    users = get_users([*ids, event.owner_id])
    fields = message.get("fields", [])
    pushes = {}  # by whether the recipient sees the place
    for with_place in (True, False):
        what = _change_words(fields, with_place=with_place)
        values = {"name": _name(users.get(event.owner_id)), "what": _changed_in(what or "")}
        said = PushWords("push.event_changed", N_("{name} changed the {what}."), values)
        pushes[with_place] = (
            Push(EVENT_CHANGED, str(message["id"]), event.title, said, event.id) if what else None
        )
    told = [(users[uid], pushes[_sees_place(view, uid)]) for uid in ids if uid in users]
    outcome = deliver([(person, push) for person, push in told if push is not None], "notify_event_change")
    guest_texts.hold_change(message)  # guests without the app: one text per burst, later
    return outcome


@handles(EVENT_CANCELLED)
def _event_cancelled(message: dict) -> Outcome:
    """Flags every invitation cancelled (the part of cancel taken off the request), then tells the
    invitees. Nothing when the event is not cancelled (a message about a cancel that failed)."""
    view = _view(message["event_id"], live=False)
    if view is None or not view.event.cancelled:
        return Outcome()
    flag_invitations_cancelled(view)
    return cancel_notices(view, series_words=repeat_words.carried(message))


def cancel_notices(view: EventView, owner_name: str | None = None, series_words: Cadence | str = "") -> Outcome:
    """The ``event_cancelled`` push to each guest of a cancelled event, once. ``owner_name`` stands in for
    the owner's profile when it is gone already (an account being deleted); ``series_words`` (a cadence, or a
    message's old English words) say it is the dates of a series from this one on that are cancelled."""
    event = view.event
    ids = _guest_ids(view)
    users = get_users([*ids, event.owner_id])
    name = owner_name or _name(users.get(event.owner_id))
    said = PushWords("push.event_cancelled", N_("{name} cancelled the event."), {"name": name})
    push = Push.once_per_event(EVENT_CANCELLED, event, said)
    outcome = deliver([(users[uid], push) for uid in ids if uid in users], "notify_event_change")
    outcome += guest_texts.text_cancelled(view, owner_name, series_words)
    return outcome


@handles(UPCOMING_EVENT)
def _upcoming_event(message: dict) -> Outcome:
    view = _view(message["event_id"])
    if view is None or view.event.date_key != message.get("date_key") or view.event.event_date <= utcnow():
        return Outcome()  # cancelled, moved (the new date has its own reminder) or over
    event = view.event
    ids = [event.owner_id] + [inv.user_id for inv in view.invitations if inv.role == GUEST and inv.has_accepted is True]
    users = get_users(ids)
    push = Push.once_per_event(
        UPCOMING_EVENT,
        event,
        PushWords("push.upcoming_event", N_("Starts {when}."), {"when": _when_in(event)}),
        occurrence=f"{event.id}@{event.date_key.partition('#')[0]}",
    )
    outcome = deliver([(users[uid], push) for uid in ids if uid in users], "notify_upcoming_event")
    if not outcome.failed:
        mark_reminded(event, message["date_key"])  # out of the ``upcoming`` index, unless the date moved meanwhile
    return outcome


@handles(WAITLIST_PROMOTED)
def _waitlist_promoted(message: dict) -> Outcome:
    """The guests seated from the waitlist: a push to those with an account, a text with their page
    link to the others (within the invitation texts' limits)."""
    return _tell_waitlist_change(
        message,
        WAITLIST_PROMOTED,
        still_true=lambda inv: inv.has_accepted is True,
        words=lambda event: PushWords(
            "push.waitlist_promoted", N_("A spot opened: you're in! {when}."), {"when": _when_in(event)}
        ),
        text=text_promoted,
    )


@handles(WAITLIST_DROPPED)
def _waitlist_dropped(message: dict) -> Outcome:
    """Waiting guests taken out of the line because the owner made the event too small for their party:
    told like the promoted (a push, or a text with their page link), while they are still out of it."""
    return _tell_waitlist_change(
        message,
        WAITLIST_DROPPED,
        still_true=lambda inv: inv.has_accepted is False,
        words=lambda event: PushWords(
            "push.waitlist_dropped", N_("Too few spots for your party now: you're off the waitlist.")
        ),
        text=text_dropped,
    )


def _tell_waitlist_change(message: dict, kind: str, *, still_true, words, text) -> Outcome:
    """Tell the guests of ``message`` whose invitation still says what the change made of it (``still_true``):
    a push once per event to those with an account, a text with their page link to the others."""
    view = _view(message["event_id"])
    if view is None:
        return Outcome()
    event = view.event
    current = {inv.user_id for inv in view.invitations if inv.role == GUEST and still_true(inv)}
    ids = [int(uid) for uid in message.get("user_ids", []) if int(uid) in current]
    users = get_users([*ids, event.owner_id])
    push = Push.once_per_event(kind, event, words(event))
    outcome = deliver([(users[uid], push) for uid in ids if uid in users], "notify_event_change")
    links = {int(uid): link for uid, link in (message.get("links") or {}).items()}
    without_account = [users[uid] for uid in ids if uid in users and not users[uid].is_active and uid in links]
    owner = users.get(event.owner_id)
    if without_account and owner is not None:
        text(owner, event, without_account, links)
    return outcome


@handles(JOIN_REQUESTED)
def _join_requested(message: dict) -> Outcome:
    """Tell the hosts (owner and co-hosts) that someone asked to join by the link, once per asker."""
    view = _view(message["event_id"])
    if view is None:
        return Outcome()
    event = view.event
    hosts = [inv.user_id for inv in view.invitations if inv.role != GUEST or inv.cohost]
    asker_id = int(message["actor_id"])
    users = get_users([*hosts, asker_id])
    asker = users.get(asker_id)
    if asker is None:
        return Outcome()
    push = Push.once_per_event(
        JOIN_REQUESTED,
        event,
        PushWords("push.join_requested", N_("{name} asked to join."), {"name": _name(asker)}),
        occurrence=f"{event.id}:{asker_id}",
    )
    return deliver([(users[uid], push) for uid in hosts if uid in users], "notify_invite_rsvp")
