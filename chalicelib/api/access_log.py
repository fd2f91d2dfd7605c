"""One JSON line per request on stdout (CloudWatch Logs when deployed)."""

from __future__ import annotations

import json
import time


def log_request(request, status: int, started: float, request_id: str, user) -> None:
    """Method, route, status, latency, request id and caller id. Never a pin, a token, a body or a whole
    phone number."""
    line = {
        "msg": "request",
        "method": request.method,
        "route": request.path,
        "status": status,
        "latency_ms": round((time.perf_counter() - started) * 1000, 1),
        "request_id": request_id,
    }
    if user is not None:
        line["user_id"] = user.id
    print(json.dumps(line), flush=True)
