"""What every table model shares: name and region from the typed settings, and one DynamoDB client.

PynamoDB gives each model class a connection of its own, and each connection makes its own botocore
session and client on first use. Here every model and every transaction talks through
:class:`SharedConnection`, whose client is ``chalicelib.aws.dynamodb()``: one session and one client
per process, made by the first request that needs them.
"""

from __future__ import annotations

import json
import threading

from pynamodb.connection import Connection, TableConnection
from pynamodb.constants import NULL
from pynamodb.models import Model
from pynamodb.transactions import TransactGet, TransactWrite

from chalicelib import aws, write_tokens
from chalicelib.aws_errors import cancellation_codes
from chalicelib.config import get_settings
from chalicelib.models import item_access
from chalicelib.models.model_meta import TableModelMeta
from chalicelib.retry import retry


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


class TableModel(Model, metaclass=TableModelMeta):
    """Base of the table models: PynamoDB's per-model connection, on the shared client, and a faster reading,
    access and writing of their items (models/item_access.py)."""

    def __init_subclass__(cls, **kwargs):
        """Each attribute the model declares reads and keeps its value without PynamoDB's descriptor
        (models/item_access.py)."""
        super().__init_subclass__(**kwargs)
        item_access.use_quick_access(cls)

    @classmethod
    def _instantiate(cls, attribute_values: dict):
        """The model object of a stored item, as PynamoDB's own ``_instantiate`` makes it, in one pass.

        PynamoDB runs ``__init__`` (every default set), then sets every default again and each stored value
        through its attribute's descriptor: most of what reading an event's partition costs once warm. Here the
        values go straight into ``attribute_values``; attributes whose descriptor does more than store (the
        kind, a TTL, a map) still go through it, and so does a stored kind of another class (PynamoDB's error).
        tests/models/test_base.py holds this equal to PynamoDB's result for every model."""
        stored_cls = cls._get_discriminator_class(attribute_values)
        if stored_cls and not issubclass(stored_cls, cls):
            return super()._instantiate(attribute_values)
        target = stored_cls or cls
        instance = target.__new__(target)
        values = instance.attribute_values = {}
        by_stored_name, defaults = item_access.reading_plan(target)
        for stored_name, raw in attribute_values.items():
            known = by_stored_name.get(stored_name)
            if known is None or not raw or NULL in raw:
                continue
            name, stored_type, decode, attribute, plain = known
            value = raw.get(stored_type)
            if value is None:
                value = attribute.get_value(raw)  # PynamoDB's error for a value of another type
            if decode is not None:
                value = decode(value)
            if plain:
                values[name] = value
            else:
                setattr(instance, name, value)
        for name, default, plain in defaults:  # what was not stored (or stored as NULL) takes its default
            if name in values:
                continue
            value = default() if callable(default) else default
            if value is None:
                continue
            if plain:
                values[name] = value
            else:
                setattr(instance, name, value)
        kind = target._discriminator
        if kind and kind not in values and target._get_discriminator_attribute().get_discriminator(target) is not None:
            setattr(instance, kind, target)  # an item stored without its kind (PynamoDB sets the class's own)
        return instance

    def _container_serialize(self, null_check: bool = True) -> dict:
        """The object in botocore's form, as PynamoDB's own makes it (models/item_access.py)."""
        stored = item_access.serialized(self, null_check)
        return super()._container_serialize(null_check) if stored is None else stored

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


class TokenedTransactWrite(TransactWrite):
    """A write transaction that sends a ``ClientRequestToken`` kept while its outcome is unknown
    (chalicelib/write_tokens.py): applied once, however often it is sent."""

    def _commit(self):
        items = json.dumps(
            [self._condition_check_items, self._delete_items, self._put_items, self._update_items],
            sort_keys=True,
            default=repr,
        )
        self._client_request_token = token = write_tokens.token_for(items)

        def attempt(_number: int):
            return TransactWrite._commit(self)

        try:
            # a call that got no answer (botocore's own retries spent, or its retry quota) is sent again with
            # its token: applied once if it was, now if it was not
            result = retry(attempt, attempts=UNANSWERED_ATTEMPTS, retry_on=_unanswered)
        except Exception as exc:
            if cancellation_codes(exc):
                write_tokens.settled(items)
            else:
                write_tokens.outcome_unknown(items, token)
            raise
        write_tokens.settled(items)
        return result


UNANSWERED_ATTEMPTS = 3  # sends of one transaction (with its token) that got no answer at all


def _unanswered(exc: BaseException) -> bool:
    """The call may or may not have been applied: no answer came (a read timeout, a dropped connection)."""
    from botocore.exceptions import ConnectionClosedError, ReadTimeoutError

    cause = getattr(exc, "cause", None) or exc.__cause__
    return isinstance(exc, (ReadTimeoutError, ConnectionClosedError)) or isinstance(
        cause, (ReadTimeoutError, ConnectionClosedError)
    )


def transact_write() -> TransactWrite:
    """A PynamoDB write transaction on the shared client (items of any table), applied once per token."""
    return TokenedTransactWrite(connection=_connection())


def transact_get() -> TransactGet:
    """A PynamoDB read transaction on the shared client (items of any table)."""
    return TransactGet(connection=_connection())
