"""Open the service's pages in headless Chromium without a server: each request the browser makes to the public
base (tests/utils/web.py ``PUBLIC_BASE``) is answered by the Chalice test client, with the service's own
status, headers (the Content-Security-Policy among them) and body. Nothing leaves the process.

    context = chromium.new_context(viewport=PHONE)
    serve_through(context, client)
    page = context.new_page()
    page.goto(PUBLIC_BASE + "/i/<code>")
"""

from __future__ import annotations

from urllib.parse import urlsplit

from tests.utils.web import PUBLIC_BASE

PASSED_ON = ("content-type", "origin", "sec-fetch-site", "accept-language")


def serve_through(context, client) -> None:
    """Answer every request of ``context`` to the public base with ``client``; any other request is refused."""

    def answer(route, request) -> None:
        if not request.url.startswith(PUBLIC_BASE + "/"):
            route.abort()
            return
        parts = urlsplit(request.url)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        headers = {name: value for name, value in request.headers.items() if name.lower() in PASSED_ON}
        if request.method == "POST":
            response = client.http.post(path, body=request.post_data_buffer or b"", headers=headers)
        else:
            response = client.http.get(path, headers=headers)
        route.fulfill(status=response.status_code, headers=dict(response.headers), body=response.body)

    context.route("**/*", answer)
