"""The export of the caller's data: POST/GET /users/me/export (DELETE /users/me is with the profile's routes)."""

from __future__ import annotations

from chalicelib.api.blueprint import ApiBlueprint
from chalicelib.api.request import NO_BODY, RequestContext
from chalicelib.api.responses import HandlerResult
from chalicelib.services import data_export

blueprint = ApiBlueprint(__name__)


@blueprint.route("/users/me/export", ["POST"], body=NO_BODY)
def request_export(ctx: RequestContext):
    return HandlerResult(body=data_export.request_export(ctx.user), status=202)


@blueprint.route("/users/me/export", ["GET"])
def export_status(ctx: RequestContext):
    return data_export.export_status(ctx.user)
