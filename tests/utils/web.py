"""Helpers for the guest's event page (/i/<code>): the link out of the text, the form, answering."""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

from tests.utils.api import post_json, texts_to

PUBLIC_BASE = "https://invites.example.test"  # PUBLIC_BASE_URL of tests/utils/aws_env.py
LINK = re.compile(r"(https?://[^\s/]+(?::\d+)?)(/i/([A-Za-z0-9_-]{32}))(?=\s|$)")
FORM = "application/x-www-form-urlencoded"
FROM_THE_PAGE = {"Origin": "null", "Sec-Fetch-Site": "same-origin"}  # what a browser sends for the page's form


def link_in(text: str) -> str:
    """The path (/i/<code>) of the link in an invitation text."""
    found = LINK.search(text)
    assert found, text
    return found.group(2)


def link_texted_to(number: str) -> str:
    return link_in(texts_to(number)[-1])


def invite_by_text(client, owner, *numbers: str, **fields) -> dict:
    """Create an event of ``owner`` inviting ``numbers`` through the API; returns its JSON."""
    payload = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": list(numbers)}
    response = post_json(client, "/events", {**payload, **fields}, token=owner.token)
    assert response.status_code == 201, response.body
    return response.json_body


def page(client, path: str, headers=None):
    return client.http.get(path, headers=headers or {})


def text_of(response) -> str:
    return response.body.decode("utf-8")


def form_token(page_html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]*)"', page_html)
    assert found, page_html
    return html.unescape(found.group(1))


def post_form(client, path: str, fields: dict, headers=None):
    all_headers = {"Content-Type": FORM, **FROM_THE_PAGE, **(headers or {})}
    return client.http.post(path, body=urlencode(fields).encode(), headers=all_headers)


def answer(client, path: str, choice: str, message: str = "", headers=None):
    """Open the page, then press ``choice`` ("accept"/"decline") with ``message``, as a browser would."""
    opened = page(client, path)
    assert opened.status_code == 200, opened.body
    fields = {"csrf": form_token(text_of(opened)), "message": message, "answer": choice}
    return post_form(client, f"{path}/rsvp", fields, headers)


def invite_on_live_stack(stack, owner_token: str, guest: str, **fields) -> tuple[int, re.Match]:
    """Create an event on a running local stack inviting ``guest`` by text; its id and the link found in
    the last text the emulator kept for ``guest``."""
    payload = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": [guest], **fields}
    created = stack.call("POST", "/events", owner_token, payload)
    assert created.status_code == 201, created.text
    found = LINK.search(stack.texts_to(guest)[-1])
    assert found, stack.texts_to(guest)
    return created.json()["id"], found
