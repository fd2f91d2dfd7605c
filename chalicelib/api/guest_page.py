"""/i/<code>: the event page of a guest invited by text, an HTML extension outside API v1.

GET shows the event and the guest's answer; POST /i/<code>/rsvp answers (Accept or Decline, form
post, then a 303 back to the page: post-redirect-get); POST /i/<code>/stop stops invitation texts to
the guest's number (the same forgery protection, then a 303 back); GET /i/<code>/event.ics is the
calendar entry. No bearer token: the code is the credential. Errors are HTML pages, every 404 the same.
Links in the page and the redirect are relative, so they hold under any stage path.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from chalice import Response

from chalicelib.api import page_language
from chalicelib.api.error_responses import body_of, headers_of, status_of
from chalicelib.api.request import RequestContext
from chalicelib.config import get_settings
from chalicelib.errors import Conflict, DomainError, EventGone, NoLongerInvited, PermissionDenied, ValidationError
from chalicelib.guest_page import answer_form, ics, pages
from chalicelib.guest_page import the_day as day_pages
from chalicelib.guest_page.service_words import said_again
from chalicelib.languages.catalogues import N_
from chalicelib.services.texts.text_language import keep_chosen
from chalicelib.services.web import first_visits, guest_answers, series_page
from chalicelib.timeutil import utcnow
from chalicelib.validation import Fields

SAVED = N_("Thanks! Your answer is saved.")
STOPPED = N_(
    "Done: this number gets no more invitation texts from {service}, from anyone. "
    "You can still answer here, and invitations still reach you in the app."
)
# A form token that is missing, spoiled or too old: what the page says, whatever the cause. It shows a fresh form
# (with a fresh token) holding what was entered, so pressing the button again sends it.
EXPIRED_FORM = N_("This form was open too long, so your answer was not sent. It is filled in below: send it again.")
EXPIRED_SWITCH = N_("This form was open too long, so nothing changed. Press the button again.")
STARTED = N_("Done: invitation texts to this number are back on.")
CHOOSE = N_("Choose Accept or Decline.")
CHOOSE_GUESTS = N_("Choose how many people you bring from the list.")
ANSWER_QUESTIONS = N_("Answer the questions marked required; a written answer may have up to 280 characters.")
ANSWERS = {"accept": True, "decline": False}
MAYBE = "maybe"  # the page's third answer (the series page's dates offer it too)
PASSED_ON_HEADERS = ("Retry-After",)


def public_origin() -> str | None:
    """``scheme://host[:port]`` of PUBLIC_BASE_URL, or None when it is not set."""
    base = get_settings().public_base_url
    if not base:
        return None
    parts = urlsplit(base)
    return f"{parts.scheme}://{parts.netloc}".lower()


def posted_from_the_page(headers) -> bool:
    """The origin check of a form post, before its token is looked at.

    ``Sec-Fetch-Site``, where the browser sends it, must say same-origin. ``Origin`` must be the
    public base's origin, except ``null``: the page's ``Referrer-Policy: no-referrer`` makes
    browsers send ``Origin: null`` on its own form posts. Without either header (older browsers)
    the form token alone decides."""
    site = (headers.get("sec-fetch-site") or "").strip().lower()
    if site and site != "same-origin":
        return False
    origin = (headers.get("origin") or "").strip().lower()
    if origin and origin != "null":
        expected = public_origin()
        return origin == expected if expected else site == "same-origin"
    return True


def _headers(content_type: str, **more: str) -> dict[str, str]:
    return {"Content-Type": content_type, **pages.security_headers(), **more}


def _html(ctx: RequestContext, html: str, status: int = 200, headers: dict | None = None) -> Response:
    """``headers``: the page's own security headers instead of the common ones (a policy naming the bucket)."""
    body = "" if ctx.method == "HEAD" else html
    shown = {"Content-Type": pages.HTML, **headers} if headers else _headers(pages.HTML)
    return Response(body=body, status_code=status, headers={**shown, **page_language.remembered(ctx)})


def error_page(error: DomainError, method: str) -> Response:
    """Errors of these routes as HTML pages with the page's headers (and Retry-After where given)."""
    status = status_of(error)
    passed = {name: value for name, value in headers_of(error).items() if name in PASSED_ON_HEADERS}
    said = page_language.of_error(error)
    if isinstance(error, EventGone):
        body = "" if method == "HEAD" else pages.gone_page(error.title, said)
        return Response(body=body, status_code=status, headers=_headers(pages.HTML))
    if isinstance(error, NoLongerInvited):
        body = "" if method == "HEAD" else pages.no_longer_invited_page(error.title, said)
        return Response(body=body, status_code=status, headers=_headers(pages.HTML))
    body = "" if method == "HEAD" else pages.error_page(status, passed.get("Retry-After"), said)
    return Response(body=body, status_code=status, headers=_headers(pages.HTML, **passed))


def _extra_guests(raw: str | None) -> int | None | bool:
    """The number chosen on the form (None when the form has no choice); False when it is no number
    the page offers."""
    if raw is None or raw == "":
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 2:
        return False
    return int(raw)


def _code(ctx: RequestContext) -> str:
    return ctx.params.get("code") or ""


def _page_url(ctx: RequestContext) -> str:
    """The guest's page's own absolute URL (``/i/<code>``), from any of its routes."""
    url = ctx.absolute_url()
    for action in ("/rsvp", "/stop", "/start", "/event.ics"):
        url = url.removesuffix(action)
    return url


def event_page(ctx: RequestContext):
    said = page_language.chosen(ctx)
    with page_language.errors_in(said, ctx):
        return _event_page(ctx, said)


def _event_page(ctx: RequestContext, said):
    page = guest_answers.open_link(_code(ctx), ctx.source_ip)
    if page_language.asked(ctx):
        keep_chosen(page.invitation.user_id, said.language)
    if ctx.method == "GET":  # a HEAD (a link checker's) is no visit
        first_visits.note_visit(page.invitation, utcnow())
    notice = said._(SAVED) if ctx.query("answered") == "1" else None
    stopped = ctx.query("stopped") == "1"
    if stopped:
        notice = said._(STOPPED, service=get_settings().service_name)
    if ctx.query("started") == "1":
        notice = said._(STARTED)
    if ctx.query("uploaded") == "1":
        notice = said._(day_pages.UPLOADED)
    token = guest_answers.form_token(page)
    dates = series_page.upcoming_dates(page.event, page.invitation, utcnow()) if page.event.series_id else None
    day, bucket_origin = day_pages.sections(page, token, utcnow(), said)
    html = pages.event_page(
        page,
        page_url=_page_url(ctx),
        now=utcnow(),
        token=token,
        notice=notice,
        stopped=stopped,
        series_dates=dates,
        day=day,
        said=said,
    )
    headers = day_pages.security_headers(bucket_origin) if bucket_origin else None
    return _html(ctx, html, headers=headers)


def answer(ctx: RequestContext):
    said = page_language.chosen(ctx)
    with page_language.errors_in(said, ctx):
        return _answer(ctx, said)


def _answer(ctx: RequestContext, said):
    if not posted_from_the_page(ctx.request.headers):
        raise PermissionDenied()
    page = guest_answers.open_link(_code(ctx), ctx.source_ip, host=False)  # an answer needs no host's name
    form = ctx.body or {}
    entered = answer_form.entered_from(form)

    def again(status: int, problem: str | None = None, errors: dict | None = None) -> Response:
        shown_page = guest_answers.with_host(page)
        token = guest_answers.form_token(shown_page)
        entered.errors = {name: said._(text) for name, text in (errors or {}).items()}
        html = pages.event_page(
            shown_page, page_url=_page_url(ctx), now=utcnow(), token=token, at_action=True,
            problem=said_again(problem, said), entered=entered, said=said,
        )  # fmt: skip
        return _html(ctx, html, status)

    if not guest_answers.form_token_valid(page, form.get("csrf")):
        return again(403, problem=EXPIRED_FORM)
    if form.get("answer") not in (*ANSWERS, MAYBE):
        return again(400, problem=CHOOSE)
    fields = Fields({"message": form.get("message", "")})
    message = fields.string("message", max_length=60)
    if fields.errors:
        return again(400, errors={answer_form.MESSAGE_FIELD: fields.errors["message"][0]})
    extra_guests = _extra_guests(form.get("extra_guests"))
    if extra_guests is False:
        return again(400, problem=CHOOSE_GUESTS, errors={answer_form.EXTRA_GUESTS_FIELD: CHOOSE_GUESTS})
    try:
        guest_answers.answer(
            page, accept=ANSWERS.get(form["answer"], False), message=message or "", extra_guests=extra_guests,
            answers=entered.answers, maybe=form["answer"] == MAYBE,
        )  # fmt: skip
    except ValidationError as invalid:
        return again(400, *_refused_fields(invalid))
    except Conflict as refused:
        page = guest_answers.open_link(_code(ctx), ctx.source_ip, counted=False)  # show what changed
        return again(409, problem=body_of(refused).get("detail"))
    location = f"../{page.code}?answered=1"  # /i/<code>/rsvp -> /i/<code>, under any stage path
    return Response(body="", status_code=303, headers=_headers(pages.HTML, Location=location))


def _refused_fields(invalid: ValidationError) -> tuple[str, dict[str, str]]:
    """The page's sentence for a refused answer, and each refused field's message by its name on the form."""
    answers = invalid.errors.get("answers")
    if answers:
        by_question = answers if isinstance(answers, dict) else {}
        fields = {answer_form.question_field(key): messages[0] for key, messages in by_question.items()}
        return ANSWER_QUESTIONS, fields
    return CHOOSE_GUESTS, {answer_form.EXTRA_GUESTS_FIELD: CHOOSE_GUESTS}


def stop_texts(ctx: RequestContext):
    """"Stop texting me": no invitation text from anyone to this number (the answers stay as they are)."""
    return _switch_texts(ctx, guest_answers.stop_texts, shown="stopped")


def start_texts(ctx: RequestContext):
    """"Text me again": undoes "Stop texting me" (same forgery protection)."""
    return _switch_texts(ctx, guest_answers.start_texts, shown="started")


def _switch_texts(ctx: RequestContext, switch, *, shown: str):
    """A texts on/off form of the page: checked like the answer form, then back to the page saying so."""
    said = page_language.chosen(ctx)
    with page_language.errors_in(said, ctx):
        return _switch(ctx, switch, shown, said)


def _switch(ctx: RequestContext, switch, shown: str, said):
    if not posted_from_the_page(ctx.request.headers):
        raise PermissionDenied()
    page = guest_answers.open_link(_code(ctx), ctx.source_ip, host=False)
    if not guest_answers.form_token_valid(page, (ctx.body or {}).get("csrf")):
        shown_page = guest_answers.with_host(page)
        token = guest_answers.form_token(shown_page)
        html = pages.event_page(
            shown_page, page_url=_page_url(ctx), now=utcnow(), token=token, problem=said._(EXPIRED_SWITCH),
            at_action=True, said=said,
        )  # fmt: skip
        return _html(ctx, html, 403)
    switch(page)
    location = f"../{page.code}?{shown}=1"
    return Response(body="", status_code=303, headers=_headers(pages.HTML, Location=location))


def calendar_entry(ctx: RequestContext):
    said = page_language.chosen(ctx)
    with page_language.errors_in(said, ctx):
        page = guest_answers.open_link(_code(ctx), ctx.source_ip, host=False)
    body = "" if ctx.method == "HEAD" else ics.calendar(page.seen, _page_url(ctx), utcnow(), said=said)
    headers = _headers(ics.CONTENT_TYPE, **{"Content-Disposition": ics.content_disposition(page.event.title)})
    return Response(body=body, status_code=200, headers=headers)
