"""What every table model shares: name and region from the typed settings."""

from __future__ import annotations

from functools import lru_cache

from pynamodb.connection import Connection
from pynamodb.transactions import TransactWrite

from chalicelib.config import get_settings


def table_meta(table_setting: str) -> type:
    """A PynamoDB ``Meta`` for the table named by the settings field ``table_setting``."""
    settings = get_settings()

    class Meta:
        table_name = getattr(settings, table_setting)
        region = settings.aws_region
        billing_mode = "PAY_PER_REQUEST"
        max_retry_attempts = 2

    if settings.aws_endpoint_url:
        Meta.host = settings.aws_endpoint_url
    return Meta


@lru_cache(maxsize=1)
def _connection() -> Connection:
    settings = get_settings()
    return Connection(region=settings.aws_region, host=settings.aws_endpoint_url or None, max_retry_attempts=2)


def transact_write() -> TransactWrite:
    """A PynamoDB write transaction on the shared connection (items of any table)."""
    return TransactWrite(connection=_connection())
