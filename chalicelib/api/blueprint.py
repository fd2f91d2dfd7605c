"""Routes declared per module: each ``chalicelib.api`` module has an :class:`ApiBlueprint`, and app.py
registers each one with ``app.register_blueprint``.

An ApiBlueprint is a Chalice Blueprint whose ``route`` declares a handler taking a
:class:`~chalicelib.api.request.RequestContext`. When the blueprint is registered, every path it declares
gets a Chalice view for every method: GET brings HEAD along, PATCH brings POST, and every other method
answers a DRF-shaped 405 (API Gateway would otherwise answer an undeclared method itself, with a body the
clients do not know). A path therefore belongs to exactly one blueprint.
"""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.api.dispatch import RouteSpec, dispatch
from chalicelib.api.error_responses import ErrorPage
from chalicelib.api.request import JSON_BODY

ALL_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


class ApiBlueprint(Blueprint):
    def __init__(self, import_name: str) -> None:
        super().__init__(import_name)
        self.specs: list[RouteSpec] = []
        self._views_declared = False

    def route(  # type: ignore[override]
        self,
        path: str,
        methods: list[str],
        *,
        auth: bool = True,
        body: str = JSON_BODY,
        error_page: ErrorPage | None = None,
        idempotent: bool = False,
    ):
        """Declare ``handler(ctx)`` for ``path``. GET brings HEAD along, PATCH brings POST.
        ``auth``: a bearer token is required; ``body``: the body kind parsed into ``ctx.body``;
        ``error_page(error, method)`` answers the route's errors instead of the JSON bodies; ``idempotent``: a
        POST that creates something or texts someone, which takes an ``Idempotency-Key``."""

        def decorator(handler):
            expanded = list(methods)
            if "GET" in expanded and "HEAD" not in expanded:
                expanded.append("HEAD")
            if "PATCH" in expanded and "POST" not in expanded:
                expanded.append("POST")
            self.specs.append(RouteSpec(path, tuple(expanded), handler, auth, body, error_page, idempotent))
            return handler

        return decorator

    def specs_by_path(self) -> dict[str, dict[str, RouteSpec]]:
        """``{path: {method: spec}}``; a method declared twice on a path is a mistake caught here."""
        by_path: dict[str, dict[str, RouteSpec]] = {}
        for spec in self.specs:
            for method in spec.methods:
                if method in by_path.setdefault(spec.path, {}):
                    raise ValueError(f"{method} {spec.path} declared twice")
                by_path[spec.path][method] = spec
        return by_path

    def register(self, app, options) -> None:
        if not self._views_declared:
            self._declare_views()
        super().register(app, options)

    def _declare_views(self) -> None:
        """One Chalice view per path and method, all through :func:`dispatch`."""
        self._views_declared = True
        for path, specs in self.specs_by_path().items():
            allowed = [m for m in ALL_METHODS if m in specs]
            for method in ALL_METHODS:
                self._declare_view(path, method, specs.get(method), allowed)

    def _declare_view(self, path: str, method: str, spec: RouteSpec | None, allowed: list[str]) -> None:
        def view(**params):
            return dispatch(self.current_request, spec, allowed, params)

        slug = path.strip("/").replace("/", "_").replace("{", "").replace("}", "") or "root"
        view.__name__ = f"{method.lower()}_{slug}"
        Blueprint.route(self, path, methods=[method], content_types=["*/*"])(view)
