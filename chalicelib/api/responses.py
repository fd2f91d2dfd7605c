"""A handler's result and how it becomes a Chalice response (JSON body, HEAD without one, 204 without
Content-Type)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from chalice import Response

CONTENT_TYPE = "Content-Type"


@dataclass
class HandlerResult:
    """A handler's answer when it is not a plain 200 with a JSON body."""

    body: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


NO_CONTENT = HandlerResult(status=204)


class NoContentResponse(Response):
    """A 204: no body, and no Content-Type once through API Gateway.

    Leaving the header out is not enough: API Gateway's Lambda proxy integration gives a response
    without one ``Content-Type: application/json``. A header whose value is null is dropped instead
    (AWS's ASP.NET Core Lambda adapter relies on the same). Chalice refuses a None header value in a
    view's Response, so the null is set in the Lambda response itself. The Chalice test client shows it
    as ``None``; ``chalice local`` needs scripts/chalice_cli.py to drop it as API Gateway does.
    """

    def to_dict(self, binary_types=None):
        response = super().to_dict(binary_types)
        response["headers"][CONTENT_TYPE] = None
        return response


def to_response(result: Any, method: str) -> Response:
    """A handler's return value (a Response, a HandlerResult or a JSON-able body) as a Response."""
    if isinstance(result, Response):
        return result
    outcome = result if isinstance(result, HandlerResult) else HandlerResult(body=result)
    headers = {**outcome.headers}
    if outcome.status == 204:
        return NoContentResponse(body="", status_code=outcome.status, headers=headers)
    headers.setdefault(CONTENT_TYPE, "application/json")
    if method == "HEAD":
        return Response(body="", status_code=outcome.status, headers=headers)
    return Response(body=json.dumps(outcome.body), status_code=outcome.status, headers=headers)
