"""The export of the caller's data: POST/GET /users/me/export (DELETE /users/me is account_close.py)."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import HandlerResult
from chalicelib.services.account import data_export


def request_export(ctx: RequestContext):
    return HandlerResult(body=data_export.request_export(ctx.user), status=202)


def export_status(ctx: RequestContext):
    return data_export.export_status(ctx.user)
