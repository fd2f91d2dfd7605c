"""A real headless browser for tests that open pages of the live stack: Playwright driving Debian's chromium.

Playwright (pinned in requirements-dev.txt) is only the driver: it launches the system browser at
``/usr/bin/chromium`` (`.ci/run` installs Debian's `chromium` in CI). Never `playwright install`, which
downloads a browser of its own. Outside CI, a missing browser skips the test, saying so; in CI it fails.

    def test_something(chromium):            # the fixture: one browser per test
        page = chromium.new_page()

    with launch_chromium() as browser:       # or the context manager, anywhere
        ...

The fixture is registered for every test by tests/conftest.py (``pytest_plugins``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_TIMEOUT_MS = 30_000
# As root in a container Chromium needs --no-sandbox (Playwright adds it); /dev/shm is small in containers.
LAUNCH_ARGS = ["--disable-dev-shm-usage", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def require_chromium() -> None:
    """Skip (or fail, in CI) when the system browser is missing."""
    if CHROMIUM.exists():
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{CHROMIUM} is missing in CI: .ci/run installs Debian's chromium")
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium; .ci/run does it in CI)")


@contextmanager
def launch_chromium(**options) -> Iterator:
    """A headless Playwright ``Browser`` on the system chromium, closed on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=LAUNCH_ARGS,
            timeout=LAUNCH_TIMEOUT_MS,
            **options,
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def chromium():
    """A headless browser for one test (skipped outside CI when chromium is not installed)."""
    require_chromium()
    with launch_chromium() as browser:
        yield browser
