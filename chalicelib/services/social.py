"""The link to the user's social network account (Graph API)."""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.models.users import User
from chalicelib.services import graph
from chalicelib.services.users import update_profile


def link_account(user: User, access_token: str) -> User:
    """Check ``access_token`` with the Graph API, then keep it for friend lookups."""
    settings = get_settings()
    profile = graph.fetch_profile(
        access_token, base_url=settings.fb_graph_url, timeout=settings.fb_graph_timeout_seconds
    )
    return update_profile(user, {"fb_token": access_token, "fb_id": str(profile["id"])})
