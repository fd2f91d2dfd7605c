"""/j/<code>: joining an event by its link on the web, without the app (HTML, outside API v1).

GET shows the event and the number form; ``/j/<code>/pin`` texts a pin (the limits of ``POST /auth``);
``/j/<code>/verify`` checks it and joins, then redirects (303) to the person's own guest page, or shows
"request sent" for events that want approval. Every post must come from the page (the guest page's origin
check and a signed form token). Errors are HTML pages, every 404 the same.
"""

from __future__ import annotations

from chalice import Response

from chalicelib.api.account_web import _number
from chalicelib.api.error_responses import body_of
from chalicelib.api.guest_page import _html, posted_from_the_page
from chalicelib.api.request import RequestContext
from chalicelib.errors import PermissionDenied, ValidationError
from chalicelib.guest_page import join_pages
from chalicelib.services.web import web_join


def _code(ctx: RequestContext) -> str:
    return ctx.params.get("code") or ""


def _page_url(ctx: RequestContext) -> str:
    url = ctx.absolute_url()
    for action in ("/pin", "/verify"):
        url = url.removesuffix(action)
    return url


def _form(ctx: RequestContext) -> dict:
    if not posted_from_the_page(ctx.request.headers):
        raise PermissionDenied()
    return ctx.body or {}


def join_page(ctx: RequestContext):
    code = _code(ctx)
    page = web_join.open_page(code, ctx.source_ip)
    return _html(ctx, join_pages.event_page(page, web_join.number_form_token(code), _page_url(ctx)))


def send_pin(ctx: RequestContext):
    code = _code(ctx)
    form = _form(ctx)
    page = web_join.open_page(code, ctx.source_ip)
    token, url = web_join.number_form_token(code), _page_url(ctx)
    if not web_join.number_form_valid(code, form.get("csrf")):
        return _html(ctx, join_pages.event_page(page, token, url, problem=join_pages.EXPIRED), 403)
    number, error = _number(form)
    if not error:
        try:
            web_join.send_pin(code, number, ctx.source_ip)
        except ValidationError as refused:  # an opted-out number, say
            error = next(iter(body_of(refused).values()))[0]
    if error:
        shown = number or form.get("phone_number", "")
        return _html(ctx, join_pages.event_page(page, token, url, number=shown, error=error), 400)
    return _html(ctx, join_pages.pin_page(web_join.pin_form_token(code, number), number))


def verify(ctx: RequestContext):
    code = _code(ctx)
    form = _form(ctx)
    number, error = _number(form)
    if error or not web_join.pin_form_valid(code, number, form.get("csrf")):
        return _html(ctx, join_pages.expired_page(), 403)
    try:
        page_code = web_join.join_with_pin(code, number, (form.get("pin") or "").strip()[:32], ctx.source_ip)
    except ValidationError as refused:
        message = body_of(refused).get("pin", ["Invalid pin."])[0]
        return _html(ctx, join_pages.pin_page(web_join.pin_form_token(code, number), number, error=message), 400)
    if page_code is None:
        return _html(ctx, join_pages.requested_page())
    # /j/<code>/verify -> /i/<page code>, under any stage path
    return Response(body="", status_code=303, headers={"Location": f"../../i/{page_code}", "Cache-Control": "no-store"})
