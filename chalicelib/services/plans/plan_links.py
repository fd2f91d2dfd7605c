"""The links of a plan: each invitee's and the owner's ``/p/<code>`` page, and, once decided, each texted
invitee's guest link of the event, kept so their plan page can point to it.

A ``/p/`` code is made as a guest link's code (chalicelib/invite_links.py: the plan's id and 136 random bits);
only its SHA-256 is stored. The event's guest link is kept sealed: its code XOR a keystream keyed by the stage's
pin key (SSM when deployed), so the table alone never gives anyone's link.
"""

from __future__ import annotations

import base64

from chalicelib import invite_links, kept_secrets
from chalicelib.config import get_settings

PAGE_PREFIX = "/p/"


def plan_link_url(code: str) -> str:
    return f"{get_settings().public_base_url.rstrip('/')}{PAGE_PREFIX}{code}"


def new_plan_code(plan_id: int) -> tuple[str, str] | None:
    """A fresh code of the plan and its hash; None without a public base URL (no link could be opened)."""
    if not get_settings().public_base_url:
        return None
    code = kept_secrets.issued(invite_links.new_code(plan_id))
    return code, invite_links.hash_code(code)


def _xor(plan_id: int, user_id: int, raw: bytes) -> bytes:
    return kept_secrets.keystream_xor(f"plan event link:{plan_id}:{user_id}", raw)


def _code_of(link: str) -> str | None:
    code = link.rsplit("/", 1)[-1]
    return code if invite_links.event_id_of(code) is not None else None


def seal_event_link(plan_id: int, user_id: int, link: str) -> str | None:
    code = _code_of(link)
    if code is None:
        return None
    raw = base64.urlsafe_b64decode(code)
    sealed = _xor(plan_id, user_id, raw)
    return base64.urlsafe_b64encode(sealed).decode("ascii")


def unseal_event_link(plan_id: int, user_id: int, sealed: str | None) -> str | None:
    """The guest link a sealed value holds (None when there is none or it does not open with this key)."""
    if not sealed:
        return None
    try:
        raw = base64.urlsafe_b64decode(sealed.encode("ascii"))
    except ValueError:
        return None
    code = base64.urlsafe_b64encode(_xor(plan_id, user_id, raw))
    return invite_links.link_url(code.decode("ascii"))
