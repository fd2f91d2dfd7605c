"""The hosts' tools on an event: co-hosts, offline guests, the guest list as CSV, and the cover image."""

from __future__ import annotations

from chalice import Response

from chalicelib import download_names
from chalicelib.api.multipart import photo_from_multipart
from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT, HandlerResult
from chalicelib.domain.event_fields import MAX_EXTRA_GUESTS
from chalicelib.domain.guest_sheet import CONTENT_TYPE
from chalicelib.services.hosting import covers, guest_list_export, offline_guests
from chalicelib.services.participants import cohosts, representations
from chalicelib.validation import Fields


def appoint_cohost(ctx: RequestContext):
    view = cohosts.appoint(ctx.user, ctx.path_id("event_id"), ctx.path_id("user_id"))
    return representations.event_json(view, ctx.user.id, representations.DETAIL)


def end_cohost(ctx: RequestContext):
    cohosts.end(ctx.user, ctx.path_id("event_id"), ctx.path_id("user_id"))
    return NO_CONTENT


def add_offline_guest(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    fields = Fields(ctx.json_object())
    name = fields.person_name("name", required=True, min_length=1, max_length=100)
    extra_guests = fields.integer("extra_guests", min_value=0, max_value=MAX_EXTRA_GUESTS)
    fields.raise_if_errors()
    guest = offline_guests.add(ctx.user, event_id, name=name, extra_guests=extra_guests or 0)
    return HandlerResult(representations.offline_guest_json(guest), status=201)


def remove_offline_guest(ctx: RequestContext):
    offline_guests.remove(ctx.user, ctx.path_id("event_id"), ctx.path_id("guest_id"))
    return NO_CONTENT


def guest_list_csv(ctx: RequestContext):
    sheet = guest_list_export.guest_list_sheet(ctx.user, ctx.path_id("event_id"))
    headers = {
        "Content-Type": CONTENT_TYPE,
        "Content-Disposition": download_names.content_disposition(sheet.title, ".csv"),
        "Cache-Control": "private, no-store",  # phone numbers: never kept by a shared cache
    }
    return Response(body="" if ctx.method == "HEAD" else sheet.text, status_code=200, headers=headers)


def change_cover(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    photo = photo_from_multipart(ctx.header("content-type") or "", ctx.request.raw_body)
    view = covers.change_cover(ctx.user, event_id, photo)
    return representations.event_json(view, ctx.user.id, representations.DETAIL)


def remove_cover(ctx: RequestContext):
    view = covers.remove_cover(ctx.user, ctx.path_id("event_id"))
    return representations.event_json(view, ctx.user.id, representations.DETAIL)
