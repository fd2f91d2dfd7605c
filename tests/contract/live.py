"""The real local stack (scripts/local_stack.py, what `make run` runs) on free ports, for contract tests.

Like tests/test_local_stack.py, but with settings passed to the app (the fake Graph API's URL, so no
request ever leaves 127.0.0.1) and helpers to log people in with the pin the emulator kept.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import requests

from tests.test_local_stack import answers, free_port, fresh_shell_environment

ROOT = Path(__file__).resolve().parents[2]
READY_LINE = "Ctrl-C stops everything."
START_TIMEOUT_SECONDS = 30
HTTP_TIMEOUT_SECONDS = 10


class LiveStack:
    """The runner as a child process in its own process group; use as a context manager."""

    def __init__(self, **settings: str):
        self.api_port = free_port()
        self.moto_port = free_port()
        while self.moto_port == self.api_port:
            self.moto_port = free_port()
        self.api = f"http://127.0.0.1:{self.api_port}"
        self.emulator = f"http://127.0.0.1:{self.moto_port}"
        self.lines: list[str] = []
        self._ready = threading.Event()
        env = fresh_shell_environment()
        env.update(settings)
        env.update(PORT=str(self.api_port), MOTO_PORT=str(self.moto_port), AUTORELOAD="0", PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "local_stack.py")],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))
            if READY_LINE in line:
                self._ready.set()
        self._ready.set()

    @property
    def console(self) -> str:
        return "\n".join(self.lines)

    def __enter__(self) -> LiveStack:
        self._ready.wait(START_TIMEOUT_SECONDS)
        if self.process.poll() is not None or not self._ready.is_set() or not answers(self.api_port):
            self.close()
            raise RuntimeError(f"the local stack did not start:\n{self.console}")
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)

    # --- driving it as a client ---------------------------------------------------------------------

    def url(self, path: str) -> str:
        return f"{self.api}{path}"

    def last_pin(self, phone: str) -> str:
        data = requests.get(f"{self.emulator}/moto-api/data.json", timeout=HTTP_TIMEOUT_SECONDS).json()
        texts = [sms["message"] for sms in data["sns"]["SMS"] if sms["phone_number"] == phone]
        return re.search(r"\b(\d{6})\b", texts[-1]).group(1)

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
