"""The language a person chose on a page, kept on their user record for the texts they are sent."""

from __future__ import annotations

from chalicelib.models.users import User
from chalicelib.store import Refused, refusals
from chalicelib.store.users import user_with_id


def keep_language(user_id: int, tag: str) -> None:
    """Set the user's language; nothing when the user is gone (deleted meanwhile)."""
    try:
        with refusals():
            user_with_id(user_id).update(actions=[User.language.set(tag)], condition=User.pk.exists())
    except Refused:
        return
