"""Routes declared by area: chalicelib/api/routes.py makes one :class:`ApiBlueprint` per area and declares each
of its routes with the handler that answers it, named ``"module:function"`` within ``chalicelib.api``;
chalicelib/wiring.py registers each one with ``app.register_blueprint``. A handler's module is imported the
first time its route is called (chalicelib/loading.py), so declaring every route loads none of them.

When the blueprint is registered, every path it declares gets a Chalice view for every method: GET brings HEAD
along, PATCH brings POST, and every other method answers a DRF-shaped 405 (API Gateway would otherwise answer
an undeclared method itself, with a body the clients do not know). A path therefore belongs to exactly one
blueprint.
"""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.api.dispatch import RouteSpec, dispatch
from chalicelib.api.request import JSON_BODY

ALL_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
# Where the handlers live: a route names its handler relative to this package.
HANDLER_PACKAGE = "chalicelib.api"


class ApiBlueprint(Blueprint):
    def __init__(self, area: str, *, error_page: str | None = None) -> None:
        """``area``: the blueprint's name; ``error_page``: how every route of it renders its errors (see
        :meth:`declare`)."""
        super().__init__(f"{HANDLER_PACKAGE}.{area}")
        self.error_page = error_page
        self.specs: list[RouteSpec] = []
        self._views_declared = False

    def declare(
        self,
        path: str,
        methods: list[str],
        handler: str,
        *,
        auth: bool = True,
        body: str = JSON_BODY,
        idempotent: bool = False,
    ) -> None:
        """Declare that ``handler(ctx)`` answers ``path``; ``handler`` is named ``"module:function"`` within
        chalicelib.api, as is the blueprint's ``error_page(error, method)``, which answers the route's errors
        instead of the JSON bodies. GET brings HEAD along, PATCH brings POST. ``auth``: a bearer token is
        required; ``body``: the body kind parsed into ``ctx.body``; ``idempotent``: a POST that creates
        something or texts someone, which takes an ``Idempotency-Key``."""
        expanded = list(methods)
        if "GET" in expanded and "HEAD" not in expanded:
            expanded.append("HEAD")
        if "PATCH" in expanded and "POST" not in expanded:
            expanded.append("POST")
        page = f"{HANDLER_PACKAGE}.{self.error_page}" if self.error_page else None
        spec = RouteSpec(path, tuple(expanded), f"{HANDLER_PACKAGE}.{handler}", auth, body, page, idempotent)
        self.specs.append(spec)

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
        """One Chalice view per path, for every method, all through :func:`dispatch`: one view per path and method
        would make Chalice's registration of the routes six times the work on a cold start."""
        self._views_declared = True
        for path, specs in self.specs_by_path().items():
            self._declare_view(path, specs, [m for m in ALL_METHODS if m in specs])

    def _declare_view(self, path: str, specs: dict[str, RouteSpec], allowed: list[str]) -> None:
        def view(**params):
            request = self.current_request
            return dispatch(request, specs.get(request.method), allowed, params)

        view.__name__ = path.strip("/").replace("/", "_").replace("{", "").replace("}", "") or "root"
        Blueprint.route(self, path, methods=list(ALL_METHODS), content_types=["*/*"])(view)
