"""/j/<code>: joining an event by its link on the web, without the app (HTML, outside API v1).

GET shows the event and the number form; ``/j/<code>/pin`` texts a pin (the limits of ``POST /auth``);
``/j/<code>/verify`` checks it and joins, then redirects (303) to the person's own guest page, or shows
"request sent" for events that want approval. Every post must come from the page (the guest page's origin
check and a signed form token). Errors are HTML pages, every 404 the same.
"""

from __future__ import annotations

from chalice import Response

from chalicelib.api import page_language
from chalicelib.api.account_web import _number
from chalicelib.api.error_responses import body_of
from chalicelib.api.guest_page import _html, posted_from_the_page
from chalicelib.api.page_language import chosen
from chalicelib.api.request import RequestContext
from chalicelib.errors import PermissionDenied, ValidationError
from chalicelib.guest_page import join_pages
from chalicelib.services.web import web_join
from chalicelib.validation import Fields


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


@page_language.answered_in
def join_page(ctx: RequestContext, said):
    code = _code(ctx)
    page = web_join.open_page(code, ctx.source_ip)
    return _html(ctx, join_pages.event_page(page, web_join.number_form_token(code), _page_url(ctx), said=said))


@page_language.answered_in
def send_pin(ctx: RequestContext, said):
    code = _code(ctx)
    form = _form(ctx)
    page = web_join.open_page(code, ctx.source_ip)
    token, url = web_join.number_form_token(code), _page_url(ctx)
    typed = {"number": form.get("phone_number", ""), "name": form.get("full_name", "")}
    if not web_join.number_form_valid(code, form.get("csrf")):
        expired = join_pages.event_page(page, token, url, problem=join_pages.EXPIRED, again=True, **typed, said=said)
        return _html(ctx, expired, 403)
    number, error = _number(form)
    name, name_error = _name(form)
    if not error and not name_error:
        try:
            web_join.send_pin(code, number, ctx.source_ip, chosen(ctx).language)
        except ValidationError as refused:  # an opted-out number, say
            error = next(iter(body_of(refused).values()))[0]
    if error or name_error:
        shown = join_pages.event_page(
            page, token, url, error=error, name_error=name_error, again=True, **typed, said=said
        )
        return _html(ctx, shown, 400)
    return _html(ctx, join_pages.pin_page(web_join.pin_form_token(code, number), number, name, code, said=said))


def _name(form: dict) -> tuple[str | None, str | None]:
    """The person's name, validated as ``full_name`` is everywhere, or the message saying what is wrong."""
    fields = Fields({"full_name": form.get("full_name", "")})
    name = fields.person_name("full_name", required=True, min_length=2, max_length=256)
    return name, (fields.errors.get("full_name") or [None])[0]


@page_language.answered_in
def verify(ctx: RequestContext, said):
    code = _code(ctx)
    form = _form(ctx)
    number, error = _number(form)
    name, name_error = _name(form)
    if error or name_error or not web_join.pin_form_valid(code, number, form.get("csrf")):
        page = web_join.open_page(code, ctx.source_ip)
        typed = {"number": form.get("phone_number", ""), "name": form.get("full_name", "")}
        token, problem = web_join.number_form_token(code), join_pages.PIN_FORM_EXPIRED
        shown = join_pages.event_page(page, token, _page_url(ctx), problem=problem, again=True, **typed, said=said)
        return _html(ctx, shown, 403)
    pin = (form.get("pin") or "").strip()[:32]
    try:
        page_code = web_join.join_with_pin(code, number, pin, ctx.source_ip, full_name=name)
    except ValidationError as refused:
        message = body_of(refused).get("pin", ["Invalid pin."])[0]
        shown = join_pages.pin_page(web_join.pin_form_token(code, number), number, name, code, error=message, said=said)
        return _html(ctx, shown, 400)
    if page_code is None:
        return _html(ctx, join_pages.outcome_page(join_pages.REQUESTED, code, said))
    if page_code == web_join.JOINED_WITHOUT_PAGE:  # saved, but no page link just now: say so, never a 503
        return _html(ctx, join_pages.outcome_page(join_pages.JOINED, code, said))
    # /j/<code>/verify -> /i/<page code>, under any stage path, in the language the form posted with
    asked = page_language.asked(ctx)
    location = f"../../i/{page_code}" + (f"?lang={asked}" if asked else "")
    return Response(body="", status_code=303, headers={"Location": location, "Cache-Control": "no-store"})
