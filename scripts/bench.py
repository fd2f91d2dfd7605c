"""`make bench`: cold start, cold import, DynamoDB round trips per endpoint, avatar speed, package size, latency.

    python scripts/bench.py                 # the full run (about two minutes), writes bench-results.json
    python scripts/bench.py --smoke         # small numbers, for CI: proves the benchmark still runs

Round trips are counted with a botocore ``before-call`` hook on every client the service makes.
Calls made on the request's own thread are sequential; calls made inside one
``chalicelib.parallel.parallel_map`` fan-out share one round. Figures are "beyond authentication"
(authentication is one BatchGetItem on every authorised route, reported as ``auth``).
Everything runs against moto in this process; no network beyond 127.0.0.1.

The cold start is the figure that counts: fresh processes importing the app and answering
``GET /events/{id}`` through the Lambda handler, against a minimal Chalice + PynamoDB + boto3 handler,
paired runs, median ratio. ``cold_start_zip_ms`` (scripts/cold_start_zip.py) runs it as Lambda does: the
deployment zip unpacked read-only, CPython 3.12, nothing compiled kept, against the baseline packaged the
default way (no .pyc); ``cold_start_ms`` (scripts/cold_start.py) is the older in-venv figure, kept beside it
for comparison. The cold import stops before the first request, so it hides what that request loads and
builds; it is kept for comparison too.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.cold_start import cold_start  # noqa: E402
from scripts.cold_start_zip import cold_start_from_zip  # noqa: E402
from tests.utils.aws_env import REGION, TEST_ENVIRONMENT, create_resources, use_test_environment  # noqa: E402

BENCH_LIMITS = {
    # The benchmark repeats requests far past the hourly limits a person meets.
    "AUTH_SMS_PER_NUMBER": "1000000",
    "AUTH_SMS_PER_IP_PER_HOUR": "1000000",
    "AUTH_VERIFY_PER_IP_PER_HOUR": "1000000",
    "INVITE_SMS_PER_OWNER_PER_HOUR": "1000000",
    "INVITE_SMS_PER_STRANGER_PER_DAY": "1000000",
    "EVENTS_PER_OWNER_PER_DAY": "1000000",
    "CONTACT_LOOKUP_NUMBERS_PER_USER_PER_DAY": "100000000",
    "MESSAGES_PER_EVENT": "100000",
    "WEB_REQUESTS_PER_IP_PER_HOUR": "1000000",
}
TARGETS = {
    "cold_start_ratio": 1.10,
    # from the unpacked zip, read-only, CPython 3.12, against the baseline packaged without .pyc
    "cold_start_zip_ratio": 0.75,
    "cold_import_ratio": 1.15,
    "avatar_jpeg_ms": 150,
    "deployment_zip_mb": 20,
    "max_sequential": 3,
    # the app's CPU per warm request over a minimal Chalice handler making the same AWS calls, each scenario
    "warm_cost_ratio": 1.5,
}


@dataclass(frozen=True)
class Scale:
    events: int
    invitees: int
    messages: int
    repeats: int
    import_runs: int
    start_runs: int
    avatar_runs: int
    package: bool
    zip_runs: int = 11


FULL = Scale(events=100, invitees=50, messages=50, repeats=25, import_runs=7, start_runs=9, avatar_runs=7, package=True)
SMOKE = Scale(events=6, invitees=4, messages=4, repeats=2, import_runs=2, start_runs=2, avatar_runs=1, package=False)


# --------------------------------------------------------------------------- cold import

_TIMED_IMPORT = "import time; t = time.perf_counter(); import {modules}; print((time.perf_counter() - t) * 1000)"


def _import_ms(modules: str) -> float:
    env = {**os.environ, **TEST_ENVIRONMENT}
    done = subprocess.run(
        [sys.executable, "-c", _TIMED_IMPORT.format(modules=modules)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


EVERY_SERVICE = (
    "app; from chalicelib.services.identity.tokens import authenticate; "
    "from chalicelib.services.hosting.events import EventInput; "
    "from chalicelib.services.contacts.contacts import who_has_invited_me; "
    "from chalicelib.services.conversation.conversation import post_message; "
    "from chalicelib.services.participants.representations import event_json; "
    "from chalicelib.services.media import avatars; from chalicelib.services.identity import social; "
    "from chalicelib.services.push import devices"
)


def cold_import(runs: int) -> dict:
    """Median of fresh processes importing the app, against chalice + boto3 + pynamodb's models."""
    baseline_modules = "chalice, boto3, pynamodb.models"
    _import_ms("app"), _import_ms(baseline_modules)  # byte-compile once; not counted
    app_ms, baseline_ms = [], []
    for _ in range(runs):  # interleaved, so both meet the same machine load
        app_ms.append(_import_ms("app"))
        baseline_ms.append(_import_ms(baseline_modules))
    app, baseline = statistics.median(app_ms), statistics.median(baseline_ms)
    # The route modules load their services on first use; this is what loading every one of them costs.
    eager = statistics.median(_import_ms(EVERY_SERVICE) for _ in range(runs))
    return {
        "app": round(app, 1),
        "baseline": round(baseline, 1),
        "ratio": round(app / baseline, 3),
        "app_with_every_service": round(eager, 1),
    }


# --------------------------------------------------------------------------- call counting


class CallRecorder:
    """Every AWS call of every botocore client, with the fan-out round it belonged to."""

    def __init__(self):
        self.calls: list[tuple[str, str, int | None]] = []
        self._lock = threading.Lock()

    def install(self) -> None:
        import botocore.session

        original = botocore.session.Session.create_client
        recorder = self

        def create_client(session, *args, **kwargs):
            client = original(session, *args, **kwargs)
            client.meta.events.register("before-call.*.*", recorder.before_call)
            return client

        botocore.session.Session.create_client = create_client

    def before_call(self, event_name: str, **_kwargs) -> None:
        from chalicelib.parallel import current_round

        _, service, operation = event_name.split(".", 2)
        with self._lock:
            self.calls.append((service, operation, current_round()))

    def dynamodb(self, authenticated: bool) -> dict:
        calls = [call for call in self.calls if call[0] == "dynamodb"]
        own_thread = sum(1 for call in calls if call[2] is None)
        fan_outs = {call[2] for call in calls if call[2] is not None}
        auth = 1 if authenticated else 0
        return {
            "calls": len(calls) - auth,
            "sequential": own_thread + len(fan_outs) - auth,
            "scans": sum(1 for call in calls if call[1] == "Scan"),
            "auth": auth,
        }


# --------------------------------------------------------------------------- data set


@dataclass
class DataSet:
    owner: object
    guest: object
    owner_token: str
    guest_token: str
    big_event_id: int
    guest_invitation_id: int
    spare_event_ids: list[int]
    numbers: list[str]
    guest_page: str  # /i/<code> of a person invited to the big event by text


def _phone(n: int) -> str:
    return f"+1202555{n:04d}"


def build_data_set(scale: Scale) -> DataSet:
    """A user with ``scale.events`` events; one of them with many invitees, messages and 3 polls."""
    from datetime import UTC, datetime, timedelta

    from chalicelib.services.conversation import conversation
    from chalicelib.services.hosting import events
    from chalicelib.services.identity import auth, users
    from chalicelib.services.participants import event_reads

    def person(n: int, name: str):
        user, _ = users.find_or_create_user(_phone(n), active=True)
        return users.update_profile(user, {"full_name": name, "email": f"p{n}@example.test"})

    owner, guest = person(1, "Olivia Owner"), person(2, "Gus Guest")
    crowd = [person(100 + n, f"Friend {n}") for n in range(scale.invitees)]
    start = datetime.now(UTC).replace(microsecond=0) + timedelta(days=2)

    big = events.create_event(
        owner,
        events.EventInput(
            title="Big party",
            event_date=start,
            is_time_specified=True,
            invite_phone_numbers=[guest.phone_number] + [p.phone_number for p in crowd],
        ),
    ).event
    texted = _phone(3000)  # no account: texted a link to the event page
    events.update_event(owner, big.id, events.EventInput(invite_phone_numbers=[texted]))
    for n in range(scale.messages):
        conversation.post_message(crowd[n % len(crowd)], big.id, f"Message number {n}")
    for n in range(3):
        conversation.post_poll(owner, big.id, start + timedelta(days=n + 1), f"Venue {n}")

    spare = []
    for n in range(scale.events - 1):
        view = events.create_event(
            owner,
            events.EventInput(
                title=f"Event {n}",
                event_date=start + timedelta(hours=n + 1),
                is_time_specified=True,
                invite_phone_numbers=[guest.phone_number] + [p.phone_number for p in crowd[:4]],
            ),
        )
        conversation.post_message(owner, view.event.id, "See you there")
        spare.append(view.event.id)
    invitation = event_reads.get_event(guest, big.id).invitation_of(guest.id)
    return DataSet(
        owner=owner,
        guest=guest,
        owner_token=auth.issue_token(owner),
        guest_token=auth.issue_token(guest),
        big_event_id=big.id,
        guest_invitation_id=invitation.id,
        spare_event_ids=spare,
        numbers=[p.phone_number for p in crowd],
        guest_page=_page_link(texted),
    )


def _page_link(number: str) -> str:
    import re

    from moto.sns.models import sns_backends

    texts = [m for p, m in sns_backends[TEST_ACCOUNT][REGION].sms_messages.values() if p == number]
    return re.search(r"https?://[^/\s]+(/i/[A-Za-z0-9_-]{32})", texts[-1]).group(1)


# --------------------------------------------------------------------------- endpoints


@dataclass
class Endpoint:
    name: str
    request: Callable[[object], object]  # what prepare gave (else the repetition number) -> response
    status: int
    authenticated: bool = True
    prepare: Callable[[int], object] | None = None  # untimed, uncounted set-up of one repetition


def _jpeg(size=(1200, 900)) -> bytes:

    out = io.BytesIO()
    photo_like(size).save(out, "JPEG", quality=90)
    return out.getvalue()


def photo_like(size):
    """A smooth gradient with grain: compresses and decodes like a photo, not like noise or flat colour."""
    from PIL import Image

    gradient = Image.linear_gradient("L").resize(size)
    grain = Image.effect_noise(size, 24)
    return Image.merge("RGB", (gradient, Image.blend(gradient, grain, 0.3), grain.transpose(Image.FLIP_LEFT_RIGHT)))


def endpoints(client, data: DataSet, scale: Scale) -> list[Endpoint]:
    from moto.sns.models import sns_backends

    def headers(token: str | None, content_type: str | None = "application/json") -> dict:
        result = {"Content-Type": content_type} if content_type else {}
        if token:
            result["Authorization"] = f"Bearer {token}"
        return result

    def call(method: str, path: str, token: str | None = None, payload=None):
        body = json.dumps(payload).encode() if payload is not None else None
        return client.http.request(
            method, path, body=body, headers=headers(token, "application/json" if body else None)
        )

    owner, guest, big = data.owner_token, data.guest_token, data.big_event_id
    spare = iter(data.spare_event_ids)
    poll_targets = iter(data.spare_event_ids)
    login_numbers = iter(range(5000, 9000))

    def request_pin(_n):
        return call("POST", "/auth", payload={"phone_number": _phone(next(login_numbers))})

    def pin_for_new_number(_n):
        number = _phone(next(login_numbers))
        call("POST", "/auth", payload={"phone_number": number})
        texts = [m for p, m in sns_backends[TEST_ACCOUNT][REGION].sms_messages.values() if p == number]
        return number, re.search(r"\b(\d{6})\b", texts[-1]).group(1)  # the text's one six-digit number

    def verify_pin(number_and_pin):
        number, pin = number_and_pin
        return call("POST", "/auth/verify_pin", payload={"phone_number": number, "pin": pin})

    avatar = _jpeg()
    boundary = "bench-boundary"
    multipart = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n'
            "Content-Type: image/jpeg\r\n\r\n"
        ).encode()
        + avatar
        + f"\r\n--{boundary}--\r\n".encode()
    )

    def change_avatar(_n):
        return client.http.post(
            "/users/change_avatar", body=multipart, headers=headers(owner, f"multipart/form-data; boundary={boundary}")
        )

    device = "ab" * 32

    def add_device(_n):
        return call("POST", "/notifications/add_ios_device", owner, {"token": device})

    def remove_device(_n):
        return call("POST", "/notifications/remove_ios_device", owner, {"token": device})

    lookup = data.numbers + [_phone(9500 + n) for n in range(scale.invitees)]

    def open_answer_form(n):
        """Untimed: the page a guest has open, whose form token the answer sends."""
        import re

        html = client.http.get(data.guest_page).body.decode()
        token = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
        return {"csrf": token, "message": "", "answer": "accept" if n % 2 else "decline"}

    def answer_from_page(fields):
        from urllib.parse import urlencode

        form = {"Content-Type": "application/x-www-form-urlencoded", "Origin": "null", "Sec-Fetch-Site": "same-origin"}
        return client.http.post(f"{data.guest_page}/rsvp", body=urlencode(fields).encode(), headers=form)

    return [
        Endpoint("POST /auth", request_pin, 204, authenticated=False),
        Endpoint("POST /auth/verify_pin", verify_pin, 200, authenticated=False, prepare=pin_for_new_number),
        Endpoint(
            "POST /auth/register",
            lambda n: call("POST", "/auth/register", owner, {"full_name": "Olivia Owner", "email": "o@example.test"}),
            200,
        ),
        Endpoint("GET /users/me", lambda n: call("GET", "/users/me", owner), 200),
        Endpoint(
            "PATCH /users/me", lambda n: call("PATCH", "/users/me", owner, {"notify_event_full": n % 2 == 0}), 200
        ),
        Endpoint("POST /users/change_avatar", change_avatar, 200),
        Endpoint(
            "POST /users/remove_avatar",
            lambda n: call("POST", "/users/remove_avatar", owner),
            200,
            prepare=change_avatar,
        ),
        Endpoint(
            "POST /notifications/add_ios_device",
            lambda n: call("POST", "/notifications/add_ios_device", owner, {"token": device}),
            204,
            prepare=remove_device,
        ),
        Endpoint(
            "POST /notifications/remove_ios_device",
            lambda n: call("POST", "/notifications/remove_ios_device", owner, {"token": device}),
            204,
            prepare=add_device,
        ),
        Endpoint("GET /events", lambda n: call("GET", "/events", owner), 200),
        Endpoint("GET /events?per_page=1000", lambda n: call("GET", "/events?per_page=1000", owner), 200),
        Endpoint(
            "POST /events",
            lambda n: call(
                "POST",
                "/events",
                owner,
                {"title": f"New {n}", "event_date": "2031-01-01T18:00:00Z", "invite_phone_numbers": data.numbers[:10]},
            ),
            201,
        ),
        Endpoint("GET /events/timeline", lambda n: call("GET", "/events/timeline?type=received", guest), 200),
        Endpoint("GET /events/stats", lambda n: call("GET", "/events/stats", guest), 200),
        Endpoint("GET /events/sample_rsvp_replies", lambda n: call("GET", "/events/sample_rsvp_replies", guest), 200),
        Endpoint("GET /events/{id}", lambda n: call("GET", f"/events/{big}", guest), 200),
        Endpoint(
            "PATCH /events/{id}", lambda n: call("PATCH", f"/events/{big}", owner, {"venue_name": f"Hall {n}"}), 200
        ),
        Endpoint("POST /events/{id}/accept", lambda n: call("POST", f"/events/{big}/accept", guest, {}), 200),
        Endpoint("POST /events/{id}/reject", lambda n: call("POST", f"/events/{big}/reject", guest, {}), 200),
        Endpoint(
            "PUT /events/{id}/invitations/{id}/mark_seen",
            lambda n: call("PUT", f"/events/{big}/invitations/{data.guest_invitation_id}/mark_seen", guest),
            200,
        ),
        Endpoint(
            "POST /events/{id}/messages",
            lambda n: call("POST", f"/events/{big}/messages", guest, {"body": f"bench {n}"}),
            201,
        ),
        Endpoint(
            "POST /events/{id}/polls",
            lambda n: call(
                "POST",
                f"/events/{next(poll_targets)}/polls",
                guest,
                {"suggested_date": "2031-02-01T18:00:00Z", "suggested_venue": "Bench hall"},
            ),
            201,
        ),
        Endpoint(
            "POST /events/{id}/time_suggestions",
            lambda n: call(
                "POST", f"/events/{big}/time_suggestions", guest, {"suggested_time": "2031-02-01T18:00:00Z"}
            ),
            204,
        ),
        Endpoint(
            "GET /events/{id}/time_suggestions", lambda n: call("GET", f"/events/{big}/time_suggestions", guest), 200
        ),
        Endpoint(
            "PUT /events/{id}/cancel_event", lambda n: call("PUT", f"/events/{next(spare)}/cancel_event", owner), 204
        ),
        Endpoint(
            "POST /users/favorite_contacts",
            lambda n: call(
                "POST",
                "/users/favorite_contacts",
                owner,
                [{"contact_name": f"Friend {i}", "phone_number": number} for i, number in enumerate(data.numbers[:20])],
            ),
            200,
        ),
        Endpoint("GET /users/favorite_contacts", lambda n: call("GET", "/users/favorite_contacts", owner), 200),
        Endpoint(
            "DELETE /users/favorite_contacts",
            lambda n: call("DELETE", "/users/favorite_contacts", owner, {"phone_numbers": data.numbers[:2]}),
            200,
        ),
        Endpoint(
            "POST /users/from_phone_numbers",
            lambda n: call("POST", "/users/from_phone_numbers", owner, {"phone_numbers": lookup}),
            200,
        ),
        Endpoint("GET /users/who_has_invited_me", lambda n: call("GET", "/users/who_has_invited_me", guest), 200),
        Endpoint("GET /users/fb_friends", lambda n: call("GET", "/users/fb_friends", guest), 200),
        Endpoint(
            "POST /auth/logout",
            lambda token: call("POST", "/auth/logout", token),
            204,
            prepare=lambda n: _fresh_token(data),
        ),
        Endpoint("GET /i/{code}", lambda n: client.http.get(data.guest_page), 200, authenticated=False),
        Endpoint("POST /i/{code}/rsvp", answer_from_page, 303, authenticated=False, prepare=open_answer_form),
        Endpoint(
            "GET /i/{code}/event.ics",
            lambda n: client.http.get(f"{data.guest_page}/event.ics"),
            200,
            authenticated=False,
        ),
    ]


TEST_ACCOUNT = "123456789012"


def _fresh_token(data: DataSet) -> str:
    from chalicelib.services.identity import auth

    return auth.issue_token(data.owner)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def measure_endpoints(scale: Scale, recorder: CallRecorder) -> tuple[dict, dict]:
    from chalice.test import Client

    import app as application

    data = build_data_set(scale)
    round_trips, latency = {}, {}
    with Client(application.app) as client:
        for endpoint in endpoints(client, data, scale):
            endpoint.request(endpoint.prepare(-1) if endpoint.prepare else -1)  # warm: PynamoDB describes tables once
            timings = []
            for n in range(scale.repeats):
                argument = endpoint.prepare(n) if endpoint.prepare else n
                recorder.calls.clear()
                started = time.perf_counter()
                response = endpoint.request(argument)
                timings.append((time.perf_counter() - started) * 1000)
                if response.status_code != endpoint.status:
                    raise SystemExit(f"{endpoint.name}: {response.status_code} {response.body[:300]!r}")
                if n == 0:
                    round_trips[endpoint.name] = recorder.dynamodb(endpoint.authenticated)
            latency[endpoint.name] = {
                "p50": round(statistics.median(timings), 1),
                "p95": round(_percentile(timings, 0.95), 1),
            }
    return round_trips, latency


# --------------------------------------------------------------------------- avatar and package


def avatar_speed(runs: int) -> dict:
    """Upload processing of a 4000x3000 image to both sizes (the service's own code path)."""
    from chalicelib.services.media.images import process_image

    image = photo_like((4000, 3000))
    jpeg, png = io.BytesIO(), io.BytesIO()
    image.save(jpeg, "JPEG", quality=90)
    image.quantize(64).convert("RGB").save(png, "PNG")  # a graphic-like PNG: a 12 MP photo PNG exceeds 5 MB

    def median_ms(data: bytes) -> float:
        process_image(data, max_bytes=len(data) + 1, max_pixels=40_000_000)  # warm imports
        timings = []
        for _ in range(runs):
            started = time.perf_counter()
            process_image(data, max_bytes=len(data) + 1, max_pixels=40_000_000)
            timings.append((time.perf_counter() - started) * 1000)
        return round(statistics.median(timings), 1)

    return {
        "jpeg_12mp": median_ms(jpeg.getvalue()),
        "png_12mp": median_ms(png.getvalue()),
        "jpeg_bytes": len(jpeg.getvalue()),
        "png_bytes": len(png.getvalue()),
    }


def deployment_zip_mb() -> float:
    # as deployed: python3.12, manylinux wheels, no boto3/botocore (scripts/chalice_cli.py); the "local" stage
    # needs no stack settings and packages the same code and dependencies
    cli = [sys.executable, str(ROOT / "scripts" / "chalice_cli.py")]
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "AWS_DEFAULT_REGION": os.environ.get("AWS_DEFAULT_REGION", "us-east-1")}
        subprocess.run([*cli, "package", "--stage", "local", out], cwd=ROOT, env=env, check=True, capture_output=True)
        size = (Path(out) / "deployment.zip").stat().st_size
        with zipfile.ZipFile(Path(out) / "deployment.zip") as archive:
            archive.testzip()
    return round(size / 1024 / 1024, 2)


# --------------------------------------------------------------------------- report


def warm_cost_figures(scale: Scale) -> dict:
    """scripts/warm_cost.py in its own process: its clients must carry the replay hook from their first call."""
    blocks, requests = (1, 3) if scale is SMOKE else (7, 60)
    command = [sys.executable, str(ROOT / "scripts" / "warm_cost.py"), "--json", "--blocks", str(blocks)]
    done = subprocess.run([*command, "--requests", str(requests)], cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def print_table(results: dict) -> None:
    start = results["cold_start_ms"]
    print(f"\ncold start (venv): app {start['app']} ms, baseline {start['baseline']} ms, ratio {start['ratio']}")
    zipped = results["cold_start_zip_ms"]
    if zipped:
        print(
            f"cold start (zip, read-only, Python {zipped['python']}): app {zipped['app']} ms, "
            f"baseline without .pyc {zipped['baseline']} ms, ratio {zipped['ratio']}"
        )
    cold = results["cold_import_ms"]
    print(f"cold import: app {cold['app']} ms, baseline {cold['baseline']} ms, ratio {cold['ratio']}")
    avatar = results["avatar_ms"]
    print(f"avatar: JPEG 12 MP {avatar['jpeg_12mp']} ms, PNG 12 MP {avatar['png_12mp']} ms")
    print(f"deployment zip: {results['deployment_zip_mb']} MB")
    for name, warm in results["warm_cost"].items():
        print(
            f"warm CPU {name}: app {warm['app_cpu_ms']} ms, minimal handler {warm['minimal_cpu_ms']} ms, "
            f"ratio {warm['ratio']}"
        )
    print(f"\n{'endpoint':46} {'calls':>5} {'seq':>4} {'scans':>5} {'p50 ms':>8} {'p95 ms':>8}")
    for name, trips in results["round_trips"].items():
        lat = results["latency_ms"][name]
        counts = f"{trips['calls']:>5} {trips['sequential']:>4} {trips['scans']:>5}"
        print(f"{name:46} {counts} {lat['p50']:>8} {lat['p95']:>8}")


def check_targets(results: dict) -> list[str]:
    misses = []
    if results["cold_start_ms"]["ratio"] > TARGETS["cold_start_ratio"]:
        misses.append(f"cold start ratio {results['cold_start_ms']['ratio']} > {TARGETS['cold_start_ratio']}")
    if results["cold_import_ms"]["ratio"] > TARGETS["cold_import_ratio"]:
        misses.append(f"cold import ratio {results['cold_import_ms']['ratio']} > {TARGETS['cold_import_ratio']}")
    if results["avatar_ms"]["jpeg_12mp"] > TARGETS["avatar_jpeg_ms"]:
        misses.append(f"avatar JPEG {results['avatar_ms']['jpeg_12mp']} ms > {TARGETS['avatar_jpeg_ms']} ms")
    for name, figures in results["warm_cost"].items():
        if figures["ratio"] > TARGETS["warm_cost_ratio"]:
            misses.append(f"warm cost of {name}: ratio {figures['ratio']} > {TARGETS['warm_cost_ratio']}")
    zipped = results["cold_start_zip_ms"]
    if zipped and zipped["ratio"] > TARGETS["cold_start_zip_ratio"]:
        misses.append(f"cold start from the zip: ratio {zipped['ratio']} > {TARGETS['cold_start_zip_ratio']}")
    size = results["deployment_zip_mb"]
    if size is not None and size > TARGETS["deployment_zip_mb"]:
        misses.append(f"deployment zip {size} MB > {TARGETS['deployment_zip_mb']} MB")
    for name, trips in results["round_trips"].items():
        if trips["scans"]:
            misses.append(f"{name}: {trips['scans']} scans")
        if trips["sequential"] > TARGETS["max_sequential"]:
            misses.append(f"{name}: {trips['sequential']} sequential rounds")
    trips = results["round_trips"]
    if trips["GET /events/{id}"]["calls"] > 2:
        misses.append(f"GET /events/{{id}}: {trips['GET /events/{id}']['calls']} calls > 2")
    if trips["GET /events/stats"]["calls"] > 1:
        misses.append(f"GET /events/stats: {trips['GET /events/stats']['calls']} calls > 1")
    if trips["GET /i/{code}"]["calls"] > 4:  # detail's 2, the rate counter for authentication, the announcements
        misses.append(f"GET /i/{{code}}: {trips['GET /i/{code}']['calls']} calls > 4")
    return misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small numbers, to check the benchmark runs")
    parser.add_argument("--out", default=str(ROOT / "bench-results.json"))
    args = parser.parse_args(argv)
    scale = SMOKE if args.smoke else FULL

    use_test_environment()
    os.environ.update(BENCH_LIMITS)
    results = {
        "scale": scale.__dict__,
        "cold_start_ms": cold_start(scale.start_runs),  # before anything here makes a client
        "cold_import_ms": cold_import(scale.import_runs),
    }

    recorder = CallRecorder()
    recorder.install()
    from moto import mock_aws

    with mock_aws():
        create_resources()
        import boto3

        queue = boto3.client("sqs", region_name=REGION).create_queue(QueueName="bench-notifications")
        os.environ["NOTIFICATIONS_QUEUE_URL"] = queue["QueueUrl"]  # requests enqueue, as in AWS
        from chalicelib.config import get_settings

        get_settings.cache_clear()
        results["round_trips"], results["latency_ms"] = measure_endpoints(scale, recorder)
    results["avatar_ms"] = avatar_speed(scale.avatar_runs)
    results["deployment_zip_mb"] = deployment_zip_mb() if scale.package else None
    # the same zip (chalice reuses its cached package), unpacked as Lambda runs it
    results["cold_start_zip_ms"] = cold_start_from_zip(scale.zip_runs) if scale.package else None
    results["warm_cost"] = warm_cost_figures(scale)
    results["targets_missed"] = check_targets(results)

    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    print_table(results)
    print("\ntargets: " + ("all met" if not results["targets_missed"] else "; ".join(results["targets_missed"])))
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
