"""iOS devices under parallel registration: one owner per token, at most ten devices per user."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from chalicelib.models.users import OWNER_SK, Device, DeviceOwner, device_owner_pk, user_pk
from chalicelib.services.push import devices
from tests.utils.factories import make_person
from tests.utils.notifications import endpoints

TOKEN = "ab" * 32


def _devices_of(person) -> list[Device]:
    return list(Device.query(user_pk(person.id), consistent_read=True))


def _token(n: int) -> str:
    return f"{n:064x}"


def test_a_token_registered_by_six_users_at_once_has_one_owner(aws):
    people = [make_person(f"Person {n}") for n in range(6)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(lambda person: devices.add_device(person.user, TOKEN), people))
    holders = [person for person in people if _devices_of(person)]
    assert len(holders) == 1  # one phone: one user's pushes reach it
    owner = DeviceOwner.get(device_owner_pk(TOKEN), OWNER_SK, consistent_read=True)
    assert owner.user_id == holders[0].id


def test_an_eleventh_device_drops_the_one_registered_longest_ago(aws):
    alice = make_person("Alice")
    for n in range(11):
        devices.add_device(alice.user, _token(n))
    kept = sorted(device.sk.removeprefix("DEVICE#") for device in _devices_of(alice))
    assert kept == sorted(_token(n) for n in range(1, 11))
    # the dropped phone is forgotten: no owner item, no endpoint
    assert DeviceOwner.count(device_owner_pk(_token(0))) == 0
    assert sorted(endpoint.token for endpoint in endpoints().values()) == kept
    # the phone can be registered again, and then the oldest of the others goes
    devices.add_device(alice.user, _token(0))
    kept = sorted(device.sk.removeprefix("DEVICE#") for device in _devices_of(alice))
    assert kept == sorted(_token(n) for n in [0, *range(2, 11)])


def test_parallel_registrations_of_one_user_keep_ten(aws):
    alice = make_person("Alice")
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda n: devices.add_device(alice.user, _token(n)), range(16)))
    assert len(_devices_of(alice)) == 10
    owned = [n for n in range(16) if DeviceOwner.count(device_owner_pk(_token(n))) == 1]
    assert sorted(_token(n) for n in owned) == sorted(d.sk.removeprefix("DEVICE#") for d in _devices_of(alice))


def _race_remove_and_add(remover, adder, rounds: int) -> None:
    """Each round: ``remover`` holds the token, then removes it while ``adder`` adds it, side by side.
    Neither call may fail, and afterwards every device record of the token names a live endpoint."""
    import threading

    for round_number in range(rounds):
        token = _token(1000 + round_number)
        devices.add_device(remover.user, token)
        start = threading.Barrier(2)

        def remove(token=token, start=start):
            start.wait()
            devices.remove_device(remover.user, token)

        def add(token=token, start=start):
            start.wait()
            devices.add_device(adder.user, token)

        with ThreadPoolExecutor(max_workers=2) as pool:
            for outcome in [pool.submit(remove), pool.submit(add)]:
                outcome.result()  # an exception here was a 500
        records = [
            device
            for person in {remover.id: remover, adder.id: adder}.values()
            for device in _devices_of(person)
            if device.sk == f"DEVICE#{token}"
        ]
        live = endpoints()
        assert all(device.endpoint_arn in live for device in records), f"round {round_number}: dead endpoint"
        if adder is not remover:
            # the adder came last or first: either way the token is the adder's now, with a live endpoint
            assert [device.pk for device in records] == [user_pk(adder.id)]
            owner = DeviceOwner.get(device_owner_pk(token), OWNER_SK, consistent_read=True)
            assert owner.user_id == adder.id and owner.removing_until is None


def test_one_user_removes_a_token_while_another_adds_it(aws):
    # Bob's remove answered 500 in 5 of 10 rounds; Alice's device pointed at a deleted endpoint in 6
    bob, alice = make_person("Bob"), make_person("Alice")
    _race_remove_and_add(bob, alice, rounds=15)


def test_one_user_removes_and_adds_a_token_at_once(aws):
    bob = make_person("Bob")
    _race_remove_and_add(bob, bob, rounds=15)
