"""The export of the caller's data: POST/GET /users/me/export (DELETE /users/me is account_close.py)."""

from __future__ import annotations

from chalice import Response

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import HandlerResult
from chalicelib.services.account import data_export, export_links


def request_export(ctx: RequestContext):
    return HandlerResult(body=data_export.request_export(ctx.user, link_base=ctx.absolute_url()), status=202)


def export_status(ctx: RequestContext):
    return data_export.export_status(ctx.user, link_base=ctx.absolute_url())


def download_export(ctx: RequestContext):
    """The link of a ready export: a 303 to a fresh S3 URL of the file (the token in the path is the credential)."""
    location = export_links.download_url(ctx.params.get("token") or "")
    return _see_other(location)


def download_export_photo(ctx: RequestContext):
    """A photo link inside the export file: a 303 to a fresh S3 URL of that JPEG (the token is the credential)."""
    return _see_other(export_links.photo_download_url(ctx.params.get("token") or ""))


def _see_other(location: str) -> Response:
    headers = {"Location": location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    return Response(body="", status_code=303, headers=headers)
