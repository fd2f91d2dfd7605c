"""The caller's own account as a whole: DELETE /users/me, and the export of their data."""

from __future__ import annotations

from chalicelib.api.routing import NO_BODY, NO_CONTENT, Reply, RequestContext, route
from chalicelib.services import account_deletion, data_export


@route("/users/me", ["DELETE"], body=NO_BODY)
def delete_me(ctx: RequestContext):
    account_deletion.delete_account(ctx.user)
    return NO_CONTENT


@route("/users/me/export", ["POST"], body=NO_BODY)
def request_export(ctx: RequestContext):
    return Reply(body=data_export.request_export(ctx.user), status=202)


@route("/users/me/export", ["GET"])
def export_status(ctx: RequestContext):
    return data_export.export_status(ctx.user)
