"""Deleting an account (``DELETE /users/me``, and the web page ``/account/delete``). No chalice imports.

At once (on the request): the profile and the phone claim go in one transaction with a job item
(store/account_deletion.py). Every token answers 401 from then on (authentication reads the profile
with the token), and the number logs in as a new user.

Off the request, on the notifications queue (message ``account_deletion``), the cascade:

1. events the person owns: one ``owned_event_deletion`` message each (so large events are worked
   on side by side), which cancels the event, sends the guests the usual cancelled push, then
   deletes the event's partition;
2. invitations to other people's events: the person's messages, polls, time suggestions and album photos
   go with the event's counters lowered, then the invitation, with the spot given back if they had accepted;
3. the plans they own, and their votes in others' plans (services/plans/plan_data.py);
   the user's partition: devices (their SNS endpoints first, when the token is still theirs),
   favorites, tokens, the export record;
4. S3: every object (every version) under the person's prefixes: avatars, favorite photos, exports, the
   covers of their events, and the album photos they added to any event;
5. the job item, once no invitation of theirs is left.

Each step reads what is left and removes it, conditionally: a crash anywhere is resumed by the
queue's redelivery (a failed step raises, so the message stays; so does a follow-up message the queue
refused), and the job item, kept until the end, lets the hourly schedule queue again a deletion whose message
was lost.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.messaging import notifications
from chalicelib.messaging.notifications import Outcome, RetryLater
from chalicelib.messaging.notifications.kinds import handles, queue_kind
from chalicelib.messaging.notifications.queueing import send_many
from chalicelib.parallel import parallel_map
from chalicelib.services.notifications.notification_jobs import cancel_notices
from chalicelib.services.plans import plan_data
from chalicelib.services.replies.waitlist import promote_waiting
from chalicelib.store import account_deletion as store
from chalicelib.store import gone_events
from chalicelib.store import removals as removal_store
from chalicelib.store.events import GUEST, load_partition
from chalicelib.store.records import User
from chalicelib.timeutil import utcnow

# A person's whole account deleted, then one message per event they owned
ACCOUNT_DELETION = queue_kind("account_deletion")
OWNED_EVENT_DELETION = queue_kind("owned_event_deletion")

log = logging.getLogger("invites")

# Prefixes of a user's objects in the bucket (services/media/avatars.py, contacts.py, data_export.py, covers.py,
# photos.py: the album photos they added to any event, processed or not).
OBJECT_FOLDERS = ("avatars", "favorites", "exports", "covers", "photos", "photo-uploads")
# A job with no step started for this long is queued again by the hourly schedule (its message was lost or
# parked); one a worker started a step of lately is still running (an invocation lasts 15 s at most).
STUCK_AFTER = timedelta(minutes=15)
DELETE_OBJECTS_KEYS = 1000


def delete_account(user: User) -> None:
    """Close the account now and queue the rest. If the message cannot be queued, the job item stays
    and the hourly schedule queues it."""
    store.close_account(user)
    notifications.enqueue(ACCOUNT_DELETION, user_id=user.id, fan_out=True)


# --------------------------------------------------------------------------- queue side


@handles(ACCOUNT_DELETION)
def _on_account_deletion(message: dict) -> Outcome:
    user_id = int(message["user_id"])
    job = store.get_job(user_id)
    if job is None:
        return Outcome()  # finished already
    store.mark_worked_on(user_id)
    left = store.invitations_of(user_id)
    owned = store.owned_event_ids(user_id, left)
    if owned:
        if not get_settings().notifications_queue_url:  # local runs: one process does it all
            parallel_map(lambda event_id: delete_owned_event(event_id, user_id, job.full_name), owned)
            owned = []
        elif message.get("fan_out"):
            send_many(
                [
                    {"type": OWNED_EVENT_DELETION, "event_id": event_id, "user_id": user_id}
                    for event_id in owned
                ]
            )
    # and the events hosts removed them from: what they wrote there goes too
    received = set(store.received_event_ids(left)) | set(removal_store.events_removed_from(user_id))
    parallel_map(lambda event_id: _leave_event(event_id, user_id), sorted(received))
    plan_data.forget(user_id)
    _delete_user_items(user_id)
    delete_objects(user_id)
    if not owned:
        store.finish_job(user_id)
    return Outcome()


@handles(OWNED_EVENT_DELETION)
def _on_owned_event_deletion(message: dict) -> Outcome:
    """One event of a person being deleted; then the person's job is looked at again (it ends when
    their last event is gone). When that follow-up cannot be queued the message fails, so the queue hands it
    back at once: the event is gone by then, and its redelivery only queues the follow-up again."""
    user_id = int(message["user_id"])
    job = store.get_job(user_id)
    if job is not None:
        store.mark_worked_on(user_id)
    delete_owned_event(int(message["event_id"]), user_id, job.full_name if job else "")
    if job is not None and not notifications.enqueue(ACCOUNT_DELETION, user_id=user_id):
        raise RetryLater(f"the deletion of user {user_id} was not handed on after their event")
    return Outcome()


def delete_owned_event(event_id: int, owner_id: int, owner_name: str) -> None:
    """Cancel the event, tell its guests as a cancel does, then delete everything in it (its cover and its
    album's photos first)."""
    view = load_partition(event_id)
    if view is not None:
        if view.event.owner_id != owner_id:
            return
        store.cancel_if_live(view.event)
        view.event.cancelled = True
        outcome = cancel_notices(view, owner_name or None)
        if outcome.failed:
            raise RetryLater(f"{outcome.failed} cancel notices of event {event_id} failed")
        _remember_for_guest_links(view)
        _delete_cover(view.event)
        _delete_album(view.event)
    store.delete_event(event_id, owner_id)


def _remember_for_guest_links(view) -> None:
    """Keep what the guests' links need to say the event was cancelled, until 7 days after its date."""
    hashes = [
        digest
        for inv in view.invitations
        if inv.role == GUEST
        for digest in (inv.link_hash, inv.notice_link_hash)
        if digest
    ]
    if not hashes:
        return
    shown_until = view.event.event_date + timedelta(days=get_settings().web_link_days_after_event)
    gone_events.remember(
        view.event.id, view.event.title, view.event.event_date, hashes, shown_until + timedelta(days=1)
    )


def _delete_cover(event) -> None:
    """The cover's objects, every version (both sizes share one folder); S3 refusing any raises, so the step
    is done again."""
    if not event.cover_key:
        return
    bucket, s3 = get_settings().avatar_bucket, aws.s3()
    page = s3.list_object_versions(Bucket=bucket, Prefix=event.cover_key.rsplit("/", 1)[0] + "/")
    versions = page.get("Versions", []) + page.get("DeleteMarkers", [])
    if not versions:
        return
    objects = [{"Key": v["Key"], "VersionId": v["VersionId"]} for v in versions]
    answer = s3.delete_objects(Bucket=bucket, Delete={"Objects": objects, "Quiet": True})
    if answer.get("Errors"):
        raise RetryLater(f"{len(answer['Errors'])} cover objects of a deleted event not deleted")


def _delete_album(event) -> None:
    """The album's photos, everyone's (objects, then items): they go with the event."""
    from chalicelib.services.the_day.photos import remove_album  # S3: only for an event with photos

    remove_album(event)


def _leave_event(event_id: int, user_id: int) -> None:
    """Out of someone else's event; parties waiting there are seated when the spots given back let them."""
    if store.leave_event(event_id, user_id):
        promote_waiting(event_id, user_id)


def _delete_user_items(user_id: int) -> None:
    """Devices first (each endpoint deleted while its token is still this user's), then every item."""
    items = store.user_items(user_id)
    parallel_map(lambda device: _forget_device(*device, user_id), store.device_tokens(items))
    store.delete_user_items(items)


def _forget_device(token: str, endpoint_arn: str, user_id: int) -> None:
    if store.device_owner_of(token) in (None, user_id):
        aws.sns().delete_endpoint(EndpointArn=endpoint_arn)  # deleting a missing endpoint succeeds
    store.release_device(token, user_id)


def delete_objects(user_id: int) -> None:
    """Every object version under the user's prefixes (a versioned bucket keeps the old ones otherwise).
    S3 refusing any key raises, so the step is done again."""
    bucket = get_settings().avatar_bucket
    s3 = aws.s3()
    for folder in OBJECT_FOLDERS:
        prefix = f"{folder}/{user_id}/"
        while True:
            page = s3.list_object_versions(Bucket=bucket, Prefix=prefix, MaxKeys=DELETE_OBJECTS_KEYS)
            versions = page.get("Versions", []) + page.get("DeleteMarkers", [])
            if not versions:
                break
            objects = [{"Key": v["Key"], "VersionId": v["VersionId"]} for v in versions]
            answer = s3.delete_objects(Bucket=bucket, Delete={"Objects": objects, "Quiet": True})
            if answer.get("Errors"):
                raise RetryLater(f"{len(answer['Errors'])} objects of a deleted user not deleted")


def requeue_stuck_jobs() -> int:
    """Queue again every deletion with no step started for STUCK_AFTER (hourly); returns how many."""
    now = utcnow()
    stuck = [job for job in store.pending_jobs() if now - job.last_progress > STUCK_AFTER]
    if stuck:
        send_many([{"type": ACCOUNT_DELETION, "user_id": job.user_id, "fan_out": True} for job in stuck])
    return len(stuck)
