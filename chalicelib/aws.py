"""One botocore session and its cached clients, made on first use, and the one translation of AWS
faults into 503s (what the codes mean is read in aws_errors.py).

Every client comes from the same botocore session, so the service models, endpoints and credentials
are loaded once per process (a session of its own costs each client 60-100 ms on a cold start). The
DynamoDB client serves every PynamoDB model and transaction (chalicelib/models/base.py). No client is
made at import: moto must be in place first in tests, and a cold start should pay only for the
clients its route uses. botocore clients are thread-safe once made; making them is not, hence the lock.
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass

from chalicelib.aws_errors import error_code, is_transient  # noqa: F401 - the client layer's callers read codes here too
from chalicelib.config import get_settings
from chalicelib.errors import ServiceUnavailable
from chalicelib.parallel import MAX_WORKERS

_client_lock = threading.RLock()
_session = None
_clients: dict[str, object] = {}

# botocore's standard retry mode pauses up to 1 s, 2 s, ... before the retries of a throttled call.
THROTTLED_RETRY_PAUSE_SECONDS = 1


@dataclass(frozen=True)
class ClientLimits:
    """How long one call to a service may take: each attempt waits at most ``connect`` + ``read`` seconds, and
    ``attempts`` is the first try and its retries (botocore's standard mode). ``worst_case`` must stay well under
    the functions' 15 s Lambda timeout (tests/test_aws.py), so a dependency that stops answering ends the call
    with a 503 while the function can still answer, instead of the gateway's 5xx at the timeout."""

    connect: float
    read: float
    attempts: int

    @property
    def worst_case(self) -> float:
        """Every attempt waiting its full time, and the longest pauses between them (a throttled call's)."""
        pauses = sum(min(THROTTLED_RETRY_PAUSE_SECONDS * 2**retry, 20) for retry in range(self.attempts - 1))
        return self.attempts * (self.connect + self.read) + pauses


# DynamoDB answers in milliseconds; S3 takes an avatar's few MB. botocore's defaults (60 s each, and PynamoDB's
# 15 s/30 s) would let one silent endpoint outlast the invocation.
CLIENT_LIMITS = {
    "dynamodb": ClientLimits(connect=1, read=2, attempts=3),
    "sns": ClientLimits(connect=1, read=3, attempts=2),
    "sqs": ClientLimits(connect=1, read=3, attempts=2),
    "ssm": ClientLimits(connect=1, read=2, attempts=2),
    "s3": ClientLimits(connect=1, read=4, attempts=2),
}
# Every fan-out (chalicelib/parallel.py) runs up to MAX_WORKERS calls on one client at once: a connection each,
# none waiting for another's (urllib3 would otherwise open and drop extra connections past the pool).
MAX_POOL_CONNECTIONS = MAX_WORKERS
# A text's Publish is tried once: after a read timeout SNS may have taken it already, so the SDK's own retry could
# text the person twice. The text outbox (services/texts/text_outbox.py) tries again through the queue, and only a text
# SNS answered with an error; a longer read leaves fewer answers in doubt.
SMS_PUBLISH_LIMITS = ClientLimits(connect=1, read=5, attempts=1)
DYNAMODB_MAX_RETRY_ATTEMPTS = CLIENT_LIMITS["dynamodb"].attempts - 1  # PynamoDB's models take the same


def client_config(service: str, limits: ClientLimits | None = None):
    """The botocore Config of ``service``'s client: its limits (``limits``, else the service's), the pool, and
    what the service needs."""
    from botocore.config import Config

    limits = limits or CLIENT_LIMITS[service]
    extra = {}
    if service == "dynamodb":
        extra["parameter_validation"] = False  # as PynamoDB: it builds valid requests, and checking costs time
    if service == "s3":
        extra["signature_version"] = "s3v4"  # presigned URLs (exports) in SigV4, as every region takes
    return Config(
        connect_timeout=limits.connect,
        read_timeout=limits.read,
        max_pool_connections=MAX_POOL_CONNECTIONS,
        retries={"total_max_attempts": limits.attempts, "mode": "standard"},
        **extra,
    )


# botocore's data for the services above, trimmed and uncompressed by the packager (scripts/botocore_data.py):
# at the package's root on Lambda, absent in a working tree (botocore's own copy serves alone).
PACKAGED_BOTOCORE_DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "botocore_data")


def session():
    """The process's one botocore session."""
    global _session
    with _client_lock:
        if _session is None:
            from botocore.session import Session

            _session = Session(event_hooks=_builtin_handlers_of_our_services(), include_builtin_handlers=False)
            _take_credentials_from_the_environment(_session)
            if os.path.isdir(PACKAGED_BOTOCORE_DATA):
                more = (_session.get_config_variable("data_path") or "").split(os.pathsep)
                _session.register_component("data_loader", packaged_first_loader(PACKAGED_BOTOCORE_DATA, more))
        return _session


def _take_credentials_from_the_environment(made) -> None:
    """When the environment holds credentials (as Lambda's does), ``made`` reads them there and builds none of
    botocore's other providers: the environment is the first of botocore's chain and wins whenever it has keys,
    but making the chain costs a cold start its profile, SSO, container and instance-metadata providers, and the
    last two make an HTTP session (and a TLS context) each. Without keys the session keeps botocore's chain."""
    from botocore.credentials import CredentialResolver, EnvProvider

    if EnvProvider().load() is not None:
        made.register_component("credential_provider", CredentialResolver([EnvProvider()]))


def _serves_our_services(event_name: str) -> bool:
    """Whether a botocore event name concerns every service or one in ``CLIENT_LIMITS``: the service is its second
    part (``before-call.s3.PutObject``), the third in a documentation event (``docs.*.s3.CopyObject...``)."""
    parts = event_name.split(".")
    position = 2 if parts[0] == "docs" else 1
    service = parts[position] if len(parts) > position else "*"
    return service == "*" or service in CLIENT_LIMITS


def _builtin_handlers_of_our_services():
    """botocore's event emitter with its built-in handlers registered as a session registers them, in the same
    order and through the same aliasing, less those of services the app never calls (EC2, RDS, Glacier...):
    registering all of them was most of a session's making on a cold start."""
    from botocore import handlers
    from botocore.hooks import EventAliaser, HierarchicalEmitter

    emitter = HierarchicalEmitter()
    aliased = EventAliaser(emitter)
    for event_name, handler, *register_type in handlers.BUILTIN_HANDLERS:
        if not _serves_our_services(event_name):
            continue
        if not register_type:
            aliased.register(event_name, handler)
        elif register_type[0] is handlers.REGISTER_FIRST:
            aliased.register_first(event_name, handler)
        elif register_type[0] is handlers.REGISTER_LAST:
            aliased.register_last(event_name, handler)
    return emitter


def packaged_first_loader(directory: str, more_paths: list[str] = ()):
    """botocore's data loader reading ``directory`` (the package's trimmed copy of botocore's own data) before
    the runtime's copy. A service found there is loaded without botocore's scan of every service directory;
    any other service, and a newer API version the runtime has, still come from the runtime's copy. The copy
    counts as botocore's own data, so endpoints resolve exactly as with the runtime's copy. ``more_paths``:
    botocore's ``data_path`` setting (``AWS_DATA_PATH``), searched next, as botocore would."""
    from botocore.loaders import Loader, instance_cache

    packaged = frozenset(entry for entry in os.listdir(directory) if os.path.isdir(os.path.join(directory, entry)))

    class PackagedFirstLoader(Loader):
        @instance_cache
        def load_service_model(self, service_name, type_name, api_version=None):
            if service_name not in packaged:
                return super().load_service_model(service_name, type_name, api_version)
            api_version = api_version or self.determine_latest_version(service_name, type_name)
            model = self.load_data(os.path.join(service_name, api_version, type_name))
            self._extras_processor.process(model, self._find_extras(service_name, type_name, api_version))
            return model

        def is_builtin_path(self, path):
            return path.startswith(directory + os.sep) or super().is_builtin_path(path)

    return PackagedFirstLoader(extra_search_paths=[directory, *(os.path.expanduser(p) for p in more_paths if p)])


def _client(service: str, name: str | None = None, limits: ClientLimits | None = None):
    """The cached client ``name`` (default: the service's own) of ``service``, with ``limits``."""
    name = name or service
    client = _clients.get(name)
    if client is not None:
        return client
    with _client_lock:
        if name not in _clients:
            settings = get_settings()
            _clients[name] = session().create_client(
                service,
                region_name=settings.aws_region,
                endpoint_url=settings.aws_endpoint_url or None,
                config=client_config(service, limits),
            )
        return _clients[name]


def dynamodb():
    """The DynamoDB client of every model and transaction."""
    return _client("dynamodb")


def sns():
    return _client("sns")


def sms_publisher():
    """The SNS client that publishes texts: one attempt per call (``SMS_PUBLISH_LIMITS``)."""
    return _client("sns", "sns-texts", SMS_PUBLISH_LIMITS)


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
