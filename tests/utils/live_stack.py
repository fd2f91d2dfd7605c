"""`make run`'s local stack (scripts/local_stack.py) started for real on free ports, driven over HTTP.

Used by the end-to-end test and the contract tests (Schemathesis, the browser check of /docs).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

from chalicelib.config import setting_types

ROOT = Path(__file__).resolve().parents[2]
READY_LINE = "Ctrl-C stops everything."
START_TIMEOUT_SECONDS = 30
HTTP_TIMEOUT_SECONDS = 10


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def fresh_shell_environment() -> dict[str, str]:
    """os.environ without what tests/conftest.py set for in-process tests, as `make run` would see it."""
    settings = {name.upper() for name in setting_types()}
    return {
        name: value
        for name, value in os.environ.items()
        if name not in settings and not name.startswith("AWS_") and not name.startswith("PYTEST_")
    }


class LocalStack:
    """The runner as a child process, its console captured line by line."""

    def __init__(self, **settings: str):
        self.api_port = free_port()
        self.moto_port = free_port()
        while self.moto_port == self.api_port:
            self.moto_port = free_port()
        self.api = f"http://127.0.0.1:{self.api_port}"
        self.emulator = f"http://127.0.0.1:{self.moto_port}"
        self.lines: list[str] = []
        self.ready = threading.Event()
        env = fresh_shell_environment()
        # every request of a test run comes from 127.0.0.1: the per-address login limits would bind it
        env.update(AUTH_SMS_PER_IP_PER_HOUR="100000", AUTH_VERIFY_PER_IP_PER_HOUR="100000")
        env.update(settings)  # e.g. FB_GRAPH_URL of a fake Graph API, so nothing leaves 127.0.0.1
        env.update(PORT=str(self.api_port), MOTO_PORT=str(self.moto_port), AUTORELOAD="0", PYTHONUNBUFFERED="1")
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "local_stack.py")],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group, so the finalizer can kill all of it
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))
            if READY_LINE in line:
                self.ready.set()
        self.ready.set()  # the runner exited: stop waiting

    @property
    def console(self) -> str:
        return "\n".join(self.lines)

    def wait_until_ready(self) -> float:
        self.ready.wait(START_TIMEOUT_SECONDS)
        assert self.process.poll() is None, f"the local stack exited early:\n{self.console}"
        assert self.ready.is_set(), f"no banner within {START_TIMEOUT_SECONDS} s:\n{self.console}"
        assert answers(self.api_port) and answers(self.moto_port), self.console
        return time.monotonic() - self.started

    def stop(self, timeout: float = 10) -> int:
        """SIGTERM, as `kill` or a service manager would send; returns the runner's exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout)
        self.reader.join(5)
        return status

    def kill(self) -> None:
        """Last resort, after a failure: nothing of the stack may outlive the test."""
        if self.process.poll() is None:
            try:
                self.stop()
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        # (stdout is left to the daemon reader: closing it would block while a child still holds the pipe)

    def __enter__(self) -> LocalStack:
        try:
            self.wait_until_ready()
        except AssertionError as failure:
            self.kill()
            raise RuntimeError(f"the local stack did not start: {failure}") from None
        return self

    def __exit__(self, *exc_info) -> None:
        self.kill()

    # --- driving it as a client ---------------------------------------------------------------------

    def url(self, path: str) -> str:
        return f"{self.api}{path}"

    def texts_to(self, phone: str) -> list[str]:
        """Every SMS the emulator was asked to send to ``phone``, oldest first.

        moto server keeps them: ``{"sns": {"SMS": [{"phone_number", "message", "message_id"}]}}``.
        """
        data = requests.get(f"{self.emulator}/moto-api/data.json", timeout=HTTP_TIMEOUT_SECONDS).json()
        return [sms["message"] for sms in data["sns"]["SMS"] if sms["phone_number"] == phone]

    def last_pin(self, phone: str) -> str:
        return re.search(r"\b(\d{6})\b", self.texts_to(phone)[-1]).group(1)

    def login(self, phone: str, full_name: str | None = None) -> dict:
        """The User body with ``auth_token``, after POST /auth and /auth/verify_pin (and register)."""
        response = requests.post(self.url("/auth"), json={"phone_number": phone}, timeout=HTTP_TIMEOUT_SECONDS)
        assert response.status_code == 204, response.text
        response = requests.post(
            self.url("/auth/verify_pin"),
            json={"phone_number": phone, "pin": self.last_pin(phone)},
            timeout=HTTP_TIMEOUT_SECONDS,
        )
        assert response.status_code == 200, response.text
        user = response.json()
        if full_name:
            profile = {"full_name": full_name, "email": "caller@example.com"}
            response = self.call("POST", "/auth/register", user["auth_token"], profile)
            assert response.status_code == 200, response.text
            user = response.json()
        return user

    def call(self, method: str, path: str, token: str, body=None) -> requests.Response:
        return requests.request(
            method,
            self.url(path),
            json=body,
            headers={"Authorization": f"Bearer {token}"},
            timeout=HTTP_TIMEOUT_SECONDS,
        )
