"""The deletion cascade at the service layer: races with other guests, crashes between steps, AWS down."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from threading import Barrier

import pytest

from chalicelib.errors import Conflict
from chalicelib.jobs import queue_handler
from chalicelib.messaging import push_sender
from chalicelib.models.events import EventsTable, Invitation, event_pk
from chalicelib.services.account import account_deletion
from chalicelib.services.account.account_deletion import ACCOUNT_DELETION
from chalicelib.services.conversation import conversation
from chalicelib.services.replies import replies
from chalicelib.store import account_deletion as store
from tests.utils.avatars import AVATAR_BUCKET, stored_objects
from tests.utils.aws_env import aws_client
from tests.utils.factories import make_event, make_person, stored_event
from tests.utils.notifications import add_device, drain, use_queue


def _accepted_in_table(event_id: int) -> int:
    items = Invitation.query(event_pk(event_id), Invitation.sk.startswith("INV#"), consistent_read=True)
    return sum(1 for inv in items if inv.role == "guest" and inv.has_accepted is True)


def _run(user_id: int) -> None:
    queue_handler.process({"type": ACCOUNT_DELETION, "id": 1, "user_id": user_id, "fan_out": True})


def test_leaving_an_event_while_others_accept_keeps_the_spots_exact(aws):
    # GIVEN a 4-spot event with the person to delete accepted, and 8 other guests about to accept
    owner, leaver = make_person("Owner"), make_person("Leaver")
    guests = [make_person(f"Guest {n}") for n in range(8)]
    event = make_event(owner, leaver, *guests, total_spots=4)
    replies.rsvp(leaver.user, event.id, accept=True, message="")
    conversation.post_message(leaver.user, event.id, "see you")
    store.close_account(leaver.user)
    barrier = Barrier(len(guests) + 1)

    def accept(guest):
        barrier.wait()
        try:
            replies.rsvp(guest.user, event.id, accept=True, message="")
            return "ok"
        except Conflict:
            return "full"

    def leave():
        barrier.wait()
        store.leave_event(event.id, leaver.id)
        return "left"

    # WHEN the deletion takes the person out while the others accept
    with ThreadPoolExecutor(max_workers=len(guests) + 1) as pool:
        futures = [pool.submit(accept, guest) for guest in guests] + [pool.submit(leave)]
        outcomes = [future.result() for future in futures]
    # THEN the counters are exactly what the invitations say, never above the total
    stored = stored_event(event.id)
    accepted = _accepted_in_table(event.id)
    assert stored.spots_filled == stored.accepted_count == accepted <= 4
    assert outcomes.count("ok") == accepted
    assert stored.message_count == 0


def test_a_crash_after_the_cancel_notices_is_resumed_without_sending_them_twice(aws, monkeypatch):
    # GIVEN an owner with an event whose guest has a phone
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    add_device(guest, "a1" * 32)
    sent = []
    monkeypatch.setattr(push_sender, "send_push", lambda arn, uid, title, text, data, loc=None: sent.append(text))
    store.close_account(owner.user)
    real_delete = store.delete_event

    def crash(event_id, owner_id):
        raise RuntimeError("the worker died")

    # WHEN the worker dies after cancelling and telling the guest, before deleting
    monkeypatch.setattr(store, "delete_event", crash)
    with pytest.raises(RuntimeError):
        _run(owner.id)
    assert stored_event(event.id).cancelled is True
    assert sent == ["Owner cancelled the event."]
    # THEN the redelivery finishes the job, and the guest was told once
    monkeypatch.setattr(store, "delete_event", real_delete)
    _run(owner.id)
    assert list(EventsTable.query(event_pk(event.id), consistent_read=True)) == []
    assert sent == ["Owner cancelled the event."]
    assert store.pending_jobs() == []


@pytest.mark.parametrize(("service", "operation"), [("s3", "DeleteObjects"), ("sns", "DeleteEndpoint")])
def test_s3_or_sns_down_leaves_the_step_for_the_redelivery(aws, fail_aws, service, operation):
    # GIVEN a person with a device and an object in the bucket
    person = make_person("Person")
    arn = add_device(person, "b2" * 32)
    aws_client("s3").put_object(Bucket=AVATAR_BUCKET, Key=f"avatars/{person.id}/x/big.jpg", Body=b"x")
    store.close_account(person.user)
    # WHEN S3 or SNS fails during the cascade
    fail_aws(service, operation)
    with pytest.raises(Exception):  # noqa: B017 - the queue sees the message fail and delivers it again
        queue_handler.handle_queue_batch([(json.dumps({"type": "account_deletion", "user_id": person.id}), "r")])
    # THEN the job is still there, and what the failed step was to remove is too
    assert [job.user_id for job in store.pending_jobs()] == [person.id]
    left = stored_objects() if service == "s3" else [arn]
    assert left
    # and once the service is back, the redelivery finishes it
    fail_aws(service, operation, code="")
    _run(person.id)
    assert [key for key in stored_objects() if f"/{person.id}/" in key] == []
    assert store.pending_jobs() == []
    assert store.user_items(person.id) == []


def test_the_cascade_uses_keys_and_indexes_only(aws):
    owner, guest = make_person("Owner"), make_person("Guest")
    make_event(owner, guest)
    make_event(guest, owner)
    store.close_account(owner.user)
    aws.reset()
    _run(owner.id)
    assert aws.of("dynamodb")["Scan"] == 0
    assert store.pending_jobs() == []


def test_a_lost_message_is_queued_again_by_the_schedule(aws, override_settings, monkeypatch):
    person = make_person("Person")
    store.close_account(person.user)
    queued = []
    monkeypatch.setattr(account_deletion, "send_many", queued.extend)
    later = datetime.now(UTC).replace(year=datetime.now(UTC).year + 1)
    monkeypatch.setattr(account_deletion, "utcnow", lambda: later)
    assert account_deletion.requeue_stuck_jobs() == 1
    assert [(m["type"], m["user_id"]) for m in queued] == [("account_deletion", person.id)]


def test_the_schedule_leaves_a_deletion_the_worker_is_running(aws, override_settings, monkeypatch):
    # a heavy deletion requested 20 minutes ago whose owned events are still being deleted: not queued again
    use_queue(override_settings)
    owner, guest = make_person("Owner"), make_person("Guest")
    make_event(owner, guest)
    idle = make_person("Idle")
    store.close_account(owner.user)
    store.close_account(idle.user)
    started = datetime.now(UTC)
    monkeypatch.setattr(store, "utcnow", lambda: started + timedelta(minutes=20))
    for job in store.pending_jobs():  # both requested 20 minutes before the worker picks the first one up
        job.update(actions=[store.DeletionJob.requested.set(started - timedelta(minutes=1))])
    account_deletion._on_account_deletion({"user_id": owner.id, "fan_out": False})  # its event still to go
    assert {job.user_id for job in store.pending_jobs()} == {owner.id, idle.id}
    queued = []
    monkeypatch.setattr(account_deletion, "send_many", queued.extend)
    monkeypatch.setattr(account_deletion, "utcnow", lambda: started + timedelta(minutes=21))
    assert account_deletion.requeue_stuck_jobs() == 1
    assert [m["user_id"] for m in queued] == [idle.id]


def test_a_cohost_who_deletes_their_account_gives_the_place_back(aws):
    from chalicelib.services.participants import cohosts, event_reads

    owner, cohost = make_person("Owner"), make_person("Cohost")
    event = make_event(owner, cohost)
    cohosts.appoint(owner.user, event.id, cohost.user.id)
    account_deletion.delete_account(cohost.user)
    _run(cohost.user.id)
    view = event_reads.get_event(owner.user, event.id)
    assert view.invitation_of(cohost.user.id) is None
    assert stored_event(event.id).cohost_count == 0


def test_an_owned_event_deleted_whose_follow_up_the_queue_refused_comes_back_at_once(
    aws, override_settings, fail_aws
):
    # GIVEN an owner being deleted, their event's own deletion message in hand
    url = use_queue(override_settings)
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    store.close_account(owner.user)
    owned = json.dumps({"type": "owned_event_deletion", "event_id": event.id, "user_id": owner.id})
    # WHEN the event goes but the queue refuses the message that looks at the person's job again
    fail_aws("sqs", "SendMessage")
    with pytest.raises(Exception):  # noqa: B017 - the queue sees the message fail and delivers it again
        queue_handler.handle_queue_batch([(owned, "r")])
    assert list(EventsTable.query(event_pk(event.id), consistent_read=True)) == []
    # THEN its redelivery, with the queue back, hands the job on, and the job then finishes
    fail_aws("sqs", "SendMessage", code="")
    queue_handler.handle_queue_batch([(owned, "r")])
    follow_ups = [m for m in map(json.loads, drain(url)) if m["type"] == ACCOUNT_DELETION]
    assert [m["user_id"] for m in follow_ups] == [owner.id]
    queue_handler.handle_queue_batch([(json.dumps(follow_ups[0]), "r")])
    assert store.pending_jobs() == []
