"""The link to the user's social network account (Graph API)."""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.services.identity import graph
from chalicelib.services.identity.users import update_profile
from chalicelib.store.records import User


def link_account(user: User, access_token: str) -> User:
    """Check ``access_token`` with the Graph API, then keep it for friend lookups."""
    settings = get_settings()
    profile = graph.fetch_profile(
        access_token, base_url=settings.fb_graph_url, timeout=settings.fb_graph_timeout_seconds
    )
    return update_profile(user, {"fb_token": access_token, "fb_id": str(profile["id"])})


def friends(user: User) -> list[dict]:
    """``[{"name", "id"}]`` of the linked account's friends (every page); ``[]`` when none is linked.

    Graph down: 503. A token Graph now refuses (expired, revoked): 400
    ``{"fb_token": ["Invalid or expired token."]}``, so the app knows to ask for a new link
    rather than show an empty list as if the user had no friends.
    """
    if not user.fb_token:
        return []
    settings = get_settings()
    return graph.fetch_friends(user.fb_token, base_url=settings.fb_graph_url, timeout=settings.fb_graph_timeout_seconds)
