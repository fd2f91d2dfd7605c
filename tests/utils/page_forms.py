"""Submitting a page's form as a browser does: to its action resolved against the address the page was shown at."""

from __future__ import annotations

import html
import re
from urllib.parse import urljoin

from tests.utils.web import post_form, text_of


def form_of(page_html: str, field: str) -> tuple[str, dict[str, str]]:
    """The action of the form that holds ``field``, and what it sends as it stands (its hidden and text inputs)."""
    for found in re.finditer(r'<form method="post" action="([^"]*)"[^>]*>(.*?)</form>', page_html, re.S):
        if f'name="{field}"' in found[2]:
            values = {}
            for tag in re.findall(r'<input type="(?:hidden|text)"[^>]*>', found[2]):
                name, value = re.search(r'name="([^"]*)"', tag), re.search(r'value="([^"]*)"', tag)
                values[html.unescape(name[1])] = html.unescape(value[1]) if value else ""
            return html.unescape(found[1]), values
    raise AssertionError(f"no form with {field}: {page_html}")


def submit(client, shown_at: str, response, field: str, fields: dict) -> tuple[str, object]:
    """Post the form holding ``field`` of the page ``response`` (shown at ``shown_at``) as it stands, with ``fields``
    typed over it; returns where it went and the answer."""
    action, hidden = form_of(text_of(response), field)
    target = urljoin(shown_at, action)
    return target, post_form(client, target, {**hidden, **fields})


def field_tag(page_html: str, name: str) -> str:
    found = re.search(rf'<input type="text" id="{name}"[^>]*>', page_html)
    assert found, page_html
    return found[0]


def forms_go_stale(override_settings):
    """Every form token older than its lifetime from now on (as after leaving the page open); returns the undo."""
    from chalicelib.config import get_settings

    lifetime = get_settings().web_form_ttl_seconds
    override_settings(web_form_ttl_seconds=-61)
    return lambda: override_settings(web_form_ttl_seconds=lifetime)
