"""SnapStart's hooks: the first request's client made before the snapshot, and after each restore fresh
randomness, fresh clients and the pin key read again (with the restored instance's credentials)."""

from __future__ import annotations

import random
import sys
import types

from tests.utils.pin_key import KEY, put_pin_key


def test_the_hooks_are_registered_only_where_the_runtime_offers_them(monkeypatch):
    from chalicelib import snapstart

    monkeypatch.setitem(sys.modules, "snapshot_restore_py", None)  # absent: import fails
    assert snapstart.register() is False

    registered = {"before": [], "after": []}
    runtime = types.ModuleType("snapshot_restore_py")
    runtime.register_before_snapshot = registered["before"].append
    runtime.register_after_restore = registered["after"].append
    monkeypatch.setitem(sys.modules, "snapshot_restore_py", runtime)
    assert snapstart.register() is True
    assert registered == {"before": [snapstart.before_snapshot], "after": [snapstart.after_restore]}


def test_before_the_snapshot_the_dynamodb_client_is_made_without_calling_aws_or_reading_the_pin_key(
    deployed_stage, aws
):
    from chalicelib import aws as clients
    from chalicelib import pinkey, snapstart

    clients.reset_clients()
    aws.reset()
    snapstart.before_snapshot()
    assert "dynamodb" in clients._clients
    assert sum(aws.counts.values()) == 0  # nothing sent: no request, no secret in the snapshot
    assert pinkey._cached == {}


def test_two_instances_restored_from_one_snapshot_draw_different_random_numbers():
    from chalicelib import snapstart

    snapshot = random.getstate()
    draws = []
    for _instance in range(2):
        random.setstate(snapshot)  # what each restored instance starts from
        snapstart.after_restore()
        draws.append([random.random() for _ in range(3)])
    assert draws[0] != draws[1]


def test_after_a_restore_the_pin_key_and_the_clients_are_fetched_again(deployed_stage, aws):
    from chalicelib import aws as clients
    from chalicelib import pinkey, snapstart

    put_pin_key(KEY)
    snapstart.before_snapshot()
    snapshot_client = clients.dynamodb()
    assert pinkey.pin_key() == KEY.encode()
    put_pin_key("e" * 64)  # rotated after the snapshot was taken

    snapstart.after_restore()
    assert pinkey.pin_key() == ("e" * 64).encode()
    assert aws.of("ssm")["GetParameter"] == 2
    assert clients.dynamodb() is not snapshot_client
