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
