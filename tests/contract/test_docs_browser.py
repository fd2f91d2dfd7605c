"""GET /docs renders the document for a person: a real headless Chromium (Playwright, tests/utils/browser.py)
loads the page from the live stack, Swagger UI runs from the package's own assets, and the rendered page
lists every documented operation, once, with no HEAD entries (HEAD is one rule of the introduction).

The test saves what a person would see, after the render: ``docs.png`` in the test's tmp dir
(``--basetemp=DIR`` to choose where), never the loading spinner.
"""

from __future__ import annotations

import pytest
import yaml

from tests.utils.live_stack import ROOT, LocalStack

METHODS = ("get", "post", "put", "patch", "delete")
RENDER_TIMEOUT_MS = 30_000


def documented_operations(document: dict) -> list[tuple[str, str]]:
    return sorted(
        (method.upper(), path) for path, item in document["paths"].items() for method in item if method in METHODS
    )


@pytest.mark.e2e
def test_docs_page_renders_every_operation_once_and_no_head_entries(chromium, tmp_path):
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    expected = documented_operations(document)
    with LocalStack() as stack:
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        problems: list[str] = []
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
        page.goto(f"{stack.api}/docs", wait_until="load")
        # Swagger UI renders after the load event: wait for the operations themselves, all of them.
        page.wait_for_function(
            "count => document.querySelectorAll('.opblock .opblock-summary-method').length >= count",
            arg=len(expected),
            timeout=RENDER_TIMEOUT_MS,
        )
        rendered = page.eval_on_selector_all(
            ".opblock",
            """blocks => blocks.map(block => [
                 block.querySelector('.opblock-summary-method').textContent.trim(),
                 block.querySelector('.opblock-summary-path').getAttribute('data-path'),
               ])""",
        )
        title = page.locator(".information-container .title").inner_text()
        spinner = page.locator(".loading-container").count()
        reported_errors = page.locator(".errors-wrapper").count()
        screenshot = tmp_path / "docs.png"
        page.screenshot(path=str(screenshot), full_page=True)
        requested = [line for line in stack.lines if '"msg": "request"' in line]

    # Every documented operation is listed exactly once, and nothing else: no HEAD entry.
    assert sorted(tuple(entry) for entry in rendered) == expected
    assert not [entry for entry in rendered if entry[0] == "HEAD"]
    assert document["info"]["title"] in title
    assert spinner == 0 and reported_errors == 0, "still loading, or Swagger UI reported errors in the document"
    assert problems == []
    # The screenshot is of the rendered page (a whole list of operations), not of a spinner.
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert screenshot.stat().st_size > 50_000, screenshot.stat().st_size
    print(f"screenshot of /docs: {screenshot}")
    # Everything came from the service itself: the page, its two assets and the document.
    for route in ('"route": "/docs"', '"route": "/docs/assets/{name}"', '"route": "/openapi.json"'):
        assert any(route in line and '"status": 200' in line for line in requested), (route, requested)
