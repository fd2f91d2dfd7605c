"""What every table model shares: name and region from the typed settings, and one DynamoDB client.

PynamoDB gives each model class a connection of its own, and each connection makes its own botocore
session and client on first use. Here every model and every transaction talks through
:class:`SharedConnection`, whose client is ``chalicelib.aws.dynamodb()``: one session and one client
per process, made by the first request that needs them.
"""

from __future__ import annotations

import threading

from pynamodb.connection import Connection, TableConnection
from pynamodb.models import Model
from pynamodb.transactions import TransactGet, TransactWrite

from chalicelib import aws
from chalicelib.config import get_settings


class SharedConnection(Connection):
    """A PynamoDB connection on the process's one DynamoDB client (it keeps its own table schemas)."""

    @property
    def session(self):
        return aws.session()

    @property
    def client(self):
        return aws.dynamodb()


def table_meta(table_setting: str) -> type:
    """A PynamoDB ``Meta`` for the table named by the settings field ``table_setting``."""
    settings = get_settings()

    class Meta:
        table_name = getattr(settings, table_setting)
        region = settings.aws_region
        billing_mode = "PAY_PER_REQUEST"
        max_retry_attempts = aws.DYNAMODB_MAX_RETRY_ATTEMPTS

    if settings.aws_endpoint_url:
        Meta.host = settings.aws_endpoint_url
    return Meta


_swap_lock = threading.Lock()


class TableModel(Model):
    """Base of the table models: PynamoDB's per-model connection, on the shared client."""

    @classmethod
    def _get_connection(cls) -> TableConnection:
        table_connection = super()._get_connection()
        if not isinstance(table_connection.connection, SharedConnection):
            with _swap_lock:
                own = table_connection.connection
                if not isinstance(own, SharedConnection):
                    shared = SharedConnection(region=own.region, host=own.host)
                    shared.add_meta_table(own.get_meta_table(table_connection.table_name))
                    table_connection.connection = shared
        return table_connection


_transaction_connection: SharedConnection | None = None


def _connection() -> SharedConnection:
    global _transaction_connection
    if _transaction_connection is None:
        settings = get_settings()
        _transaction_connection = SharedConnection(region=settings.aws_region, host=settings.aws_endpoint_url or None)
    return _transaction_connection


def transact_write() -> TransactWrite:
    """A PynamoDB write transaction on the shared client (items of any table)."""
    return TransactWrite(connection=_connection())


def transact_get() -> TransactGet:
    """A PynamoDB read transaction on the shared client (items of any table)."""
    return TransactGet(connection=_connection())
