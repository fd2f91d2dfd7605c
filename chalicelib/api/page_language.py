"""The language of a page for people without the app, chosen per request, and kept by a cookie.

``?lang=xx`` (the switcher's links), else the ``lang`` cookie the last choice left, else ``Accept-Language``,
else English (languages/choice.py). A choice by ``?lang=`` sets the cookie for a year; the guest's page also
keeps it for the guest's number, so their texts use it. An error raised while the page is answered (even an
AWS fault, a 503) carries the page's language to the blueprint's error page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.cookies import CookieError, SimpleCookie

from chalicelib.api.error_responses import as_domain_error
from chalicelib.api.request import RequestContext
from chalicelib.languages.catalogues import Words, known, words
from chalicelib.languages.choice import COOKIE, for_page

COOKIE_DAYS = 365


def _cookie(ctx: RequestContext) -> str | None:
    try:
        jar = SimpleCookie(ctx.header("cookie") or "")
    except CookieError:
        return None
    morsel = jar.get(COOKIE)
    return morsel.value if morsel else None


def asked(ctx: RequestContext) -> str | None:
    """The language ``?lang=`` asks for, when there are words for it."""
    return known(ctx.query("lang"))


def chosen(ctx: RequestContext) -> Words:
    return words(for_page(ctx.query("lang"), _cookie(ctx), ctx.header("accept-language")))


def remembered(ctx: RequestContext) -> dict[str, str]:
    """The header that keeps a language asked for by ``?lang=`` (none otherwise)."""
    tag = asked(ctx)
    if not tag:
        return {}
    return {"Set-Cookie": f"{COOKIE}={tag}; Path=/; Max-Age={COOKIE_DAYS * 86400}; SameSite=Lax; HttpOnly"}


def of_error(error: Exception) -> Words:
    """The words of the page an error was raised from (English when it was raised before any was chosen)."""
    return words(getattr(error, "page_language", None))


@contextmanager
def errors_in(said: Words, ctx: RequestContext) -> Iterator[None]:
    """Errors raised inside carry ``said``'s language to the error page (AWS faults as the 503 they answer)."""
    try:
        yield
    except Exception as exc:
        error = as_domain_error(exc, ctx.method, ctx.request.path)
        error.page_language = said.language
        if error is exc:
            raise
        raise error from exc


def answered_in(handler: Callable) -> Callable:
    """A page's handler given the page's words (``handler(ctx, said)``), errors raised inside it in them too."""

    def answered(ctx: RequestContext):
        said = chosen(ctx)
        with errors_in(said, ctx):
            return handler(ctx, said)

    answered.__name__, answered.__qualname__, answered.__doc__ = handler.__name__, handler.__qualname__, handler.__doc__
    return answered
