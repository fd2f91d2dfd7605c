"""Cover objects under parallel uploads and removals: none outlives the answers but the one META shows."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from chalicelib.errors import ServiceUnavailable
from chalicelib.services.hosting import covers
from tests.utils.avatars import stored_objects
from tests.utils.factories import make_event, make_person, stored_event
from tests.utils.images import jpeg


def _jpeg(seed: int) -> bytes:
    return jpeg(300, 200, (seed * 30 % 256, 80, 160))


def _shown(event_id: int) -> list[str]:
    return sorted(covers.cover_keys(stored_event(event_id)))


def test_parallel_uploads_leave_only_the_cover_meta_shows_and_removal_leaves_nothing(aws):
    alice = make_person("Alice")
    event = make_event(alice)
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda n: covers.change_cover(alice.user, event.id, _jpeg(n)), range(8)))
    assert len(_shown(event.id)) == 2
    assert stored_objects() == _shown(event.id)
    covers.remove_cover(alice.user, event.id)
    assert stored_objects() == [] and _shown(event.id) == []


def test_uploads_and_removals_racing_leave_no_object_meta_does_not_show(aws):
    alice = make_person("Alice")
    event = make_event(alice)

    def act(n: int):
        if n % 3 == 2:
            return covers.remove_cover(alice.user, event.id)
        return covers.change_cover(alice.user, event.id, _jpeg(n))

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(act, range(12)))
    assert stored_objects() == _shown(event.id)


def test_a_refused_write_of_meta_deletes_the_objects_just_stored(aws, fail_aws):
    alice = make_person("Alice")
    event = make_event(alice)
    fail_aws("dynamodb", "UpdateItem")
    with pytest.raises(ServiceUnavailable):
        covers.change_cover(alice.user, event.id, _jpeg(1))
    assert stored_objects() == [] and _shown(event.id) == []
