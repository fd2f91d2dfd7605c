"""The caller's own profile: GET/PATCH /users/me and the social network link. Its avatar is in avatars.py,
closing the account (DELETE /users/me) in account_export.py beside the export of its data."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.services.identity import social, users
from chalicelib.services.participants import representations
from chalicelib.validation import Fields

EDITABLE_FLAGS = (
    "notify_new_invite",
    "notify_invite_rsvp",
    "notify_contact_joined",
    "notify_event_full",
    "notify_upcoming_event",
    "notify_event_change",
    "notify_announcements",
)


def me(ctx: RequestContext):
    return representations.user_json(ctx.user, with_event_change=True)


def edit_me(ctx: RequestContext):
    fields = Fields(ctx.json_object())
    changes = {
        "full_name": fields.person_name("full_name", min_length=2, max_length=256),
        "email": fields.email("email", max_length=256),
    }
    for flag in EDITABLE_FLAGS:
        changes[flag] = fields.boolean(flag)
    fields.raise_if_errors()
    changes = {name: value for name, value in changes.items() if value is not None}
    return representations.user_json(users.update_profile(ctx.user, changes), with_event_change=True)


def link_fb_token(ctx: RequestContext):
    fields = Fields(ctx.json_object())
    token = fields.string("fb_token", required=True, max_length=1024)
    fields.raise_if_errors()
    return representations.user_json(social.link_account(ctx.user, token))
