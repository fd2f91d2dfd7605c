"""scripts/inbound_sms.py (`make inbound-sms`): a text delivered to app.py's handler against `make run`'s stack."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.infra.scripts import ROOT, load
from tests.utils.live_stack import free_port


@pytest.fixture
def local_stack_emulator():
    """An emulator holding `make run`'s stack (the API itself is not needed)."""
    from moto.server import ThreadedMotoServer

    local_stack = load("local_stack")
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        endpoint = f"http://127.0.0.1:{port}"
        _, outputs = local_stack.create_stack(endpoint, local_stack.create_platform_application(endpoint))
        yield port, local_stack.aws_client("dynamodb", endpoint), outputs["AuthTableName"]
    finally:
        server.stop()


def _deliver(port: int, sender: str, text: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_") and k not in ("STAGE", "PIN_SECRET")}
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "inbound_sms.py"), "--from", sender, "--text", text],
        env={**env, "MOTO_PORT": str(port)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _stop_list(dynamodb, table: str) -> list[dict]:
    """The stop list's items (a test-only Scan; moto's state is per process, other tests' tables may be there)."""
    return [item for item in dynamodb.scan(TableName=table)["Items"] if item["pk"]["S"].startswith("STOP#")]


def test_stop_help_and_start_reach_the_handler_against_the_local_stack(local_stack_emulator):
    port, dynamodb, auth_table = local_stack_emulator
    number = "+14155550142"
    stopped = _deliver(port, number, "STOP")
    assert stopped.returncode == 0, stopped.stderr
    assert json.loads(stopped.stdout.splitlines()[-1])["action"] == "stopped"
    (item,) = _stop_list(dynamodb, auth_table)
    assert item["source"]["S"] == "text" and number not in json.dumps(item)

    helped = _deliver(port, number, "help")
    answer, result = (json.loads(line) for line in helped.stdout.splitlines()[-2:])
    assert answer["msg"] == "sms" and answer["to"] == number and "Reply STOP to opt out." in answer["text"]
    assert result["action"] == "helped"

    assert json.loads(_deliver(port, number, "START").stdout.splitlines()[-1])["action"] == "resumed"
    assert _stop_list(dynamodb, auth_table) == []


def test_without_make_run_it_says_so():
    done = _deliver(free_port(), "+14155550142", "STOP")
    assert done.returncode == 1 and "start `make run` first" in done.stderr
