"""The records the store hands out, by name, for the layers above (annotations, roles): they read these
objects' fields, and change them only through store functions."""

from __future__ import annotations

from chalicelib.models.events import (
    GUEST,
    OWNER,
    Event,
    Invitation,
    Message,
    OfflineGuest,
    Photo,
    Poll,
    TimeSuggestion,
)
from chalicelib.models.users import Favorite, User

__all__ = [
    "GUEST",
    "OWNER",
    "Event",
    "Favorite",
    "Invitation",
    "Message",
    "OfflineGuest",
    "Photo",
    "Poll",
    "TimeSuggestion",
    "User",
]
