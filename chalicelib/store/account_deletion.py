"""Table access of account deletion: closing an account at once, and the cascade that follows.

Closing (``DELETE /users/me``) is one transaction: the profile and the phone claim go (so every token
of the user answers 401, since authentication reads profile and token together, and the number is
free for a new user), and a job item is put in the users table's ``ACCOUNT_DELETION`` partition. The
cascade (services/account/account_deletion.py) then removes what is left, reading it through the keys and
indexes the rest of the service uses: the user's partition ``USER#<id>``, the ``by_user`` index of
their invitations, and each event's partition. Every write here is idempotent and conditional on
what it read, so a step may be repeated after a crash, and its progress is what is left in the tables.
"""

from __future__ import annotations

from pynamodb.exceptions import DeleteError, TransactWriteError, UpdateError

from chalicelib.aws_errors import condition_failed, conflicted
from chalicelib.models.base import transact_write
from chalicelib.models.events import (
    JOIN_CODE_PREFIX,
    META_SK,
    OWNER,
    Event,
    EventsTable,
    Invitation,
    JoinCode,
    Message,
    Photo,
    Poll,
    TimeSuggestion,
    WaitlistEntry,
    event_pk,
    invitation_sk,
)
from chalicelib.models.users import (
    CALENDAR_FEED_SK,
    JOBS_PK,
    OWNER_SK,
    PHONE_SK,
    PROFILE_SK,
    CalendarFeed,
    CalendarFeedKey,
    DeletionJob,
    Device,
    DeviceOwner,
    OwnedEvent,
    PhoneClaim,
    User,
    UsersTable,
    calendar_feed_pk,
    device_owner_pk,
    device_token_of,
    phone_pk,
    user_pk,
)
from chalicelib.parallel import chunks
from chalicelib.retry import AttemptsSpent, TryAgain, linear, retry
from chalicelib.store import owned_events
from chalicelib.store.batch import batch_get, batch_write
from chalicelib.store.events import TRANSACTION_ITEMS
from chalicelib.store.invitations import party_of, unchanged_reply
from chalicelib.timeutil import utcnow

ATTEMPTS = 8
PAUSE = linear(0.02)


# --------------------------------------------------------------------------- closing the account


def close_account(user: User) -> None:
    """Delete the profile and the phone claim, and record the job, in one transaction.

    The claim goes only while it still names this user (another person may hold the number by now:
    then it is theirs and stays). Repeating it is harmless. Tried again without the claim when it names
    someone else, and after a pause when a parallel transaction (a login of the number) cancelled it."""
    job = DeletionJob(JOBS_PK, str(user.id), user_id=user.id, full_name=user.full_name or "", requested=utcnow())
    claim = PhoneClaim(phone_pk(user.phone_number), PHONE_SK)
    with_claim = True

    def attempt(_number: int) -> None:
        nonlocal with_claim
        try:
            with transact_write() as transaction:
                transaction.delete(User(user_pk(user.id), PROFILE_SK))
                if with_claim:
                    transaction.delete(claim, condition=PhoneClaim.user_id == user.id)
                transaction.save(job)
        except TransactWriteError as exc:
            if condition_failed(exc):
                with_claim = False  # the number is no longer this user's
                raise TryAgain(pause=0) from None
            if conflicted(exc):
                raise TryAgain() from None
            raise

    try:
        retry(attempt, attempts=ATTEMPTS, pause=PAUSE)
    except AttemptsSpent:
        raise RuntimeError("could not close the account") from None


def get_job(user_id: int) -> DeletionJob | None:
    try:
        return DeletionJob.get(JOBS_PK, str(user_id), consistent_read=True)
    except DeletionJob.DoesNotExist:
        return None


def mark_worked_on(user_id: int) -> None:
    """Record that a step of the job starts now (nothing when the job is finished)."""
    try:
        DeletionJob(JOBS_PK, str(user_id)).update(
            actions=[DeletionJob.worked_on.set(utcnow())], condition=DeletionJob.user_id.exists()
        )
    except UpdateError as exc:
        if not condition_failed(exc):
            raise


def pending_jobs() -> list[DeletionJob]:
    """Every deletion not finished yet (one Query of the jobs partition)."""
    return list(DeletionJob.query(JOBS_PK, consistent_read=True))


def finish_job(user_id: int) -> None:
    DeletionJob(JOBS_PK, str(user_id)).delete()


# --------------------------------------------------------------------------- the user's partition


def user_items(user_id: int) -> list[UsersTable]:
    """Everything under ``USER#<id>``: tokens, devices, favorites, an export record, a profile put back; not the
    records of owned events, which go with their events (store/owned_events.py)."""
    items = UsersTable.query(user_pk(user_id), consistent_read=True)
    return [item for item in items if not isinstance(item, OwnedEvent)]


def device_owner_of(token: str) -> int | None:
    """Who holds a push token now (None: nobody)."""
    try:
        return DeviceOwner.get(device_owner_pk(token), OWNER_SK, consistent_read=True).user_id
    except DeviceOwner.DoesNotExist:
        return None


def release_device(token: str, user_id: int) -> None:
    """Forget that ``user_id`` holds ``token``, unless someone else holds it now."""
    try:
        DeviceOwner(device_owner_pk(token), OWNER_SK).delete(condition=DeviceOwner.user_id == user_id)
    except DeleteError as exc:
        if not condition_failed(exc):
            raise


def delete_user_items(items: list[UsersTable]) -> None:
    """The items of the user's partition, and the key of their live calendar link (outside it)."""
    feed_keys = [
        CalendarFeedKey(calendar_feed_pk(item.token_hash), CALENDAR_FEED_SK)
        for item in items
        if isinstance(item, CalendarFeed)
    ]
    if feed_keys:
        batch_write(feed_keys, delete=True, written=set())
    if items:
        batch_write(items, delete=True, written=set())


# --------------------------------------------------------------------------- invitations


def invitations_of(user_id: int) -> list[Invitation]:
    """The user's invitations, owned and received, that are really still there.

    The ``by_user`` index answers eventually: what it lists is checked against the table (one
    consistent BatchGetItem per 100), so an invitation deleted a moment ago is not counted as left."""
    listed = list(Invitation.by_user.query(user_pk(user_id)))
    if not listed:
        return []
    keys = [(event_pk(inv.event_id), invitation_sk(user_id)) for inv in listed]
    return batch_get(Invitation, keys, consistent_read=True)


def event_items(event_id: int) -> list[EventsTable]:
    return list(EventsTable.query(event_pk(event_id), consistent_read=True))


def _counter_action(attribute, amount: int):
    """``attribute`` less ``amount``; an event stored before the counter existed keeps counting from 0."""
    return attribute.set((attribute | amount) - amount)


def leave_event(event_id: int, user_id: int) -> bool:
    """Take the user out of someone else's event, as if they had declined: their messages, polls and
    time suggestions go with the event's counters lowered by as many, then their invitation, with the
    spot given back when they had accepted. Each transaction is conditional on what it read, so a
    parallel reply or post of others keeps every counter exact; a refused one reads again. True when
    others wait in the event's line (spots may have opened for them). Why attempts rather than a
    condition that cannot lose: the counters are lowered by what was read, so a parallel reply or
    post refuses the write and it reads again."""

    def attempt(_number: int) -> bool:
        items = event_items(event_id)
        meta = next((item for item in items if isinstance(item, Event)), None)
        invitation = next(
            (item for item in items if isinstance(item, Invitation) and item.sk == invitation_sk(user_id)), None
        )
        written = [
            item
            for item in items
            if isinstance(item, (Message, Poll, TimeSuggestion, Photo)) and item.user_id == user_id
        ]
        try:
            for chunk in chunks(written, TRANSACTION_ITEMS - 1):
                _delete_written(event_id, meta, chunk)
            if invitation is not None:
                _delete_invitation(event_id, meta, invitation)
        except TransactWriteError as exc:
            if condition_failed(exc) or conflicted(exc):
                raise TryAgain() from None
            raise
        return meta is not None and int(meta.waiting_count or 0) > (1 if invitation and invitation.wait_key else 0)

    try:
        return retry(attempt, attempts=ATTEMPTS, pause=PAUSE)
    except AttemptsSpent:
        raise RuntimeError(f"could not take a deleted user out of event {event_id}") from None


def _meta_update(transaction, meta: Event | None, actions: list) -> None:
    if meta is not None and actions:
        transaction.update(Event(event_pk(meta.id), META_SK), actions=actions, condition=Event.pk.exists())


def _delete_written(event_id: int, meta: Event | None, items: list) -> None:
    counters = {Message: "message_count", Poll: "poll_count", TimeSuggestion: "suggestion_count", Photo: "photo_count"}
    counts: dict[str, int] = {}
    for item in items:
        name = counters[type(item)]
        counts[name] = counts.get(name, 0) + 1
    actions = [_counter_action(getattr(Event, name), n) for name, n in counts.items()]
    with transact_write() as transaction:
        for item in items:
            transaction.delete(item, condition=EventsTable.pk.exists())
        _meta_update(transaction, meta, actions)


def _delete_invitation(event_id: int, meta: Event | None, invitation: Invitation) -> None:
    """The invitation, with the party's spots given back when accepted, or its place in the waitlist
    (its WAIT# item and META's ``waiting_count``) when waiting, and a co-host's place; conditional on the
    reply, party and co-host flag read."""
    spots = party_of(invitation)
    actions = [Event.accepted_count.add(-spots), Event.spots_filled.add(-spots)] if spots else []
    if invitation.wait_key:
        actions.append(Event.waiting_count.add(-1))
        unchanged = Invitation.wait_key == invitation.wait_key
    else:
        unchanged = unchanged_reply(invitation)
    if invitation.cohost:  # a co-host's place is given back with the invitation
        actions.append(Event.cohost_count.add(-1))
        unchanged = unchanged & (Invitation.cohost == True)  # noqa: E712
    else:
        unchanged = unchanged & Invitation.cohost.does_not_exist()
    with transact_write() as transaction:
        transaction.delete(invitation, condition=Invitation.pk.exists() & unchanged)
        if invitation.wait_key:
            transaction.delete(WaitlistEntry(event_pk(event_id), invitation.wait_key))
        _meta_update(transaction, meta, actions)


# --------------------------------------------------------------------------- owned events


def cancel_if_live(event: Event) -> None:
    """Cancel as the owner's own cancel does (META only), unless it is already."""
    if event.cancelled:
        return
    try:
        event.update(
            actions=[Event.cancelled.set(True), Event.remind_day.remove(), Event.modified.set(utcnow())],
            condition=Event.pk.exists(),
        )
    except UpdateError as exc:
        if not condition_failed(exc):
            raise


def delete_event(event_id: int, owner_id: int) -> None:
    """Delete an event's partition: everything but META and the owner's invitation (25 a
    BatchWriteItem, side by side), then those two in one transaction. The owner's invitation is
    what ``by_user`` shows of the event, so until it goes, the cascade finds the event again. The lookup
    item of its join link goes with them; then the owner's record of the event (store/owned_events.py), also
    when the partition was gone already."""
    items = event_items(event_id)
    last = [item for item in items if isinstance(item, Event) or (isinstance(item, Invitation) and item.role == OWNER)]
    rest = [item for item in items if item not in last]
    if rest:
        batch_write(rest, delete=True, written=set())
    if last:
        with transact_write() as transaction:
            for item in last:
                transaction.delete(item)
                if isinstance(item, Event) and item.join_code_hash:
                    transaction.delete(JoinCode(f"{JOIN_CODE_PREFIX}{item.join_code_hash}", META_SK))
    owned_events.forget(owner_id, event_id)


def device_tokens(items: list[UsersTable]) -> list[tuple[str, str]]:
    """``(push token, endpoint ARN)`` of the devices among a user's items."""
    return [(device_token_of(item.sk), item.endpoint_arn) for item in items if isinstance(item, Device)]


def owned_event_ids(user_id: int, invitations: list[Invitation]) -> list[int]:
    """What ``by_user`` lists as owned, and every event the user's partition records (a consistent read: an
    event the index does not show yet is found all the same)."""
    listed = {inv.event_id for inv in invitations if inv.role == OWNER}
    return sorted(listed | owned_events.recorded_event_ids(user_id))


def received_event_ids(invitations: list[Invitation]) -> list[int]:
    return [inv.event_id for inv in invitations if inv.role != OWNER]
