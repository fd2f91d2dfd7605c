"""The export of the caller's data: POST/GET /users/me/export (DELETE /users/me is with the profile's routes)."""

from __future__ import annotations

from chalicelib.api.blueprint import ApiBlueprint
from chalicelib.api.request import NO_BODY, RequestContext
from chalicelib.api.responses import HandlerResult

# The export service: imported inside the handlers, so a cold start of another route skips it.

blueprint = ApiBlueprint(__name__)


@blueprint.route("/users/me/export", ["POST"], body=NO_BODY, idempotent=True)
def request_export(ctx: RequestContext):
    from chalicelib.services.account import data_export  # the export job and S3: off the API's cold start

    return HandlerResult(body=data_export.request_export(ctx.user), status=202)


@blueprint.route("/users/me/export", ["GET"])
def export_status(ctx: RequestContext):
    from chalicelib.services.account import data_export  # the export job and S3: off the API's cold start

    return data_export.export_status(ctx.user)
