"""Avatar objects under parallel uploads and removals: none outlives the answers (S3 checked)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from chalicelib.errors import ServiceUnavailable
from chalicelib.services.identity import users
from chalicelib.services.media import avatars
from tests.utils.avatars import stored_objects
from tests.utils.factories import make_person
from tests.utils.images import jpeg


def _jpeg(seed: int) -> bytes:
    """A picture of its own colour per ``seed``."""
    return jpeg(300, 300, (seed * 30 % 256, 80, 160))


def _fresh(person):
    """The profile as a new request would read it (each request authenticates on its own)."""
    return users.get_user(person.id)


def test_eight_parallel_uploads_leave_only_the_current_avatar_and_removal_leaves_nothing(aws):
    alice = make_person("Alice")
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda n: avatars.change_avatar(_fresh(alice), _jpeg(n)), range(8)))
    current = _fresh(alice)
    assert stored_objects() == sorted([current.big_photo_key, current.photo_key])
    assert (current.big_photo_key, current.photo_key) in {(a.big_photo_key, a.photo_key) for a in answers}
    assert not current.stale_photo_keys
    avatars.remove_avatar(_fresh(alice))
    assert stored_objects() == []
    assert _fresh(alice).photo_key is None and _fresh(alice).big_photo_key is None


def test_uploads_and_removals_racing_leave_no_object_the_profile_does_not_show(aws):
    alice = make_person("Alice")

    def act(n: int):
        if n % 3 == 2:
            return avatars.remove_avatar(_fresh(alice))
        return avatars.change_avatar(_fresh(alice), _jpeg(n))

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(act, range(12)))
    current = _fresh(alice)
    assert stored_objects() == sorted(key for key in (current.big_photo_key, current.photo_key) if key)


def test_a_removal_that_s3_refuses_is_503_and_its_retry_deletes_the_objects(aws, fail_aws):
    alice = make_person("Alice")
    avatars.change_avatar(_fresh(alice), _jpeg(1))
    fail_aws("s3", "DeleteObjects", "SlowDown")
    with pytest.raises(ServiceUnavailable):
        avatars.remove_avatar(_fresh(alice))
    assert len(stored_objects()) == 2
    fail_aws("s3", "DeleteObjects", "")  # S3 is back
    avatars.remove_avatar(_fresh(alice))
    assert stored_objects() == [] and not _fresh(alice).stale_photo_keys
