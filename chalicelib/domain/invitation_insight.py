"""What hosts learn of each invitation (never shown to a guest): how it reached the person (``invited_via``) and
how many guests have opened their page (``opened_count``). Pure: the caller has read the invitations.

``invited_via``: ``link`` for someone who joined by the event's join link (stored on the invitation when it is
made); otherwise ``text`` for a person without the app, invited by number (their invitation has a guest page
link or a text's state), and ``push`` for a person with the app. The owner's row has none."""

from __future__ import annotations

from collections.abc import Iterable

from chalicelib.domain.roles import Role, role_of

PUSH, TEXT, LINK = "push", "text", "link"
CHANNELS = (PUSH, TEXT, LINK)


def invited_via(invitation) -> str | None:
    """How ``invitation`` reached its person; None for the owner's own."""
    if role_of(invitation) == Role.OWNER:
        return None
    stored = getattr(invitation, "invited_via", None)
    if stored in CHANNELS:
        return stored
    texted = getattr(invitation, "link_hash", None) or getattr(invitation, "text_status", None)
    return TEXT if texted else PUSH


def opened_count(invitations: Iterable) -> int:
    """The guests who opened their page at least once (the hosts' own visits are never recorded)."""
    return sum(1 for invitation in invitations if getattr(invitation, "first_opened_at", None) is not None)
