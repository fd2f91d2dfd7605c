"""Lambda SnapStart's runtime hooks: what a restored snapshot must not share with its siblings, and what the
first request needs, made before the snapshot is taken.

On a function with SnapStart on, Lambda runs the module's import and then ``register_before_snapshot`` hooks
once, snapshots the memory, and starts every later instance from that snapshot (the runtime's
``snapshot_restore_py`` module provides the decorators; elsewhere it is absent and nothing is registered):

- **Before the snapshot**: the DynamoDB client (the service's model loaded, parsed and its operations' shapes
  built), so a restored instance's first request does not pay for it.
- **After each restore**: every instance starts from the same memory, so ``random``'s state is re-seeded
  (retry jitter must not march in step across instances; ``secrets`` and ids read the kernel and need nothing),
  and what was read with the credentials of the snapshot's moment is dropped: the cached clients (they hold
  those credentials) and the pin and stop-list keys (read again from SSM on first use, which also picks up a
  rotation made since the snapshot). The session, with its loaded service models, is kept.

The pin key is never read before the snapshot: a secret would sit in the stored snapshot for its lifetime.
"""

from __future__ import annotations

import random

from chalicelib import aws

# What the read and write paths call on DynamoDB: their shapes are built before the snapshot.
DYNAMODB_OPERATIONS = ("BatchGetItem", "GetItem", "Query", "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems")


def before_snapshot() -> None:
    model = aws.dynamodb().meta.service_model
    for name in DYNAMODB_OPERATIONS:
        operation = model.operation_model(name)
        _ = operation.input_shape.members, operation.output_shape.members


def after_restore() -> None:
    from chalicelib import pinkey  # the pin key's module stays off the API's cold start (tests/test_app.py)

    random.seed()
    aws.reset_clients()
    pinkey.forget()


def register() -> bool:
    """Register the hooks when the runtime offers them; True when it did."""
    try:
        from snapshot_restore_py import register_after_restore, register_before_snapshot
    except ImportError:  # not on Lambda, or a runtime without SnapStart's module
        return False
    register_before_snapshot(before_snapshot)
    register_after_restore(after_restore)
    return True
