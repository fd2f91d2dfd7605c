"""Cold start to first answer: the app against a minimal Chalice + PynamoDB + boto3 handler.

Each run is a fresh process that imports its handler and answers ``GET /events/{id}`` once through the
Lambda entry point (an API Gateway proxy event), against a moto server on 127.0.0.1. The clock starts
before the first import and stops with the answer. The baseline does the same three reads on the same
tables with one boto3 client: the token and the profile (BatchGetItem), the event's partition (Query),
the people (BatchGetItem). Runs are paired (app, then baseline) so both meet the same machine load.

    python scripts/cold_start.py [runs]     # prints the figures as JSON
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.utils.aws_env import TEST_ENVIRONMENT  # noqa: E402

# One fresh process: the clock starts before the handler's module is imported.
_CHILD = """
import time
started = time.perf_counter()
import importlib, json, sys
handler = importlib.import_module(sys.argv[1]).app
answer = handler(json.loads(sys.argv[2]), None)
elapsed = (time.perf_counter() - started) * 1000
if answer["statusCode"] != 200:
    raise SystemExit(f"{sys.argv[1]}: {answer}")
print(elapsed)
"""

# Data for the request, written through the app's own services (in a process of its own, so the bench's
# process keeps no client pointed at the server).
_SEED = """
import json
from datetime import UTC, datetime, timedelta
from tests.utils.aws_env import create_resources
create_resources()
from chalicelib import inline_queue, jobs
inline_queue.register(jobs.handle_here)  # no queue here: the event's messages are handled in process, as app.py does
from chalicelib.services.identity import auth, users
from chalicelib.services.hosting import events
def person(n, name):
    user, _ = users.find_or_create_user(f"+1202555{n:04d}", active=True)
    return users.update_profile(user, {"full_name": name})
owner, guest = person(1, "Olivia Owner"), person(2, "Gus Guest")
crowd = [person(100 + n, f"Friend {n}") for n in range(8)]
view = events.create_event(owner, events.EventInput(
    title="Party", event_date=datetime.now(UTC).replace(microsecond=0) + timedelta(days=2), is_time_specified=True,
    invite_phone_numbers=[guest.phone_number] + [p.phone_number for p in crowd]))
print(json.dumps({"event_id": view.event.id, "token": auth.issue_token(guest)}))
"""


def proxy_event(event_id: int, token: str) -> dict:
    """What API Gateway (REST, proxy integration) hands the Lambda for ``GET /events/{event_id}``."""
    return {
        "resource": "/events/{event_id}",
        "path": f"/events/{event_id}",
        "httpMethod": "GET",
        "headers": {"Authorization": f"Bearer {token}", "Accept": "application/json", "Host": "api.example.test"},
        "multiValueHeaders": {"Authorization": [f"Bearer {token}"]},
        "queryStringParameters": None,
        "multiValueQueryStringParameters": None,
        "pathParameters": {"event_id": str(event_id)},
        "stageVariables": None,
        "requestContext": {
            "resourcePath": "/events/{event_id}",
            "httpMethod": "GET",
            "path": f"/api/events/{event_id}",
            "stage": "api",
            "requestId": "cold-start",
            "identity": {"sourceIp": "127.0.0.1"},
        },
        "body": None,
        "isBase64Encoded": False,
    }


@contextmanager
def moto_server():
    import logging

    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


def _run(code: str, env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"cold start child failed:\n{done.stderr[-3000:]}")
    return done.stdout.strip().splitlines()[-1]


def cold_start(runs: int) -> dict:
    """Median of ``runs`` paired fresh-process first answers, app and baseline, and their median ratio."""
    with moto_server() as endpoint:
        env = {**os.environ, **TEST_ENVIRONMENT, "AWS_ENDPOINT_URL": endpoint, "PYTHONPATH": str(ROOT)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # the warm-up writes the .pyc files both sides then read
        seed = json.loads(_run(_SEED, env))
        event = json.dumps(proxy_event(seed["event_id"], seed["token"]))
        for module in ("app", "scripts.cold_start_baseline"):  # byte-compile and warm the disk cache; not counted
            _run(_CHILD, env, module, event)
        app_ms, baseline_ms = [], []
        for _ in range(runs):
            app_ms.append(float(_run(_CHILD, env, "app", event)))
            baseline_ms.append(float(_run(_CHILD, env, "scripts.cold_start_baseline", event)))
    ratios = [app / base for app, base in zip(app_ms, baseline_ms, strict=True)]
    return {
        "runs": runs,
        "app": round(statistics.median(app_ms), 1),
        "baseline": round(statistics.median(baseline_ms), 1),
        "ratio": round(statistics.median(ratios), 3),
    }


if __name__ == "__main__":
    print(json.dumps(cold_start(int(sys.argv[1]) if len(sys.argv) > 1 else 9), indent=2))
