"""What a request did to the stored state, counted so two runs of it on like worlds can be compared: items
per kind of each table, the counters every item carries, and the texts sent. Ids, times and tokens differ
between runs and are left out; a second event, message or counted write shows."""

from __future__ import annotations

import re
from collections import Counter

from tests.utils.aws_env import ACCOUNT, REGION

_COUNTER = re.compile(r"(count|spots|filled|spots_filled_by_hand|total|attempts)$")


def _kind(key: str) -> str:
    return key.split("#", 1)[0]


def stored_effects() -> Counter:
    """Items of each kind (table, pk prefix, sk prefix) and the sum of each counter attribute per kind, read
    from the emulator itself (no request), plus the texts moto was asked to send."""
    from moto.dynamodb.models import dynamodb_backends
    from moto.sns.models import sns_backends

    effects: Counter = Counter()
    for table in dynamodb_backends[ACCOUNT][REGION].tables.values():
        for item in table.all_items():
            attrs = item.to_json()["Attributes"]
            kind = (table.name, _kind(attrs["pk"]["S"]), _kind(attrs.get("sk", {}).get("S", "")))
            effects[kind] += 1
            for name, value in attrs.items():
                if "N" in value and _COUNTER.search(name):
                    effects[(*kind, name)] += int(float(value["N"]))
    effects[("texts",)] = len(sns_backends[ACCOUNT][REGION].sms_messages)
    return effects


def difference(before: Counter, after: Counter) -> dict:
    """What changed between two readings of :func:`stored_effects` (kinds whose count moved, by how much)."""
    keys = set(before) | set(after)
    return {key: after[key] - before[key] for key in keys if after[key] != before[key]}
