"""One botocore session and its cached clients, made on first use, and the one translation of AWS
faults into 503s (what the codes mean is read in aws_errors.py).

Every client comes from the same botocore session, so the service models, endpoints and credentials
are loaded once per process (a session of its own costs each client 60-100 ms on a cold start). The
DynamoDB client serves every PynamoDB model and transaction (chalicelib/models/base.py). No client is
made at import: moto must be in place first in tests, and a cold start should pay only for the
clients its route uses. botocore clients are thread-safe once made; making them is not, hence the lock.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from chalicelib.aws_errors import error_code, is_transient  # noqa: F401 - the client layer's callers read codes here too
from chalicelib.config import get_settings
from chalicelib.errors import ServiceUnavailable

_client_lock = threading.RLock()
_session = None
_clients: dict[str, object] = {}

# PynamoDB's own client settings (pynamodb.settings and Connection.client), with the models' two retries.
DYNAMODB_CONNECT_TIMEOUT_SECONDS = 15
DYNAMODB_READ_TIMEOUT_SECONDS = 30
DYNAMODB_MAX_POOL_CONNECTIONS = 10
DYNAMODB_MAX_RETRY_ATTEMPTS = 2


def session():
    """The process's one botocore session."""
    global _session
    with _client_lock:
        if _session is None:
            from botocore.session import get_session

            _session = get_session()
        return _session


def _client(service: str):
    client = _clients.get(service)
    if client is not None:
        return client
    with _client_lock:
        if service not in _clients:
            settings = get_settings()
            config = None
            if service == "dynamodb":
                from botocore.config import Config

                config = Config(
                    parameter_validation=False,  # as PynamoDB: it builds valid requests, and checking costs time
                    connect_timeout=DYNAMODB_CONNECT_TIMEOUT_SECONDS,
                    read_timeout=DYNAMODB_READ_TIMEOUT_SECONDS,
                    max_pool_connections=DYNAMODB_MAX_POOL_CONNECTIONS,
                    retries={"total_max_attempts": 1 + DYNAMODB_MAX_RETRY_ATTEMPTS, "mode": "standard"},
                )
            elif service == "s3":
                from botocore.config import Config

                config = Config(signature_version="s3v4")  # presigned URLs (exports) in SigV4, as every region takes
            _clients[service] = session().create_client(
                service,
                region_name=settings.aws_region,
                endpoint_url=settings.aws_endpoint_url or None,
                config=config,
            )
        return _clients[service]


def dynamodb():
    """The DynamoDB client of every model and transaction."""
    return _client("dynamodb")


def sns():
    return _client("sns")


def s3():
    return _client("s3")


def sqs():
    return _client("sqs")


def ssm():
    return _client("ssm")


def reset_clients() -> None:
    """Forget cached clients (tests, after changing settings)."""
    with _client_lock:
        _clients.clear()


@contextmanager
def aws_unavailable_as_503(what: str = "A storage service"):
    """Turn a transient AWS fault raised inside the block into a 503 with Retry-After."""
    try:
        yield
    except Exception as exc:
        if is_transient(exc):
            raise ServiceUnavailable(f"{what} is unavailable, try again later.") from exc
        raise
