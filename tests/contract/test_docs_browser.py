"""GET /docs renders the document for a person: a real headless Chromium loads the page from the live stack,
runs Swagger UI from the package's own assets, and the rendered DOM lists the operations.

Debian's `chromium` package is the browser (.ci/run installs it in CI, where its absence fails the test);
elsewhere the test is skipped, saying so, when it is not installed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

import pytest
import yaml

from tests.utils.live_stack import ROOT, LocalStack

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BROWSER_TIMEOUT_SECONDS = 60


def render(url: str) -> str:
    """The DOM after the page's scripts ran (virtual time lets the fetch of openapi.json and the render finish)."""
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=15000",
                "--dump-dom",
                url,
            ],
            capture_output=True,
            text=True,
            timeout=BROWSER_TIMEOUT_SECONDS,
            check=False,
        )
    assert result.returncode == 0, result.stderr[-5000:]
    return result.stdout


@pytest.mark.e2e
def test_docs_page_renders_every_operation_in_a_real_browser():
    if CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing in CI: .ci/run installs it")
        pytest.skip("chromium is not installed (apt-get install chromium; .ci/run does it in CI)")
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    with LocalStack() as stack:
        dom = render(f"{stack.api}/docs")
        requested = [line for line in stack.lines if '"msg": "request"' in line]
    # Swagger UI ran: the title and every path are rendered from openapi.json, which the page fetched.
    assert document["info"]["title"] in dom, dom[:3000]
    rendered_paths = set(re.findall(r'data-path="([^"]+)"', dom))
    assert rendered_paths == set(document["paths"]), sorted(set(document["paths"]) - rendered_paths)
    assert "/events/{event_id}/accept" in dom
    assert 'class="errors-wrapper"' not in dom, "Swagger UI reported errors in the document"
    # Everything came from the service itself: the page, its two assets and the document.
    for route in ('"route": "/docs"', '"route": "/docs/assets/{name}"', '"route": "/openapi.json"'):
        assert any(route in line and '"status": 200' in line for line in requested), (route, requested)
