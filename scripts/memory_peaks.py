"""Peak memory (RSS) of each function on its heaviest path: ``python scripts/memory_peaks.py [--scale N]``.

Every figure is the peak RSS (``VmHWM``, MiB) of a fresh CPython process that imports the app as Lambda does and
then runs one path through the function's own entry point:

- **API function**: a 12 MP (4000x3000) JPEG avatar processed to both sizes by the upload's code (``process_image``,
  the stage's limits); ``POST /events`` with 500 new numbers to invite, through the Lambda handler (a proxy
  event): the 500 people made and invited and their 500 texts sent, all within the request (only invitees with
  an account get a queue message, for their pushes).
- **Queue worker** (``send_notifications``, one SQS record per invocation as deployed): a heavy account's export;
  the same account's deletion. The worker's process takes the messages off the queue itself and hands each to
  the handler, so the messages a step sends on are handled in the same process too, as one warm instance
  would: its peak is the path's.
- **Schedule** and **texts' handler**: one hourly run, one STOP.

The AWS calls go to a moto server in this (the parent) process, so the emulator's memory is not in any figure.
The heavy account is tests/services/account/test_account_deletion_scale.py's, times ``--scale`` (1: 10 owned events of
50 guests, 100 invitations with a message each, 50 favorites with a photo; 10 would be the brief's heavy account,
100 events of 500 guests, 1,000 invitations, 500 favorites, but moto copies whole tables in every transaction:
at 3 it took the emulator's process past 19 GB. Measure at 1 and extrapolate, as docs/operations.md does).
CPython here is the environment's; on Lambda the runtime interface client runs in the function's process and
adds roughly 20-30 MiB (an estimate). Beside each peak:
``cpu_seconds``, the process's CPU after the import (every thread), and for the worker the most CPU one message
took: what a smaller memory setting, which gives a function less CPU, would stretch.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PEAK = """
import json, sys, time
from pathlib import Path

def peak_mib():
    # VmHWM, the process's peak RSS: unlike ru_maxrss it starts afresh at exec, not at the parent's peak
    status = Path("/proc/self/status").read_text()
    return round(int(status.split("VmHWM:")[1].split()[0]) / 1024, 1)

figures = {"interpreter": peak_mib()}
import app
figures["app_imported"] = peak_mib()
cpu_started = time.process_time()
# moto answers a 500-item write more slowly than DynamoDB does: a longer read timeout, same memory
from chalicelib import aws
aws.CLIENT_LIMITS = {name: aws.ClientLimits(lim.connect, 60, lim.attempts) for name, lim in aws.CLIENT_LIMITS.items()}
"""

_AVATAR = (
    _PEAK
    + """
from chalicelib.config import get_settings
from chalicelib.services.media.images import process_image
data = Path(sys.argv[1]).read_bytes()
process_image(data, field="photo", max_bytes=len(data) + 1, max_pixels=get_settings().avatar_max_pixels)
figures.update(peak=peak_mib(), cpu_seconds=round(time.process_time() - cpu_started, 2))
print(json.dumps(figures))
"""
)

_API_REQUEST = (
    _PEAK
    + """
answer = app.app(json.loads(Path(sys.argv[1]).read_text()), None)
if answer["statusCode"] >= 300:
    raise SystemExit(f"the request failed: {answer}")
figures.update(peak=peak_mib(), cpu_seconds=round(time.process_time() - cpu_started, 2))
print(json.dumps(figures))
"""
)

# The worker: every message on the queue (and every one the handled ones send on) through the SQS handler.
_WORKER = (
    _PEAK
    + """
from chalicelib import aws
from chalicelib.config import get_settings
url, handled, started, longest = get_settings().notifications_queue_url, 0, time.monotonic(), 0.0
while True:
    got = aws.sqs().receive_message(QueueUrl=url, MaxNumberOfMessages=1, WaitTimeSeconds=0).get("Messages", [])
    if not got:
        break
    (message,) = got
    record = {"messageId": message["MessageId"], "receiptHandle": message["ReceiptHandle"], "body": message["Body"],
              "attributes": {}, "messageAttributes": {}, "eventSource": "aws:sqs",
              "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:memory-notifications", "awsRegion": "us-east-1"}
    before = time.process_time()
    app.send_notifications({"Records": [record]}, None)
    longest = max(longest, time.process_time() - before)
    aws.sqs().delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    handled += 1
figures.update(peak=peak_mib(), messages=handled, seconds=round(time.monotonic() - started, 1),
               cpu_seconds=round(time.process_time() - cpu_started, 2), most_cpu_one_message=round(longest, 2))
print(json.dumps(figures))
"""
)

_SCHEDULE = (
    _PEAK
    + """
app.remind_upcoming_events({"version": "0", "id": "memory", "detail-type": "Scheduled Event", "source": "aws.events",
                            "account": "123456789012", "time": "2026-11-27T00:00:00Z", "region": "us-east-1",
                            "resources": [], "detail": {}}, None)
figures.update(peak=peak_mib(), cpu_seconds=round(time.process_time() - cpu_started, 2))
print(json.dumps(figures))
"""
)

_INBOUND_SMS = (
    _PEAK
    + """
from tests.utils.inbound_sms import sns_event
app.handle_inbound_sms(sns_event({"originationNumber": "+12025550142", "destinationNumber": "+18005550100",
                                  "messageBody": "STOP", "inboundMessageId": "memory"}), None)
figures.update(peak=peak_mib(), cpu_seconds=round(time.process_time() - cpu_started, 2))
print(json.dumps(figures))
"""
)

# Data, written through the app's services in a process of its own (nothing of it in a measured process).
_SETUP = """
import json, sys
from tests.utils.aws_env import create_resources
create_resources()
import boto3
queue = boto3.client("sqs").create_queue(QueueName="memory-notifications")["QueueUrl"]
from chalicelib import inline_queue, jobs
inline_queue.register(jobs.handle_here)
from chalicelib.services.identity import auth, users
owner, _ = users.find_or_create_user("+12025550100", active=True)
owner = users.update_profile(owner, {"full_name": "Olivia Owner"})
print(json.dumps({"queue_url": queue, "owner_token": auth.issue_token(owner)}))
"""

# The heavy account, after the invite (a bigger table slows every later emulated call).
_HEAVY_ACCOUNT = """
import json, sys
from tests.services.account import test_account_deletion_scale as heavy
scale = int(sys.argv[1])
heavy.OWNED_EVENTS, heavy.INVITATIONS, heavy.FAVORITES = 10 * scale, 100 * scale, 50 * scale
heavy.INVITEES = 50 * min(scale, 10)
heavy_id, _received = heavy._heavy_account()
print(json.dumps({"heavy_id": heavy_id}))
"""

# Queue a step as the API function would (the request's own work is not what is measured here).
_QUEUE_STEP = """
import sys
from chalicelib.models.users import PROFILE_SK, User, user_pk
user = User.get(user_pk(int(sys.argv[2])), PROFILE_SK)
if sys.argv[1] == "export":
    from chalicelib.services.account import data_export
    data_export.request_export(user)
else:
    from chalicelib.services.account import account_deletion
    account_deletion.delete_account(user)
"""


def _run(code: str, env: dict, *args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"memory_peaks child failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    lines = [line for line in done.stdout.splitlines() if line.startswith("{") and '"msg"' not in line]
    return json.loads(lines[-1]) if lines else {}


def _invite_event(token: str) -> dict:
    numbers = [f"+1312555{n:04d}" for n in range(500)]
    body = {"title": "Big party", "event_date": "2031-01-01T18:00:00Z", "invite_phone_numbers": numbers}
    return {
        "resource": "/events",
        "path": "/events",
        "httpMethod": "POST",
        "headers": {"Authorization": f"Bearer {token}", "Content-Type": "application/json", "Host": "api.test"},
        "multiValueHeaders": {},
        "queryStringParameters": None,
        "multiValueQueryStringParameters": None,
        "pathParameters": None,
        "stageVariables": None,
        "requestContext": {
            "resourcePath": "/events",
            "httpMethod": "POST",
            "path": "/api/events",
            "stage": "api",
            "requestId": "memory",
            "identity": {"sourceIp": "127.0.0.1"},
        },
        "body": json.dumps(body),
        "isBase64Encoded": False,
    }


def _serialise_moto() -> None:
    """One emulated action at a time: moto's transactions are not thread-safe, and the app's fan-outs run
    calls side by side (the tests' conftest does the same)."""
    import threading

    from moto.core.responses import BaseResponse

    if getattr(BaseResponse, "serialised", False):
        return
    lock, call_action = threading.Lock(), BaseResponse.call_action

    def serialised(self):
        with lock:
            return call_action(self)

    BaseResponse.call_action, BaseResponse.serialised = serialised, True


def memory_peaks(scale: int = 1) -> dict:
    """Per function and path: the peak RSS in MiB of a fresh process (and the app's import alone)."""
    sys.path.insert(0, str(ROOT))
    from scripts.bench import BENCH_LIMITS, photo_like
    from scripts.cold_start import moto_server
    from tests.utils.aws_env import TEST_ENVIRONMENT

    results: dict = {"scale": scale}
    base = {**os.environ, **TEST_ENVIRONMENT, **BENCH_LIMITS, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as scratch:
        image = Path(scratch) / "avatar.jpg"
        out = io.BytesIO()
        photo_like((4000, 3000)).save(out, "JPEG", quality=90)
        image.write_bytes(out.getvalue())
        results["api_12mp_avatar"] = _run(_AVATAR, base, str(image)) | {"image_bytes": image.stat().st_size}

        _serialise_moto()
        with moto_server() as endpoint:
            env = {**base, "AWS_ENDPOINT_URL": endpoint}
            started = time.monotonic()
            setup = _run(_SETUP, env)
            queued = {**env, "NOTIFICATIONS_QUEUE_URL": setup["queue_url"]}
            request = Path(scratch) / "invite.json"
            request.write_text(json.dumps(_invite_event(setup["owner_token"])))
            results["api_500_number_invite"] = _run(_API_REQUEST, queued, str(request))
            setup |= _run(_HEAVY_ACCOUNT, env, str(scale))
            results["setup_seconds"] = round(time.monotonic() - started, 1)
            _run(_QUEUE_STEP, queued, "export", str(setup["heavy_id"]))
            results["worker_heavy_export"] = _run(_WORKER, queued)
            _run(_QUEUE_STEP, queued, "delete", str(setup["heavy_id"]))
            results["worker_heavy_deletion"] = _run(_WORKER, queued)
            results["schedule_hourly_run"] = _run(_SCHEDULE, queued)
            results["inbound_sms_stop"] = _run(_INBOUND_SMS, queued)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1, help="heavy account size (10: the brief's heavy account)")
    args = parser.parse_args(argv)
    print(json.dumps(memory_peaks(args.scale), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
