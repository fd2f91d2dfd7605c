"""The day itself: the album (POST/GET /events/{id}/photos, DELETE /events/{id}/photos/{photo_id}), a guest's
pass (GET /events/{id}/pass) and the hosts' check-in at the door (POST/DELETE /events/{id}/check_ins)."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT, HandlerResult
from chalicelib.services.the_day import check_ins, photos
from chalicelib.validation import MAX_SAFE_INTEGER, Fields

# The services (S3, segno): imported inside the handlers, off the API's cold start.

CODE_MAX_LENGTH = 64
ONE_PARTY = "Send exactly one of code, user_id or offline_guest_id."
PARTY_FIELDS = ("code", "user_id", "offline_guest_id")


def add_photo(ctx: RequestContext):
    fields = Fields(ctx.json_object())
    content_type = fields.choice("content_type", photos.PHOTO_TYPES, required=True)
    fields.raise_if_errors()
    grant = photos.grant_upload(ctx.user, ctx.path_id("event_id"), content_type)
    return HandlerResult(photos_grant_json(grant), status=201)


def photos_grant_json(grant) -> dict:
    """The pending photo's id and the form that uploads it: post ``upload_fields``, then the file as ``file``."""
    return {
        "id": grant.photo_id,
        "upload_url": grant.url,
        "upload_fields": grant.fields,
        "expires_at": grant.expires_at,
    }


def album(ctx: RequestContext):
    raw = ctx.query("before")
    before = None
    if raw is not None:
        fields = Fields({"before": int(raw) if raw.isdigit() and len(raw) <= 16 else raw})
        before = fields.integer("before", min_value=1, max_value=MAX_SAFE_INTEGER)
        fields.raise_if_errors()
    found, next_before = photos.album_page(ctx.user, ctx.path_id("event_id"), before)
    return {
        "results": [photos.photo_json(photo) for photo in found],
        "next": ctx.absolute_url(before=next_before) if next_before is not None else None,
    }


def remove_photo(ctx: RequestContext):
    photos.remove_photo(ctx.user, ctx.path_id("event_id"), ctx.path_id("photo_id"))
    return NO_CONTENT


def my_pass(ctx: RequestContext):
    found = check_ins.my_pass(ctx.user, ctx.path_id("event_id"))
    return {"code": found.code, "qr_svg": found.qr_svg}


def _named_party(data: dict) -> dict:
    """Exactly one of the code, the user id and the offline guest id, checked (400 keyed by field)."""
    fields = Fields(data)
    named = {
        "code": fields.string("code", max_length=CODE_MAX_LENGTH, allow_blank=False),
        "user_id": fields.integer("user_id", min_value=1),
        "offline_guest_id": fields.integer("offline_guest_id", min_value=1),
    }
    if not fields.errors and sum(value is not None for value in named.values()) != 1:
        fields.error("non_field_errors", ONE_PARTY)
    fields.raise_if_errors()
    return named


def check_in(ctx: RequestContext):
    party = check_ins.check_in(ctx.user, ctx.path_id("event_id"), **_named_party(ctx.json_object()))
    return check_ins.party_json(party)


def undo_check_in(ctx: RequestContext):
    query = {name: ctx.query(name) for name in PARTY_FIELDS if ctx.query(name) is not None}
    for name in ("user_id", "offline_guest_id"):
        if name in query and query[name].isdigit() and len(query[name]) <= 16:
            query[name] = int(query[name])
    party = check_ins.check_in(ctx.user, ctx.path_id("event_id"), undo=True, **_named_party(query))
    return check_ins.party_json(party)
