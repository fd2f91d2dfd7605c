"""/account/delete: deleting an account on the web, without the app (HTML, outside API v1).

GET shows the number form; each form posts to the next step (relative links, so they hold under any
stage path): ``delete/pin`` texts the pin, ``verify`` checks it, ``confirm`` deletes. Every post must
come from the page (the guest page's origin check and a signed form token). Errors are HTML pages.
"""

from __future__ import annotations

from chalice import Response

from chalicelib.api import page_language
from chalicelib.api.error_responses import body_of, headers_of, status_of
from chalicelib.api.guest_page import posted_from_the_page
from chalicelib.api.page_language import chosen
from chalicelib.api.request import RequestContext
from chalicelib.errors import DomainError, PermissionDenied, TextsPaused, ValidationError
from chalicelib.guest_page import account_pages, pages
from chalicelib.services.web import web_account
from chalicelib.validation import Fields

PASSED_ON_HEADERS = ("Retry-After",)


def _html(ctx: RequestContext, html: str, status: int = 200) -> Response:
    headers = {"Content-Type": pages.HTML, **pages.security_headers(), **page_language.remembered(ctx)}
    return Response(body="" if ctx.method == "HEAD" else html, status_code=status, headers=headers)


def error_page(error: DomainError, method: str) -> Response:
    status = status_of(error)
    passed = {name: value for name, value in headers_of(error).items() if name in PASSED_ON_HEADERS}
    paused = body_of(error)["detail"] if isinstance(error, TextsPaused) else None
    # a form's step (a POST) names the first step one level up; the first step's own page is where it is shown
    here = account_pages.FIRST_PAGE_FROM_A_STEP if method == "POST" else ""
    said = page_language.of_error(error)
    shown = account_pages.error_page(status, passed.get("Retry-After"), paused, said, here=here)
    body = "" if method == "HEAD" else shown
    headers = {"Content-Type": pages.HTML, **pages.security_headers(), **passed}
    return Response(body=body, status_code=status, headers=headers)


def _form(ctx: RequestContext) -> dict:
    if not posted_from_the_page(ctx.request.headers):
        raise PermissionDenied()
    return ctx.body or {}


def _number(form: dict) -> tuple[str | None, str | None]:
    """The number in E.164, or the message saying what is wrong with it."""
    fields = Fields({"phone_number": form.get("phone_number", "")})
    number = fields.phone("phone_number", required=True, textable=True)
    return number, (fields.errors.get("phone_number") or [None])[0]


@page_language.answered_in
def start(ctx: RequestContext, said):
    return _html(ctx, account_pages.number_page(web_account.number_form_token(), said=said))


@page_language.answered_in
def send_pin(ctx: RequestContext, said):
    form = _form(ctx)
    token, typed = web_account.number_form_token(), form.get("phone_number", "")
    # shown again here, at /account/delete/pin: the form posts to "pin", not the first page's "delete/pin"
    if not web_account.number_form_valid(form.get("csrf")):
        expired = account_pages.number_page(token, number=typed, problem=account_pages.EXPIRED, again=True, said=said)
        return _html(ctx, expired, 403)
    number, error = _number(form)
    if error:
        return _html(ctx, account_pages.number_page(token, number=typed, error=error, again=True, said=said), 400)
    try:
        web_account.send_pin(number, ctx.source_ip, chosen(ctx).language)
    except ValidationError as refused:  # an opted-out number, say
        message = next(iter(body_of(refused).values()))[0]
        shown = account_pages.number_page(token, number=number, error=message, again=True, said=said)
        return _html(ctx, shown, 400)
    return _html(ctx, account_pages.pin_page(web_account.pin_form_token(number), number, said=said))


@page_language.answered_in
def verify(ctx: RequestContext, said):
    form = _form(ctx)
    number, error = _number(form)
    if error or not web_account.pin_form_valid(number, form.get("csrf")):
        problem, token = account_pages.PIN_FORM_EXPIRED, web_account.number_form_token()
        typed = form.get("phone_number", "")
        return _html(ctx, account_pages.number_page(token, number=typed, problem=problem, again=True, said=said), 403)
    try:
        grant = web_account.grant_for(number, (form.get("pin") or "").strip()[:32], ctx.source_ip)
    except ValidationError as refused:
        message = body_of(refused).get("pin", ["Invalid pin."])[0]
        shown = account_pages.pin_page(web_account.pin_form_token(number), number, error=message, said=said)
        return _html(ctx, shown, 400)
    if grant is None:
        return _html(ctx, account_pages.no_account_page(said))
    return _html(ctx, account_pages.confirm_page(grant, number, said))


@page_language.answered_in
def confirm(ctx: RequestContext, said):
    form = _form(ctx)
    if not web_account.redeem(form.get("grant")):
        token, problem = web_account.number_form_token(), account_pages.CONFIRM_EXPIRED
        return _html(ctx, account_pages.number_page(token, problem=problem, again=True, said=said), 403)
    return _html(ctx, account_pages.done_page(said))
