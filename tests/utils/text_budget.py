"""The month's text budget counter made to fail as DynamoDB fails it when throttled."""

from __future__ import annotations

BUDGET_KEY_PREFIX = "RATE#sms-budget#"


def throttle_the_budget_counter(monkeypatch) -> list[bool]:
    """DynamoDB throttles the month's budget counter alone (other writes, the rolling logs' UpdateItems
    included, go through; the counter is written alone, as a one-item transaction). Set the returned flag's
    first item to False when DynamoDB is back."""
    from botocore.client import BaseClient
    from botocore.exceptions import ClientError

    original = BaseClient._make_api_call
    failing = [True]

    def patched(self, operation_name, api_params):
        updates = [item["Update"] for item in api_params.get("TransactItems", []) if "Update" in item]
        keys = [str(update.get("Key", {}).get("pk", {}).get("S", "")) for update in updates + [api_params]]
        if failing[0] and operation_name in ("UpdateItem", "TransactWriteItems") and any(
            key.startswith(BUDGET_KEY_PREFIX) for key in keys
        ):
            error = {"Error": {"Code": "ThrottlingException", "Message": "injected"}}
            raise ClientError({**error, "ResponseMetadata": {"HTTPStatusCode": 400}}, operation_name)
        return original(self, operation_name, api_params)

    monkeypatch.setattr(BaseClient, "_make_api_call", patched)
    return failing
