"""Models to the JSON shapes of the spec: User and its subsets, and events.

Events: Event (list, create, detail, timeline), Invitation,
Invitee, Message, Poll and TimeSuggestion (openapi.yaml; the v1 quirks: docs/api.md).

- list: ``invitations`` (guests only), ``messages``, ``polls``;
- create, detail, timeline: ``invitees`` with the owner first (``is_owner`` true, ``is_attending``
  the string "true", a legacy quirk), ``messages`` and ``polls``; ``has_seen`` in detail,
  ``faded_photo`` in timeline.
An Invitee's ``id`` is its invitation's id (what ``mark_seen`` takes); ``user_id`` is the person.
Every representation of an event shows what its caller may see of it (domain/visibility.py: the guest
list, the counts and the place a guest's settings hide are left out or null).
"""

from __future__ import annotations

from chalicelib import localtime
from chalicelib.config import get_settings
from chalicelib.domain import event_fields, invitation_insight, questions, visibility
from chalicelib.domain.roles import Action, permits, role_of
from chalicelib.store.events import EventView
from chalicelib.store.records import OWNER, Invitation, Message, OfflineGuest, Poll, TimeSuggestion, User
from chalicelib.timeutil import format_datetime

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
        body["notify_announcements"] = user.notify_announcements
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


# --------------------------------------------------------------------------- events

LIST, CREATE, DETAIL, TIMELINE = "list", "create", "detail", "timeline"


def _name(user: User | None) -> str:
    return user.full_name if user is not None else ""


def owner_json(user: User | None, owner_id: int) -> dict:
    if user is None:
        return {"id": owner_id, "phone_number": "", "full_name": "", "email": "", "is_active": False}
    return {
        "id": user.id,
        "phone_number": user.phone_number,
        "full_name": user.full_name,
        "email": user.email,
        "is_active": user.is_active,
        "photo": media_url(user.photo_key),
        "big_photo": media_url(user.big_photo_key),
    }


def invitation_json(invitation: Invitation, user: User | None, waitlist_position: int | None = None) -> dict:
    return {
        "id": invitation.id,
        "user_id": invitation.user_id,
        "user_full_name": _name(user),
        "has_seen": bool(invitation.has_seen),
        "has_accepted_invite": invitation.has_accepted,
        "rsvp_time": format_datetime(invitation.rsvp_time),
        "rsvp_message": invitation.rsvp_message or "",
        "extra_guests": int(invitation.extra_guests or 0),
        "waitlist_position": waitlist_position,
        "replied_by_host": bool(invitation.replied_by_host),
        "answers": dict(invitation.answers or {}),
    }


def invitee_json(invitation: Invitation, user: User | None, style: str, waitlist_position: int | None = None) -> dict:
    is_owner = invitation.role == OWNER
    photo = media_url(user.photo_key) if user is not None else None
    body = {
        "id": invitation.id,
        "user_id": invitation.user_id,
        "full_name": _name(user),
        "phone_number": user.phone_number if user is not None else "",
        "is_attending": "true" if is_owner else invitation.has_accepted,
        "is_active": bool(user.is_active) if user is not None else False,
        "is_owner": is_owner,
        "photo": photo,
        "big_photo": media_url(user.big_photo_key) if user is not None else None,
        "rsvp_message": None if is_owner else invitation.rsvp_message or "",
        "rsvp_time": format_datetime(invitation.rsvp_time),
        "created": format_datetime(invitation.created),
        "extra_guests": 0 if is_owner else int(invitation.extra_guests or 0),
        "waitlist_position": waitlist_position,
        "is_cohost": bool(invitation.cohost),
        "replied_by_host": bool(invitation.replied_by_host),
    }
    if style == DETAIL:
        body["has_seen"] = bool(invitation.has_seen)
    if style == TIMELINE:
        body["faded_photo"] = photo  # the client fades it; no separate image is kept
    return body


def message_json(message: Message, user: User | None) -> dict:
    return {
        "id": message.id,
        "user_id": message.user_id,
        "user_full_name": _name(user),
        "user_email": user.email if user is not None else "",
        "body": message.body,
        "created": format_datetime(message.created),
    }


def poll_json(poll: Poll) -> dict:
    return {
        "id": poll.id,
        "suggested_date": format_datetime(poll.suggested_date),
        "suggested_venue": poll.suggested_venue,
    }


def time_suggestion_json(suggestion: TimeSuggestion) -> dict:
    return {
        "id": suggestion.id,
        "user_id": suggestion.user_id,
        "suggested_time": format_datetime(suggestion.suggested_time),
        "comment": suggestion.comment,
        "like_count": suggestion.like_count,
        "is_set": suggestion.is_set,
        "created": format_datetime(suggestion.created),
    }


def offline_guest_json(guest: OfflineGuest) -> dict:
    return {
        "id": guest.id,
        "name": guest.name,
        "extra_guests": int(guest.extra_guests or 0),
        "checked_in_at": format_datetime(guest.checked_in_at),
    }


def _shown(event, name: str):
    return event_fields.shown_value(event_fields.BY_NAME[name], getattr(event, name))


def event_json(view: EventView, caller_id: int, style: str) -> dict:
    event = view.event
    mine = view.invitation_of(caller_id)
    sight = visibility.seen_by(event, mine)
    i_am_owner = event.owner_id == caller_id
    replied = mine is not None and not i_am_owner and mine.has_accepted is not None
    location = event.location
    body = {
        "id": event.id,
        "title": _shown(event, "title"),
        "event_date": format_datetime(event.event_date),
        "is_time_specified": _shown(event, "is_time_specified"),
        "created": format_datetime(event.created),
        "modified": format_datetime(event.modified),
        "total_spots": _shown(event, "total_spots"),
        "spots_filled": int(event.spots_filled or 0) if sight.counts else None,
        "attendees_count": view.attendees_count() if sight.counts else None,
        "i_am_owner": i_am_owner,
        "i_am_attending": i_am_owner or (mine is not None and mine.has_accepted is True),
        "my_rsvp_message": (mine.rsvp_message or "") if replied else None,
        "location": _location_json(location) if sight.place else None,
        "address": _shown(event, "address") if sight.place else None,
        "venue_name": _shown(event, "venue_name") if sight.place else None,
        "online_url": visibility.online_url(event, sight),
        "is_cancelled": bool(event.cancelled),
        "max_extra_guests": _shown(event, "max_extra_guests"),
        "waitlist": _shown(event, "waitlist"),
        "rsvp_deadline": format_datetime(event.rsvp_deadline) if event.rsvp_deadline else None,
        "replies_paused": _shown(event, "replies_paused"),
        "join_mode": _shown(event, "join_mode"),
        "guest_invites": _shown(event, "guest_invites"),
        "guest_list": _shown(event, "guest_list"),
        "place_visibility": _shown(event, "place_visibility"),
        "cover_url": media_url(getattr(event, "cover_key", None)),
        "album": _shown(event, "album"),
        "questions": list(event.questions or []),
        "time_zone": event.time_zone or None,
        "duration_minutes": localtime.duration_minutes(event),
        "series_id": int(event.series_id) if event.series_id else None,
        "occurrence": int(event.occurrence) if event.occurrence else None,
        "owner": owner_json(view.users.get(event.owner_id), event.owner_id),
        "cohost_ids": sorted(inv.user_id for inv in view.invitations if inv.cohost),
        "messages": [message_json(msg, view.users.get(msg.user_id)) for msg in view.messages],
        "polls": [poll_json(poll) for poll in view.polls],
    }
    # Offline guests never chose to be listed: hosts see them, guests only count them in attendees_count.
    hosting = permits(role_of(mine), Action.SEE_WHOLE_GUEST_LIST)
    asked = list(event.questions or [])
    body["offline_guests"] = [offline_guest_json(guest) for guest in view.offline_guests] if hosting else []
    body["checked_in_count"] = int(event.checked_in_count or 0) if hosting else None
    places = view.waitlist_positions()
    shown = sight.rows(view.invitations)
    if style == LIST:
        body["invitations"] = [
            invitation_json(inv, view.users.get(inv.user_id), sight.waitlist_position(inv, places))
            for inv in shown
            if inv.role != OWNER
        ]
        rows = body["invitations"]
    else:
        body["invitees"] = [
            invitee_json(inv, view.users.get(inv.user_id), style, sight.waitlist_position(inv, places)) for inv in shown
        ]
        rows = body["invitees"]
    # Answers: every row's for a host, only their own for a guest (null in the others' rows).
    held = {inv.user_id: inv.answers for inv in view.invitations}
    arrivals = {inv.user_id: inv.checked_in_at for inv in view.invitations}
    for row in rows:
        mine_or_hosting = hosting or row["user_id"] == caller_id
        row["answers"] = questions.shown_answers(asked, held.get(row["user_id"])) if mine_or_hosting else None
        row["checked_in_at"] = format_datetime(arrivals.get(row["user_id"])) if mine_or_hosting else None
    if hosting:  # how each invitation reached its person: hosts only, a guest's rows and events never carry the keys
        by_person = {inv.user_id: inv for inv in view.invitations}
        for row in rows:
            invitation = by_person[row["user_id"]]
            row["text_status"] = invitation.text_status
            row["invited_via"] = invitation_insight.invited_via(invitation)
            row["first_opened_at"] = format_datetime(invitation.first_opened_at)
        body["opened_count"] = invitation_insight.opened_count(view.invitations)
    return body


def _location_json(location) -> dict:
    return {"latitude": location.latitude, "longitude": location.longitude} if location else {}
