"""Headless Chromium for browser tests: Debian's `chromium` driven by Playwright (never `playwright install`).

CI installs the `chromium` package (.ci/run); where it is missing the test is skipped, saying so, except in
CI, where its absence fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture
def chromium():
    """A launched headless Chromium (a Playwright Browser), closed after the test."""
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing in CI: .ci/run installs it")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()
