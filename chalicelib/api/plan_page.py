"""/p/<code>: a plan's page for people without the app, an HTML extension outside API v1.

GET shows the dates offered with their tallies and the invitee's own votes; POST /p/<code>/votes saves them
(the guest page's forgery protection: the origin check and a form token; then a 303 back to the page). No
bearer token: the code is the credential. Errors are HTML pages, every 404 the same (api/guest_page.py).
"""

from __future__ import annotations

from chalice import Response

from chalicelib.api import page_language
from chalicelib.api.error_responses import body_of
from chalicelib.api.guest_page import posted_from_the_page
from chalicelib.api.request import RequestContext
from chalicelib.errors import Conflict, PermissionDenied, ValidationError
from chalicelib.guest_page import pages, plan_pages
from chalicelib.guest_page.plan_pages import VOTE_FIELD
from chalicelib.guest_page.service_words import said_again
from chalicelib.languages.catalogues import N_
from chalicelib.services.plans import plans
from chalicelib.services.web import plan_page
from chalicelib.timeutil import utcnow

SAVED = N_("Thanks! Your answers are saved.")
CHOOSE = N_("Choose Yes, If need be or No for at least one date.")
# A form token that is missing, spoiled or too old: the votes chosen are shown again with a fresh token.
EXPIRED_VOTES = N_(
    "This form was open too long, so your votes were not saved. They are filled in below: send them again."
)


def _html(ctx: RequestContext, html: str, status: int = 200) -> Response:
    body = "" if ctx.method == "HEAD" else html
    return Response(body=body, status_code=status, headers={**_page_headers(), **page_language.remembered(ctx)})


def _show(ctx: RequestContext, page, status: int = 200, **shown) -> Response:
    """The plan's page; ``notice`` and ``problem`` in ``shown`` already in the words ``said`` of ``shown``."""
    options = plans.options_of(page.view)
    counts = plans.tallies_of(page.view)
    closed = plans.voting_closed(page.view, utcnow())
    html = plan_pages.plan_page(page, options, counts, token=plan_page.form_token(page), closed=closed, **shown)
    return _html(ctx, html, status)


@page_language.answered_in
def plan_view(ctx: RequestContext, said):
    page = plan_page.open_plan_link(ctx.params.get("code") or "", ctx.source_ip)
    return _show(ctx, page, notice=said._(SAVED) if ctx.query("saved") == "1" else None, said=said)


@page_language.answered_in
def vote(ctx: RequestContext, said):
    if not posted_from_the_page(ctx.request.headers):
        raise PermissionDenied()
    page = plan_page.open_plan_link(ctx.params.get("code") or "", ctx.source_ip)
    if page.member is None:
        raise PermissionDenied()  # the owner's page has no form
    form = ctx.body or {}
    sent = {key[len(VOTE_FIELD) :]: value for key, value in form.items() if key.startswith(VOTE_FIELD)}
    if not plan_page.form_token_valid(page, form.get("csrf")):
        return _show(ctx, page, 403, problem=said._(EXPIRED_VOTES), chosen=sent, at_action=True, said=said)
    try:
        plan_page.vote(page, sent)
    except ValidationError:
        return _show(ctx, page, 400, problem=said._(CHOOSE), chosen=sent, at_action=True, said=said)
    except Conflict as refused:
        page = plan_page.reread(page)
        problem = said_again(body_of(refused).get("detail"), said)
        return _show(ctx, page, 409, problem=problem, at_action=True, said=said)
    location = f"../{page.code}?saved=1"  # /p/<code>/votes -> /p/<code>, under any stage path
    asked = page_language.asked(ctx)  # the language the form posted with, kept for the page it goes back to
    location += f"&lang={asked}" if asked else ""
    return Response(body="", status_code=303, headers={"Location": location, **_page_headers()})


def _page_headers() -> dict[str, str]:
    return {"Content-Type": pages.HTML, **pages.security_headers()}
