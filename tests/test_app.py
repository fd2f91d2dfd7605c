"""The app module itself: what a cold start imports, and the routes it registers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys
import app
from chalicelib import aws
heavy = ["boto3", "PIL", "phonenumbers"]
made = sorted(aws._clients) + (["session"] if aws._session is not None else [])
print(json.dumps({"loaded": [m for m in heavy if m in sys.modules], "made": made, "routes": sorted(app.app.routes)}))
"""


def test_importing_the_app_makes_no_client_and_loads_no_route_only_library():
    from tests.utils.aws_env import TEST_ENVIRONMENT

    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=TEST_ENVIRONMENT | {"PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["loaded"] == []
    assert report["made"] == []
    assert "/events/{event_id}" in report["routes"] and "/auth" in report["routes"]


def test_every_registered_path_answers_every_method():
    from app import app

    for path, methods in app.routes.items():
        assert set(methods) >= {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}, path
