"""``chalice local`` that leaves out a null Content-Type, as API Gateway does (what scripts/local_stack.py runs).

A 204 from the app carries ``"Content-Type": null`` in its Lambda response (chalicelib/api/routing.py):
API Gateway's proxy integration then sends no Content-Type, where it would add ``application/json`` to a
response without the header. ``chalice local`` instead sends ``application/json`` for a missing header and
the text "None" for a null one. This runner patches its request handler so that a null Content-Type
with an empty body is answered with neither, then runs the ordinary chalice CLI:

    python scripts/chalice_local.py local --host 127.0.0.1 --port 8000 --stage local
"""

from __future__ import annotations

import sys

from chalice import local
from chalice.cli import cli

_send_http_response = local.ChaliceRequestHandler._send_http_response


def _send_without_null_content_type(self, code, headers, body):
    if "Content-Type" in headers and headers["Content-Type"] is None and not body:
        del headers["Content-Type"]
        self._send_http_response_no_body(code, headers)
        return
    _send_http_response(self, code, headers, body)


def main(args: list[str]) -> int:
    local.ChaliceRequestHandler._send_http_response = _send_without_null_content_type
    # chalice's autoreload restarts its worker with sys.argv: make that this script under this Python.
    sys.argv = [sys.executable, __file__, *args]
    return cli.main(args=args, prog_name="chalice", obj={})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
