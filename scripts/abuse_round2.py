"""The second adversarial run's ten reproductions, measured in process (moto + chalice.test.Client).

Run through ``scripts/abuse_figures.py`` (``round2`` runs all ten; or name them), with ``--code DIR``
to measure another checkout of the service (a tree from before a fix) with the same reproductions:

    python scripts/abuse_figures.py round2
    python scripts/abuse_figures.py quota pins --code /tmp/old-tree

Each prints one JSON line. Sizes default to the run's own (60 numbers, 360,000 nested parts, 500
new numbers, 150 events, 40 MP images); the options of abuse_figures.py scale them down.
"""

from __future__ import annotations

import json
import struct
import threading
import time
import zlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

JSON = {"Content-Type": "application/json"}
AWS_CALLS: Counter = Counter()
_LOCK = threading.RLock()


def count_and_serialise_aws_calls() -> None:
    """Count moto's actions and run them one at a time (DynamoDB's per-item atomicity, as the tests do)."""
    from moto.core.responses import BaseResponse

    original = BaseResponse.call_action

    def call_action(self):
        with _LOCK:
            AWS_CALLS[f"{type(self).__module__.split('.')[1]}:{self._get_action()}"] += 1
            return original(self)

    BaseResponse.call_action = call_action


def _dynamodb_calls() -> int:
    return sum(count for name, count in AWS_CALLS.items() if name.startswith("dynamodb:"))


def _post(client, path: str, payload, token: str, method: str = "POST"):
    headers = {**JSON, "Authorization": f"Bearer {token}"}
    return client.http.request(method, path, body=json.dumps(payload).encode(), headers=headers)


def _texts_to(numbers) -> int:
    from moto.sns.models import sns_backends

    from tests.utils.aws_env import ACCOUNT, REGION

    wanted = set(numbers)
    return sum(1 for number, _ in sns_backends[ACCOUNT][REGION].sms_messages.values() if number in wanted)


def _numbers(first: int, count: int) -> list[str]:
    return [f"+1202{first + n:07d}" for n in range(count)]


def _event(client, owner, numbers=(), title="Picnic"):
    payload = {"title": title, "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": list(numbers)}
    return _post(client, "/events", payload, owner.token)


# --------------------------------------------------------------------------- the ten rows


def quota(client, numbers: int) -> dict:
    from tests.utils.factories import make_person

    owner = make_person("Owner")
    invited = _numbers(5_550_000, numbers)
    response = _event(client, owner, invited)
    return {"numbers": numbers, "status": response.status_code, "texts_sent": _texts_to(invited), "quota": 50}


def nested(client, sub_parts: int) -> dict:
    from tests.utils.factories import make_person
    from tests.utils.images import jpeg

    owner = make_person("Uploader")
    inner = b"--in\r\n\r\na\r\n" * sub_parts + b"--in--\r\n"  # 11 bytes a sub-part
    body = (
        b'--b\r\nContent-Disposition: form-data; name="extra"\r\nContent-Type: multipart/mixed; boundary=in\r\n\r\n'
        + inner
        + b'\r\n--b\r\nContent-Disposition: form-data; name="photo"; filename="me.jpg"\r\n'
        + b"Content-Type: image/jpeg\r\n\r\n"
        + jpeg(64, 48)
        + b"\r\n--b--\r\n"
    )
    headers = {"Content-Type": "multipart/form-data; boundary=b", "Authorization": f"Bearer {owner.token}"}
    started = time.perf_counter()
    response = client.http.post("/users/change_avatar", body=body, headers=headers)
    return {
        "sub_parts": sub_parts,
        "body_bytes": len(body),
        "status": response.status_code,
        "seconds": round(time.perf_counter() - started, 2),
        "answer": response.body.decode()[:80],
    }


def invite_cost(client, numbers: int) -> dict:
    from tests.utils.factories import make_person

    owner = make_person("Owner")
    invited = _numbers(5_560_000, numbers)
    before = _dynamodb_calls()
    started = time.perf_counter()
    response = _event(client, owner, invited)
    return {
        "new_numbers": numbers,
        "status": response.status_code,
        "dynamodb_calls": _dynamodb_calls() - before,
        "seconds": round(time.perf_counter() - started, 1),
    }


def devices(client, rounds: int) -> dict:
    try:
        from chalicelib.services.push import devices as device_service
    except ImportError:  # a checkout from before the one-way layers
        from chalicelib.messaging import devices as device_service
    from tests.utils.factories import make_person
    from tests.utils.notifications import endpoints

    bob, alice = make_person("Bob"), make_person("Alice")
    failures, dead = Counter(), Counter()
    for case, adder in (("other_user", alice), ("same_user", bob)):
        for round_number in range(rounds):
            token = f"{hash((case, round_number)) & (2**256 - 1):064x}"
            device_service.add_device(bob.user, token)
            start = threading.Barrier(2)

            def remove(token=token, start=start):
                start.wait()
                device_service.remove_device(bob.user, token)

            def add(token=token, start=start, adder=adder):
                start.wait()
                device_service.add_device(adder.user, token)

            with ThreadPoolExecutor(max_workers=2) as pool:
                for outcome in [pool.submit(remove), pool.submit(add)]:
                    try:
                        outcome.result()
                    except Exception:  # noqa: BLE001 - what the route would have answered 500 for
                        failures[case] += 1
            live = endpoints()
            records = [
                device
                for person in (bob, alice)
                for device in device_service.user_devices(person.id)
                if device.sk.endswith(token)
            ]
            dead[case] += any(device.endpoint_arn not in live for device in records)
    return {"rounds": rounds, "answers_500": dict(failures), "rounds_with_dead_endpoint": dict(dead)}


def pins(client) -> dict:
    from tests.utils.api import post_json

    number = "+14155550177"
    edge = (time.time() // 900 + 1) * 900
    real = time.time
    statuses = []
    try:
        for moment in [edge - 3] * 5 + [edge + 1] * 5:
            time.time = lambda moment=moment: moment
            statuses.append(post_json(client, "/auth", {"phone_number": number}).status_code)
    finally:
        time.time = real
    return {"pins_in_4_seconds_across_a_quarter_hour": statuses.count(204), "statuses": statuses}


def enumeration(client) -> dict:
    from tests.utils.factories import make_person

    owner, registered = make_person("Mallory"), make_person("Bob Registered")
    unknown = "+12025559876"
    created = json.loads(_event(client, owner, [registered.phone, unknown]).body)
    first, second = created["invitees"][1:]
    differing = sorted(
        k for k in first if k not in ("id", "user_id", "phone_number", "created") and first[k] != second[k]
    )
    # with the lookup allowance used up, does an invite still look numbers up?
    _post(client, "/users/from_phone_numbers", {"phone_numbers": _numbers(5_570_000, 1000)}, owner.token)
    _post(client, "/users/from_phone_numbers", {"phone_numbers": _numbers(5_571_000, 998)}, owner.token)
    lookup = _post(client, "/users/from_phone_numbers", {"phone_numbers": _numbers(5_572_000, 3)}, owner.token)
    invite = _event(client, owner, _numbers(5_573_000, 3))
    return {
        "invitee_fields_that_differ": differing,
        "lookup_after_allowance": lookup.status_code,
        "invite_after_allowance": invite.status_code,
    }


def events_per_owner(client, count: int) -> dict:
    from tests.utils.factories import make_person

    alice, carol = make_person("Alice"), make_person("Carol")
    statuses = Counter(_event(client, alice, [carol.phone], title=f"Spam {n}").status_code for n in range(count))
    started = time.perf_counter()
    page = client.http.get("/events/timeline?type=received", headers={"Authorization": f"Bearer {carol.token}"})
    return {
        "created": statuses.get(201, 0),
        "statuses": dict(statuses),
        "carols_first_page_events": len(json.loads(page.body)),
        "page_bytes": len(page.body),
        "page_seconds": round(time.perf_counter() - started, 2),
    }


def nul(client) -> dict:
    from tests.utils.factories import make_person

    caller, bob = make_person("Caller"), make_person("Bob")
    results = {}
    for name, entry in (("nul", bob.phone + "\u0000"), ("surrogate", "+1415555\ud800")):
        response = _post(client, "/users/from_phone_numbers", {"phone_numbers": [entry]}, caller.token)
        results[name] = {"status": response.status_code, "answer": response.body.decode()[:90]}
    return results


def unicode_duplicates(client) -> dict:
    from tests.utils.factories import make_event, make_person

    owner = make_person("Owner")
    event = make_event(owner)
    statuses = [
        _post(
            client,
            f"/events/{event.id}/polls",
            {"suggested_date": "2030-06-02T18:00:00Z", "suggested_venue": venue},
            owner.token,
        ).status_code
        for venue in ("Café", "Cafe\u0301")
    ]
    return {"composed_then_decomposed": statuses}


def png(width: int, height: int, colour_type: int, depth: int) -> bytes:
    """A valid PNG of zero samples, every row Paeth-filtered (the costliest filter to undo)."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour_type]
    row = b"\x04" + bytes(-(-width * channels * depth // 8))
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    palette = chunk(b"PLTE", bytes(range(256)) * 3) if colour_type == 3 else b""
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + palette + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def image_cpu(client, megapixels: float) -> dict:
    from chalicelib.services.media import images
    from tests.utils.factories import make_person

    owner = make_person("Uploader")
    width = int((megapixels * 1_000_000 * 4 / 3) ** 0.5)
    height = int(megapixels * 1_000_000 // width)
    results = {}
    original = images.process_image
    for name, colour_type, depth in (("grey16", 0, 16), ("grey_alpha16", 4, 16), ("palette", 3, 8), ("rgb8", 2, 8)):
        spent: list[float] = []

        def timed(*args, spent=spent, **kwargs):
            started = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent.append(time.thread_time() - started)

        data = png(width, height, colour_type, depth)
        images.process_image = timed
        try:
            boundary = "----b"
            body = (
                (
                    f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\n'
                    "Content-Type: image/png\r\n\r\n"
                ).encode()
                + data
                + f"\r\n--{boundary}--\r\n".encode()
            )
            headers = {
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Authorization": f"Bearer {owner.token}",
            }
            response = client.http.post("/users/change_avatar", body=body, headers=headers)
        finally:
            images.process_image = original
        results[name] = {"status": response.status_code, "image_cpu_s": round(sum(spent), 2)}
    return {"image": f"{width}x{height} PNG", **results}


def runs(args) -> dict:
    return {
        "quota": lambda client: quota(client, args.quota_numbers),
        "nested": lambda client: nested(client, args.nested_parts),
        "invite-cost": lambda client: invite_cost(client, args.new_numbers),
        "devices": lambda client: devices(client, args.rounds),
        "pins": pins,
        "enumeration": enumeration,
        "events-per-owner": lambda client: events_per_owner(client, args.events),
        "nul": nul,
        "unicode": unicode_duplicates,
        "image-cpu": lambda client: image_cpu(client, args.image_megapixels),
    }


def add_options(parser) -> None:
    parser.add_argument("--code", default=None, help="another checkout of the service to measure")
    parser.add_argument("--quota-numbers", type=int, default=60)
    parser.add_argument("--nested-parts", type=int, default=360_000)
    parser.add_argument("--new-numbers", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--events", type=int, default=150)
    parser.add_argument("--image-megapixels", type=float, default=39.99)
