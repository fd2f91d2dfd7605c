"""Service reads: people fetched 100 ids a call, in parallel."""

from __future__ import annotations

from chalicelib.models.users import PROFILE_SK, User, user_pk
from chalicelib.services.participants import event_reads
from chalicelib.store.users import get_users
from chalicelib.timeutil import utcnow


def test_get_users_batches_100_ids_a_call(aws):
    now = utcnow()
    with User.batch_write() as batch:
        for n in range(1, 251):
            batch.save(User(user_pk(n), PROFILE_SK, id=n, phone_number=f"+1202555{n:04d}", created=now, modified=now))
    aws.reset()
    found = get_users(range(1, 260))
    assert sorted(found) == list(range(1, 251))
    assert aws.of("dynamodb") == {"BatchGetItem": 3}
    assert get_users([]) == {}


def test_list_reads_the_page_partitions_side_by_side(aws, monkeypatch):
    import threading

    from tests.utils.factories import future, make_event, make_person

    alice = make_person("Alice")
    for n in range(6):
        make_event(alice, when=future(1 + n))
    # Two partition reads must be under way at once: sequential reads would break the barrier.
    both_running = threading.Barrier(2, timeout=10)
    lock, calls = threading.Lock(), []
    original = event_reads.load_partition

    def recording(event_id, **kwargs):
        if threading.current_thread() is threading.main_thread():
            raise AssertionError("partition read on the request thread")
        with lock:
            calls.append(event_id)
            meets = len(calls) <= 2
        if meets:
            both_running.wait()  # sequential reads would leave the first one waiting: BrokenBarrierError
        return original(event_id, **kwargs)

    monkeypatch.setattr(event_reads, "load_partition", recording)
    page = event_reads.list_events(alice.user, per_page=30)
    assert page.count == 6 and len(page.views) == 6
    assert not both_running.broken
