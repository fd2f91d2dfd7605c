"""Route modules. Importing them declares their routes; :func:`install` puts them on the app."""

from __future__ import annotations

from chalice import Chalice


def install(app: Chalice) -> None:
    from chalicelib.api import account, auth, contacts, conversation, docs, events, notifications, users, web  # noqa: F401 - declares the routes
    from chalicelib.api.routing import install_routes

    install_routes(app)
