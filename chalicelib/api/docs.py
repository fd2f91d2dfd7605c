"""GET /openapi.json and GET /docs: the published contract, and a page that renders it for a person.

The document is ``chalicelib/openapi.json``, built from ``openapi.yaml`` by scripts/build_openapi.py
(no YAML parser in the bundle). The page is Swagger UI, served from the package (no CDN). Files are
read on first use and kept for the life of the Lambda instance. No authentication.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from chalice import Response

from chalicelib.api.request import RequestContext
from chalicelib.errors import NotFound

PACKAGE = Path(__file__).resolve().parent.parent
OPENAPI_JSON = PACKAGE / "openapi.json"
STATIC = PACKAGE / "static"
SWAGGER_UI = STATIC / "swagger-ui"
TEXT = "text/plain; charset=utf-8"
ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "LICENSE": TEXT,
    "NOTICE": TEXT,
    "swagger-ui-bundle.js.LICENSE.txt": TEXT,
}
ASSET_CACHE = "public, max-age=86400"


@cache
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _reply(ctx: RequestContext, body: str, content_type: str, **headers: str) -> Response:
    headers = {"Content-Type": content_type, "X-Content-Type-Options": "nosniff", **headers}
    return Response(body="" if ctx.method == "HEAD" else body, status_code=200, headers=headers)


def openapi_document(ctx: RequestContext):
    return _reply(ctx, _text(OPENAPI_JSON), "application/json")


def docs_page(ctx: RequestContext):
    return _reply(ctx, _text(STATIC / "docs.html"), "text/html; charset=utf-8")


def docs_asset(ctx: RequestContext):
    name = ctx.params.get("name")
    if name not in ASSETS:
        raise NotFound()
    return _reply(ctx, _text(SWAGGER_UI / name), ASSETS[name], **{"Cache-Control": ASSET_CACHE})
