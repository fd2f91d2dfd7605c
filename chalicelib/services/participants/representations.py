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
from chalicelib.domain.answers import GOING, answer_of, is_maybe
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
        "answer": answer_of(invitation, waitlist_position),
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
        "answer": GOING if is_owner else answer_of(invitation, waitlist_position),
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


def _removal_marked(body: dict, item: Message | Poll | TimeSuggestion) -> dict:
    """A conversation item taken down carries ``removed: true`` (its words are null); others are as they were."""
    return body | {"removed": True} if item.removed else body


def message_json(message: Message, user: User | None) -> dict:
    body = {
        "id": message.id,
        "user_id": message.user_id,
        "user_full_name": _name(user),
        "user_email": user.email if user is not None else "",
        "body": message.body,
        "created": format_datetime(message.created),
    }
    return _removal_marked(body, message)


def poll_json(poll: Poll) -> dict:
    body = {
        "id": poll.id,
        "suggested_date": format_datetime(poll.suggested_date),
        "suggested_venue": poll.suggested_venue,
    }
    return _removal_marked(body, poll)


def time_suggestion_json(suggestion: TimeSuggestion) -> dict:
    body = {
        "id": suggestion.id,
        "user_id": suggestion.user_id,
        "suggested_time": format_datetime(suggestion.suggested_time),
        "comment": None if suggestion.removed else suggestion.comment,  # read back as its default "" once gone
        "like_count": suggestion.like_count,
        "is_set": suggestion.is_set,
        "created": format_datetime(suggestion.created),
    }
    return _removal_marked(body, suggestion)


def offline_guest_json(guest: OfflineGuest) -> dict:
    return {
        "id": guest.id,
        "name": guest.name,
        "extra_guests": int(guest.extra_guests or 0),
        "checked_in_at": format_datetime(guest.checked_in_at),
    }


# The keys of an event in the order clients have always received them; a field declared since follows them.
EVENT_KEYS = (
    "id", "title", "event_date", "is_time_specified", "created", "modified", "total_spots", "spots_filled",
    "attendees_count", "i_am_owner", "i_am_attending", "my_rsvp_message", "location", "address", "venue_name",
    "is_cancelled", "max_extra_guests", "waitlist", "rsvp_deadline", "replies_paused", "join_mode", "guest_invites",
    "guest_list", "place_visibility", "cover_url", "album", "questions", "time_zone", "duration_minutes",
    "series_id", "occurrence", "owner", "cohost_ids", "messages", "polls",
)  # fmt: skip


def declared_values(seen: visibility.SeenEvent) -> dict:
    """Every field declared stored as sent (domain/event_fields.py), as the viewer of ``seen`` sees it: the
    place's null when hidden from them, and a field the seen value carries (``online_url``) as it has it."""
    event = seen.event
    values = {}
    for field in event_fields.STORED:
        if field.name in visibility.PLACE_FIELDS:
            values[field.name] = getattr(seen.place, field.name) if seen.place else None
        elif field.name in visibility.SEEN_FIELDS:
            values[field.name] = getattr(seen, field.name)
        else:
            values[field.name] = event_fields.shown_value(field, getattr(event, field.name, None))
    return values


def event_json(view: EventView, caller_id: int, style: str) -> dict:
    event = view.event
    mine = view.invitation_of(caller_id)
    seen = visibility.as_seen(event, mine, attendees=view.attendees_count)
    sight, counts = seen.sight, seen.counts
    i_am_owner = event.owner_id == caller_id
    replied = mine is not None and not i_am_owner and mine.has_accepted is not None
    computed = {
        "id": event.id,
        "event_date": format_datetime(event.event_date),
        "created": format_datetime(event.created),
        "modified": format_datetime(event.modified),
        "spots_filled": counts.spots_filled if counts else None,
        "attendees_count": counts.attendees if counts else None,
        "i_am_owner": i_am_owner,
        "i_am_attending": i_am_owner or (mine is not None and mine.has_accepted is True),
        "my_rsvp_message": (mine.rsvp_message or "") if replied else None,
        "location": _location_json(seen.place.location) if seen.place else None,
        "is_cancelled": bool(event.cancelled),
        "rsvp_deadline": format_datetime(event.rsvp_deadline) if event.rsvp_deadline else None,
        "cover_url": media_url(getattr(event, "cover_key", None)),
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
    values = {**computed, **declared_values(seen)}
    body = {key: values.pop(key) for key in EVENT_KEYS}
    body.update(values)
    # Offline guests never chose to be listed: hosts see them, guests only count them in attendees_count.
    hosting = permits(role_of(mine), Action.SEE_WHOLE_GUEST_LIST)
    asked = list(event.questions or [])
    body["offline_guests"] = [offline_guest_json(guest) for guest in view.offline_guests] if hosting else []
    body["checked_in_count"] = int(event.checked_in_count or 0) if hosting else None
    body["confirmed_count"] = _confirmed_parties(view) if hosting else None
    body["maybe_count"] = sum(1 for inv in view.invitations if is_maybe(inv)) if hosting else None
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
            row["attendance_confirmed"] = invitation.attendance_confirmed
            row["invited_via"] = invitation_insight.invited_via(invitation)
            row["first_opened_at"] = format_datetime(invitation.first_opened_at)
        body["opened_count"] = invitation_insight.opened_count(view.invitations)
    return body


def _confirmed_parties(view: EventView) -> int:
    """Going parties that answered "still coming?" with yes."""
    return sum(1 for inv in view.invitations if inv.has_accepted is True and inv.attendance_confirmed is True)


def _location_json(location) -> dict:
    return {"latitude": location.latitude, "longitude": location.longitude} if location else {}
