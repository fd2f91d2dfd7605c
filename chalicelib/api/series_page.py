"""POST /i/<code>/dates/<date id>/rsvp: a texted guest answers one date of a series from their page (the same
forgery protection as the page's answer form, then a 303 back to the page). Errors are the page's HTML pages."""

from __future__ import annotations

from chalice import Response

from chalicelib.api import guest_page, page_language
from chalicelib.api.request import RequestContext
from chalicelib.errors import PermissionDenied
from chalicelib.guest_page import pages
from chalicelib.services.web import guest_answers, series_page
from chalicelib.timeutil import utcnow

PATH = "/i/{code}/dates/{date_id}/rsvp"
DATE_ANSWERS = (*guest_page.ANSWERS, guest_page.MAYBE)  # as the event page's form: going, not going, maybe


@page_language.answered_in
def answer_date(ctx: RequestContext, said):
    """A refusal is the page's error page in the page's language (``said``)."""
    if not guest_page.posted_from_the_page(ctx.request.headers):
        raise PermissionDenied()
    code = ctx.params.get("code") or ""
    page = guest_answers.open_link(code, ctx.source_ip, host=False)
    form = ctx.body or {}
    answer = form.get("answer")
    if not guest_answers.form_token_valid(page, form.get("csrf")) or answer not in DATE_ANSWERS:
        raise PermissionDenied()
    series_page.answer_date(
        page.event, page.invitation, ctx.path_id("date_id"), accept=guest_page.ANSWERS.get(answer, False),
        maybe=answer == guest_page.MAYBE, now=utcnow(),
    )  # fmt: skip
    location = f"../../../{page.code}?answered=1"  # /i/<code>/dates/<id>/rsvp -> /i/<code>
    return Response(body="", status_code=303, headers={**pages.security_headers(), "Content-Type": pages.HTML,
                                                       "Location": location})  # fmt: skip
