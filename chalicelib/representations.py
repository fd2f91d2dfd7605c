"""Models to the JSON shapes of the spec (User and its subsets; events come with their issue)."""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.models.users import User

NOTIFY_FLAGS = (
    "notify_new_invite",
    "notify_invite_rsvp",
    "notify_contact_joined",
    "notify_event_full",
    "notify_upcoming_event",
)


def media_url(key: str | None) -> str | None:
    """The public URL of a stored image: the configured base (a CDN), else the bucket's own URL."""
    if not key:
        return None
    settings = get_settings()
    if settings.avatar_base_url:
        base = settings.avatar_base_url.rstrip("/")
    elif settings.aws_endpoint_url:
        base = f"{settings.aws_endpoint_url.rstrip('/')}/{settings.avatar_bucket}"
    else:
        base = f"https://{settings.avatar_bucket}.s3.{settings.aws_region}.amazonaws.com"
    return f"{base}/{key}"


def user_json(user: User, *, auth_token: str | None = None, with_event_change: bool = False) -> dict:
    body = {
        "id": user.id,
        "is_active": user.is_active,
        "full_name": user.full_name,
        "email": user.email,
        "phone_number": user.phone_number,
        "photo": media_url(user.photo_key),
        "big_photo": media_url(user.big_photo_key),
    }
    for flag in NOTIFY_FLAGS:
        body[flag] = getattr(user, flag)
    if with_event_change:
        body["notify_event_change"] = user.notify_event_change
    if auth_token is not None:
        body["auth_token"] = auth_token
    return body


def user_summary_json(user: User) -> dict:
    """The short user of ``from_phone_numbers`` rows."""
    return {
        "id": user.id,
        "full_name": user.full_name,
        "phone_number": user.phone_number,
        "photo": media_url(user.photo_key),
        "big_photo": media_url(user.big_photo_key),
    }


def favorite_json(favorite, *, owner_id: int) -> dict:
    """A favorite contact (``favorite`` is a ``models.users.Favorite`` of ``owner_id``)."""
    return {
        "id": favorite.id,
        "phone_number": favorite.fav_phone,
        "contact_name": favorite.contact_name,
        "photo_url": media_url(favorite.photo_key),
        "owner": owner_id,
        "is_favorite": True,
    }
