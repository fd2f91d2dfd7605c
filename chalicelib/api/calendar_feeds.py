"""Live calendars: POST /users/me/calendar_feed (a new link), GET /c/<token>.ics (the person's feed, no bearer
token: the token is the credential) and GET /i/<code>/calendar.ics (a texted guest's invitation or series)."""

from __future__ import annotations

import hashlib

from chalice import Response

from chalicelib.api import page_language
from chalicelib.api.request import RequestContext
from chalicelib.config import get_settings
from chalicelib.errors import NotFound
from chalicelib.guest_page import ics, pages
from chalicelib.services.participants import calendar_feeds
from chalicelib.services.web import guest_answers
from chalicelib.timeutil import utcnow

FEED_PATH = "/users/me/calendar_feed"
SUFFIX = ".ics"
CACHE_CONTROL = "private, max-age=300"


def new_calendar_feed(ctx: RequestContext):
    token = calendar_feeds.new_feed_token(ctx.user)
    return calendar_feeds.feed_urls(ctx.absolute_url().removesuffix(FEED_PATH), token)


def _calendar(ctx: RequestContext, entries, page_url: str | None, name: str, said=None) -> Response:
    """The feed with its ETag; 304 (no body) when ``If-None-Match`` names it. ``said``: the words of the
    guest's language (a person's own feed has none of the service's words but its name: English)."""
    text = ics.feed([(seen, page_url) for seen in entries], name, said)
    etag = '"' + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32] + '"'
    headers = {**pages.security_headers(), "Content-Type": ics.CONTENT_TYPE, "ETag": etag}
    headers["Cache-Control"] = CACHE_CONTROL  # the page's own headers, but a calendar app may keep it 5 minutes
    asked = [tag.strip() for tag in (ctx.request.headers.get("if-none-match") or "").split(",")]
    if etag in asked or f"W/{etag}" in asked or "*" in asked:
        return Response(body="", status_code=304, headers=headers)
    return Response(body="" if ctx.method == "HEAD" else text, status_code=200, headers=headers)


def person_calendar(ctx: RequestContext):
    feed = ctx.params.get("feed") or ""
    user_id = calendar_feeds.user_of_token(feed.removesuffix(SUFFIX)) if feed.endswith(SUFFIX) else None
    if user_id is None:
        raise NotFound()
    return _calendar(ctx, calendar_feeds.person_feed(user_id), None, get_settings().service_name)


@page_language.answered_in
def guest_calendar(ctx: RequestContext, said):
    """In the language of the ``?lang=`` of the page's Subscribe link (a calendar app sends no cookie)."""
    page = guest_answers.open_link(ctx.params.get("code") or "", ctx.source_ip, host=False)
    entries = calendar_feeds.guest_feed(page.event, page.invitation, utcnow())
    page_url = ctx.absolute_url().removesuffix("/calendar.ics")
    return _calendar(ctx, entries, page_url, page.event.title, said)
