"""Which routes take an ``Idempotency-Key``: every signed-in POST but those of API v1 and a few that are
repeatable by nature, each named below with why; and openapi.yaml documents the header, and the 422 of a key
sent again with another request, on exactly the routes that take it."""

from __future__ import annotations

import pytest

from tests.contract.test_document import build_openapi, declared_routes, operations

KEY = {"$ref": "#/components/parameters/IdempotencyKey"}
REUSED = {"$ref": "#/components/responses/IdempotencyKeyReused"}

# The POSTs of API v1 answer as v1 said (a repeat does it again), and these extensions are repeatable as they are.
WITHOUT_KEY = {
    "/auth/register": "API v1",
    "/auth/logout": "ends the token the repeat would need",
    "/users/change_avatar": "API v1",
    "/users/remove_avatar": "API v1",
    "/users/fb_token": "API v1",
    "/users/favorite_contacts": "API v1",
    "/users/from_phone_numbers": "API v1 (a lookup)",
    "/events/{event_id}/accept": "API v1",
    "/events/{event_id}/reject": "API v1",
    "/notifications/add_ios_device": "API v1",
    "/notifications/remove_ios_device": "API v1",
    "/notifications/add_android_device": "the same registration as iOS's: its repeat leaves the same device",
    "/notifications/remove_android_device": "the same removal as iOS's: its repeat leaves the same device",
}


@pytest.fixture(scope="module")
def document() -> dict:
    return build_openapi.load_source()


def test_every_signed_in_post_of_the_extensions_takes_a_key():
    missing = []
    for path, specs in declared_routes().items():
        spec = specs.get("POST")
        if spec is None or not spec.auth or "PATCH" in spec.methods or path in WITHOUT_KEY:
            continue
        if not spec.idempotent:
            missing.append(path)
    assert missing == [], "declare these idempotent=True, or name them in WITHOUT_KEY with the reason"
    for path in WITHOUT_KEY:
        assert not declared_routes()[path]["POST"].idempotent, f"{path} takes a key: take it out of WITHOUT_KEY"


def test_the_document_lists_the_key_and_its_422_where_a_route_takes_it(document):
    declared = declared_routes()
    for path, method, operation in operations(document):
        takes_key = declared[path][method.upper()].idempotent
        where = f"{method.upper()} {path}"
        assert (KEY in operation["parameters"]) == takes_key, where
        assert (operation["responses"].get("422") == REUSED) == takes_key, where
        if takes_key:
            assert "409" in operation["responses"] and "400" in operation["responses"], where
