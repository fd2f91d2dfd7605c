"""Invitations: a guest's reply, marking one seen, new invitations added to an event, and a person's
invitations by date through the ``by_user`` index (lists, timeline, stats). Invitation items live in
their event's partition (``EVENT#<id>``/``INV#<user id>``); the event side is in store/events.py."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from datetime import datetime

from chalicelib.models.base import transact_write
from chalicelib.models.events import (
    GUEST,
    INVITATION_PREFIX,
    META_SK,
    Event,
    EventsTable,
    Invitation,
    event_pk,
    invitation_sk,
)
from chalicelib.models.events import date_of_key as date_of_key  # a date key's date, for the services
from chalicelib.models.users import user_pk
from chalicelib.parallel import chunks, parallel_map
from chalicelib.store import Refused, refusals
from chalicelib.store.batch import batch_get
from chalicelib.store.events import TRANSACTION_ITEMS, nobody_waiting
from chalicelib.store.once import update_once

# --------------------------------------------------------------------------- a guest's reply


def find_invitation(event_id: int, user_id: int) -> Invitation | None:
    """The invitation of ``user_id`` to the event, read consistently; None when not invited."""
    try:
        return Invitation.get(event_pk(event_id), invitation_sk(user_id), consistent_read=True)
    except Invitation.DoesNotExist:
        return None


# The caller's own invitation to the event their request names, read in the request's first call (with their
# token, store/tokens.py): (event id, user id, the invitation or None). Per thread of requests, used once.
_read_ahead: ContextVar[tuple[int, int, Invitation | None] | None] = ContextVar("invitation_read_ahead", default=None)


def invitation_key(event_id: int, user_id: int) -> tuple[str, str]:
    return event_pk(event_id), invitation_sk(user_id)


def keep_read_ahead(found: tuple[int, int, Invitation | None] | None) -> None:
    """What this request read ahead (None: nothing), replacing what an earlier request of the thread left."""
    _read_ahead.set(found)


def own_invitation(event_id: int, user_id: int) -> Invitation | None:
    """The caller's invitation to the event, as :func:`find_invitation` reads it: taken from the request's
    read-ahead the first time it is asked for (nothing was written before it), read again after that."""
    ahead = _read_ahead.get()
    if ahead is not None and ahead[:2] == (event_id, user_id):
        _read_ahead.set(None)
        return ahead[2]
    return find_invitation(event_id, user_id)


def reply_state(event_id: int, user_id: int) -> tuple[Invitation | None, Event | None]:
    """The user's invitation and the event's META, read consistently by one BatchGetItem."""
    items = batch_get(
        EventsTable, [(event_pk(event_id), invitation_sk(user_id)), (event_pk(event_id), META_SK)], consistent_read=True
    )
    invitation = next((item for item in items if isinstance(item, Invitation)), None)
    event = next((item for item in items if isinstance(item, Event)), None)
    return invitation, event


def party_of(invitation: Invitation) -> int:
    """Spots the invitation holds now: 1 + extra_guests once accepted, else none."""
    return 1 + int(invitation.extra_guests or 0) if invitation.has_accepted is True else 0


def room_for(event: Event, spots: int, max_spots_filled: int):
    """A condition on META: ``spots`` more fit under the total read (which must be unchanged) and the cap."""
    total = int(event.total_spots or 0)
    ceiling = min(total, max_spots_filled) if total else max_spots_filled
    return (Event.total_spots == total) & (Event.spots_filled <= ceiling - spots)


def unchanged_reply(invitation: Invitation):
    """A condition on the invitation: still there, with the reply, the party and the (absent) waitlist place
    as read."""
    if invitation.has_accepted is None:
        reply = Invitation.has_accepted.does_not_exist()
    else:
        reply = Invitation.has_accepted == invitation.has_accepted
    extra = int(invitation.extra_guests or 0)
    same_party = (
        (Invitation.extra_guests == extra)
        if extra
        else (Invitation.extra_guests.does_not_exist() | (Invitation.extra_guests == 0))
    )
    # the item must still be there: the conditions above all hold on a missing item, and a write on
    # one would recreate an invitation without its keys (a guest removed meanwhile)
    return Invitation.pk.exists() & reply & same_party & Invitation.wait_key.does_not_exist()


def not_declined():
    """A condition on an invitation: no reply yet, or an accept (a declined guest cannot become a co-host)."""
    return Invitation.has_accepted.does_not_exist() | (Invitation.has_accepted == True)  # noqa: E712


def same_cohost(invitation: Invitation):
    """A condition on an invitation: a co-host's or not, as read (a reply never lands on a role it did not see)."""
    return (Invitation.cohost == True) if invitation.cohost else Invitation.cohost.does_not_exist()  # noqa: E712


def replier_action(by_host: bool):
    """The update action marking who gave a reply: a host on the guest's behalf, or the guest."""
    return Invitation.replied_by_host.set(True) if by_host else Invitation.replied_by_host.remove()


def write_reply(
    invitation: Invitation,
    event: Event,
    *,
    accept: bool,
    extra_guests: int,
    message: str,
    now: datetime,
    max_spots_filled: int,
    by_host: bool = False,
    answers: dict | None = None,
    maybe: bool = False,
) -> int:
    """The reply and the META counters in one transaction (a ``maybe`` is a reply that is neither accept
    nor decline: it holds no spot and leaves has_accepted unset), on condition the reply read is unchanged and
    the event live. A party that grows needs room for the spots it adds and nobody waiting; one that
    shrinks while nobody was waiting keeps that so (the caller then knows no one is to be promoted).
    Returns the change of spots_filled. Raises Refused or Contended."""
    spots = (1 + extra_guests) if accept else 0
    delta = spots - party_of(invitation)
    live = Event.cancelled == False  # noqa: E712
    actions = [
        *answer_actions(accept, maybe),
        Invitation.rsvp_message.set(message),
        Invitation.rsvp_time.set(now),
        Invitation.extra_guests.set(extra_guests if accept else 0),
        replier_action(by_host),
    ]
    if answers is not None:
        actions.append(Invitation.answers.set(answers))
    event_key = Event(event_pk(event.id), META_SK)
    with refusals(), transact_write() as transaction:
        transaction.update(invitation, actions=actions, condition=unchanged_reply(invitation) & same_cohost(invitation))
        if delta > 0:
            condition = live & room_for(event, delta, max_spots_filled) & nobody_waiting()
            transaction.update(event_key, actions=_counter_actions(delta, now), condition=condition)
        elif delta < 0:
            condition = live & nobody_waiting() if not event.waiting_count else live
            transaction.update(event_key, actions=_counter_actions(delta, now), condition=condition)
        else:
            transaction.condition_check(Event, event_pk(event.id), META_SK, condition=live)
    return delta


def answer_actions(accept: bool, maybe: bool) -> list:
    """The update actions of the answer itself: accept or decline, or maybe (has_accepted removed)."""
    if maybe:
        return [Invitation.has_accepted.remove(), Invitation.maybe.set(True)]
    return [Invitation.has_accepted.set(accept), Invitation.maybe.remove()]


def _counter_actions(delta: int, now: datetime) -> list:
    return [Event.accepted_count.add(delta), Event.spots_filled.add(delta), Event.modified.set(now)]


def invitations_of(event_id: int) -> list[Invitation]:
    """Every invitation of the event (the owner's too), read consistently: one Query."""
    return list(Invitation.query(event_pk(event_id), Invitation.sk.startswith(INVITATION_PREFIX), consistent_read=True))


def mark_seen(invitation: Invitation) -> None:
    invitation.update(actions=[Invitation.has_seen.set(True)], condition=Invitation.pk.exists())


def charge_guest_invites(invitation: Invitation, count: int, allowed: int) -> bool:
    """Add ``count`` to the numbers this guest invited while the total stays within ``allowed`` (one
    conditional UpdateItem); False when it would not."""
    room = allowed - count
    if room < 0:
        return False
    within = Invitation.guests_invited.does_not_exist() | (Invitation.guests_invited <= room)
    try:
        with refusals():
            invitation.update(actions=[Invitation.guests_invited.add(count)], condition=Invitation.pk.exists() & within)
    except Refused:
        return False
    return True


def give_back_guest_invites(invitation: Invitation, count: int) -> None:
    """Undo :func:`charge_guest_invites` for numbers that were not invited after all."""
    invitation.update(actions=[Invitation.guests_invited.add(-count)], condition=Invitation.pk.exists())


def save_new_invitations(invitations: list[Invitation], marks: Sequence = ()) -> list[Invitation]:
    """Store invitations of people not invited yet, 100 a transaction side by side; a person invited by a
    parallel edit keeps that invitation (and its reply). ``marks`` (store.users.invited_marks) go 100 a
    transaction beside them. Returns the invitations stored."""

    def save(chunk: list[Invitation]) -> list[Invitation]:
        try:
            with refusals(), transact_write() as transaction:
                for invitation in chunk:
                    transaction.save(invitation, condition=Invitation.pk.does_not_exist())
            return chunk
        except Refused:
            pass
        saved = []
        for invitation in chunk:
            try:
                with refusals():
                    invitation.save(condition=Invitation.pk.does_not_exist())
                saved.append(invitation)
            except Refused:
                continue
        return saved

    def save_marks(chunk: list) -> list[Invitation]:
        with transact_write() as transaction:
            for mark in chunk:
                transaction.save(mark)
        return []

    jobs = [(save, chunk) for chunk in chunks(invitations, TRANSACTION_ITEMS)]
    jobs += [(save_marks, chunk) for chunk in chunks(list(marks), TRANSACTION_ITEMS)]
    return [inv for stored in parallel_map(lambda job: job[0](job[1]), jobs) for inv in stored]


def take_back_invitees(event, count: int) -> None:
    """Lower the event's ``invitee_count`` by ``count`` an edit added for invitations it then could not store
    (applied once, however often it is sent)."""
    update_once(Event(event.pk, event.sk), [Event.invitee_count.add(-count)])


# --------------------------------------------------------------------------- a person's events (``by_user``)


def _not_cancelled(role: str | None):
    condition = Invitation.cancelled == False  # noqa: E712 - a PynamoDB condition, not a comparison
    if role is not None:
        condition &= Invitation.role == role
    return condition


def invitations_by_date(
    user_id: int, *, above: str | None = None, below: str | None = None, role: str | None = None, newest_first=False
) -> Iterator[Invitation]:
    """The person's invitations to events not cancelled, by date key (strictly between ``above`` and
    ``below`` where given), as ``role`` when given: a Query of the ``by_user`` index, paged lazily."""
    if above is not None and below is not None:
        range_condition = Invitation.date_key.between(above, below)
    elif above is not None:
        range_condition = Invitation.date_key > above
    elif below is not None:
        range_condition = Invitation.date_key < below
    else:
        range_condition = None
    return Invitation.by_user.query(
        user_pk(user_id),
        range_key_condition=range_condition,
        filter_condition=_not_cancelled(role),
        scan_index_forward=not newest_first,
    )


def count_unanswered(user_id: int, *, above: str) -> int:
    """Invitations as a guest to events not cancelled, dated after ``above``, with no reply: one COUNT Query."""
    return Invitation.count(
        user_pk(user_id),
        range_key_condition=Invitation.date_key > above,
        filter_condition=_not_cancelled(GUEST) & Invitation.has_accepted.does_not_exist(),
        index_name=Invitation.by_user.Meta.index_name,
    )


def guest_invitations(user_id: int) -> Iterator[Invitation]:
    """The person's invitations as a guest (cancelled ones too): a Query of the ``by_user`` index."""
    return Invitation.by_user.query(user_pk(user_id), filter_condition=Invitation.role == GUEST)


def give_page_link(invitation: Invitation, link_hash: str) -> None:
    """Give the invitation a page link: its first (``link_hash``) when it has none, else its second
    (``notice_link_hash``, replacing an earlier second one), so the link texted first keeps working."""
    attribute = Invitation.notice_link_hash if invitation.link_hash else Invitation.link_hash
    invitation.update(actions=[attribute.set(link_hash)], condition=Invitation.pk.exists())


# --------------------------------------------------------------------------- co-hosts


def make_cohost(event: Event, invitation: Invitation, most: int) -> None:
    """Mark a guest's invitation as a co-host's and count it on META, in one transaction: refused (Refused)
    when META already counts ``most`` co-hosts, or the invitation is gone, declined or already a co-host's."""
    below_most = Event.cohost_count.does_not_exist() | (Event.cohost_count < most)
    with refusals(), transact_write() as transaction:
        transaction.update(event, actions=[Event.cohost_count.add(1)], condition=Event.pk.exists() & below_most)
        transaction.update(
            invitation,
            actions=[Invitation.cohost.set(True)],
            condition=Invitation.pk.exists()
            & (Invitation.role == GUEST)
            & Invitation.cohost.does_not_exist()
            & not_declined(),
        )


def end_cohost(event: Event, invitation: Invitation) -> bool:
    """Give a co-host's place back: unmark the invitation and count one less on META, in one transaction.
    False when the invitation was not (or no longer) a co-host's."""
    try:
        with refusals(), transact_write() as transaction:
            transaction.update(event, actions=[Event.cohost_count.add(-1)], condition=Event.cohost_count > 0)
            transaction.update(
                invitation,
                actions=[Invitation.cohost.remove()],
                condition=Invitation.cohost == True,  # noqa: E712
            )
    except Refused:
        return False
    return True
