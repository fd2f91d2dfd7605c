"""The caller's avatar: POST /users/change_avatar (a multipart photo) and POST /users/remove_avatar."""

from __future__ import annotations

from chalicelib.api.multipart import photo_from_multipart
from chalicelib.api.request import RequestContext
from chalicelib.services.media import avatars
from chalicelib.services.participants import representations


def change_avatar(ctx: RequestContext):
    photo = photo_from_multipart(ctx.header("content-type") or "", ctx.request.raw_body)
    return representations.user_json(avatars.change_avatar(ctx.user, photo))


def remove_avatar(ctx: RequestContext):
    return representations.user_json(avatars.remove_avatar(ctx.user))
