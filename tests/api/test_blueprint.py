"""Declared routes become Chalice views: one view per path answers all of its methods."""

from __future__ import annotations

from chalice import Blueprint, Chalice
from chalice.test import Client

from chalicelib.api.blueprint import ALL_METHODS, ApiBlueprint


def test_each_path_is_one_view_for_every_method(monkeypatch):
    routed = []
    route = Blueprint.route

    def counted(self, path, **kwargs):
        routed.append((path, tuple(kwargs["methods"])))
        return route(self, path, **kwargs)

    monkeypatch.setattr(Blueprint, "route", counted)
    # GIVEN an area with two paths, one of them with two declared routes
    area = ApiBlueprint("testing_area")
    area.declare("/things", ["GET"], "users:me", auth=False)
    area.declare("/things", ["PATCH"], "users:me", auth=False)
    area.declare("/things/{thing_id}", ["DELETE"], "users:me", auth=False)
    app = Chalice(app_name="testing")
    # WHEN it is registered
    app.register_blueprint(area)
    # THEN Chalice is asked once per path, for every method (a cold start registers 81 paths, not 486 views)
    assert routed == [("/things", ALL_METHODS), ("/things/{thing_id}", ALL_METHODS)]
    for path in ("/things", "/things/{thing_id}"):
        assert set(app.routes[path]) == set(ALL_METHODS)
        assert len({id(entry.view_function) for entry in app.routes[path].values()}) == 1


def test_the_one_view_answers_each_method_as_declared(monkeypatch):
    area = ApiBlueprint("testing_area")
    area.declare("/things/{thing_id}", ["GET", "PATCH"], "testing_handlers:echo", auth=False)
    app = Chalice(app_name="testing")
    app.register_blueprint(area)
    answered = []
    monkeypatch.setattr(
        "chalicelib.api.dispatch.load_handler",
        lambda name: lambda ctx: answered.append((name, ctx.method, ctx.params)) or {"ok": True},
    )
    with Client(app) as client:
        got = {method: client.http.request(method, "/things/7") for method in ALL_METHODS}
    assert {m: r.status_code for m, r in got.items()} == {
        "GET": 200,
        "HEAD": 200,
        "POST": 200,
        "PATCH": 200,
        "PUT": 405,
        "DELETE": 405,
    }
    assert got["PUT"].headers["Allow"] == "GET, HEAD, POST, PATCH"
    assert [(method, params) for _, method, params in answered] == [
        ("GET", {"thing_id": "7"}),
        ("HEAD", {"thing_id": "7"}),
        ("POST", {"thing_id": "7"}),
        ("PATCH", {"thing_id": "7"}),
    ]
