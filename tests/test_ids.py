from concurrent.futures import ThreadPoolExecutor

from chalicelib.ids import MAX_ID, new_id


def test_ids_are_positive_safe_integers_never_repeated_in_a_process():
    ids = [new_id() for _ in range(20_000)]
    assert all(0 < i <= MAX_ID for i in ids)
    assert len(set(ids)) == len(ids)


def test_ids_from_threads_never_repeat():
    with ThreadPoolExecutor(max_workers=8) as pool:
        ids = list(pool.map(lambda _: new_id(), range(10_000)))
    assert len(set(ids)) == len(ids)


def test_ids_grow_with_time():
    import time

    first = new_id()
    time.sleep(0.002)
    assert new_id() > first


def test_a_clock_that_steps_back_never_stalls_id_making(monkeypatch):
    import threading
    import time

    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 15 * 60)  # as a test that moves time ahead does
    ahead = new_id()
    monkeypatch.setattr(time, "time", real)  # the clock steps back 15 minutes
    made: list[int] = []
    worker = threading.Thread(target=lambda: made.extend(new_id() for _ in range(20_000)), daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert len(made) == 20_000  # before, it waited for the clock to catch up: 15 minutes
    assert ahead not in made and len(set(made)) == len(made)
