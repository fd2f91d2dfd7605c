"""The export of the caller's data: POST/GET /users/me/export (DELETE /users/me is with the profile's routes)."""

from __future__ import annotations

from chalicelib.api.routing import NO_BODY, Reply, RequestContext, route
from chalicelib.services import data_export


@route("/users/me/export", ["POST"], body=NO_BODY)
def request_export(ctx: RequestContext):
    return Reply(body=data_export.request_export(ctx.user), status=202)


@route("/users/me/export", ["GET"])
def export_status(ctx: RequestContext):
    return data_export.export_status(ctx.user)
