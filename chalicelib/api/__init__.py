"""Route modules. Importing them declares their routes; :func:`install` puts them on the app."""

from __future__ import annotations

from chalice import Chalice


def install(app: Chalice) -> None:
    from chalicelib.api import (  # noqa: F401 - declares the routes
        account,
        account_web,
        auth,
        contacts,
        conversation,
        docs,
        events,
        notifications,
        users,
        web,
    )
    from chalicelib.api.routing import install_routes

    install_routes(app)
