"""POST /i/<code>/photos: the guest page's "Add a photo" (an HTML extension outside API v1). Checked like the
page's other forms (origin, then its token), it grants one upload and answers the page whose form posts the photo
straight to S3, which sends the browser back to the guest's page (``?uploaded=1``)."""

from __future__ import annotations

from chalice import Response

from chalicelib.api import page_language
from chalicelib.api.error_responses import body_of, status_of
from chalicelib.api.guest_page import _code, _html, _page_url, posted_from_the_page
from chalicelib.api.request import RequestContext
from chalicelib.errors import Conflict, PermissionDenied
from chalicelib.guest_page import pages
from chalicelib.guest_page import the_day as day_pages
from chalicelib.guest_page.service_words import said_again
from chalicelib.languages.catalogues import N_
from chalicelib.services.the_day import photos
from chalicelib.services.web import guest_answers
from chalicelib.timeutil import utcnow

SIGNED_TYPE = "image/jpeg"  # the form's Content-Type field; processing reads the bytes, whatever the type says


# A form token that is missing, spoiled or too old: a fresh form, and nothing was uploaded.
EXPIRED_UPLOAD = N_("This form was open too long, so nothing was uploaded. Choose your photo again below.")


@page_language.answered_in
def add_photo(ctx: RequestContext, said) -> Response:
    if not posted_from_the_page(ctx.request.headers):
        raise PermissionDenied()
    page = guest_answers.open_link(_code(ctx), ctx.source_ip)
    page_url = _page_url(ctx).removesuffix("/photos")

    def again(status: int, problem: str) -> Response:
        token = guest_answers.form_token(page)
        shown = said_again(problem, said)
        html = pages.event_page(
            page, page_url=page_url, now=utcnow(), token=token, problem=shown, at_action=True, said=said
        )
        return _html(ctx, html, status)

    if not guest_answers.form_token_valid(page, (ctx.body or {}).get("csrf")):
        return again(403, EXPIRED_UPLOAD)
    guest = photos.PageGuest(page.invitation.user_id)
    try:
        grant = photos.grant_upload(guest, page.event.id, SIGNED_TYPE, redirect=f"{page_url}?uploaded=1")
    except (Conflict, PermissionDenied) as refused:  # the album closed, a limit, no longer going
        return again(status_of(refused), body_of(refused).get("detail"))
    html = day_pages.upload_page(page.code, page.event.title, grant.url, grant.fields, said)
    return _html(ctx, html, headers=day_pages.security_headers(day_pages.origin_of(grant.url)))
