"""Live calendars: a person's own link (``/c/<token>.ics``) and a texted guest's (``<page link>/calendar.ics``).
No chalice imports; the calendar text is written by guest_page/ics.py.

A token is 32 random URL-safe characters (24 bytes of ``secrets``), kept only as its SHA-256; a new one
replaces the old at once (one transaction). A person's feed holds every event they host (as owner or
co-host), are going to or wait for, dated from 30 days back, in date order, at most ``MAX_FEED_EVENTS``;
a cancelled one stays (as ``STATUS:CANCELLED``) for 30 days after it was cancelled; the place only where
``domain.visibility`` lets them see it. Reads, whatever the number of events: one GetItem (the token), one
Query of the ``by_user`` index (a page per ~1 MB), one BatchGetItem per 100 events, and one per 100
invitations with no answer (to tell waiting or co-hosting from no reply). No Scan.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import datetime, timedelta
from itertools import islice

from chalicelib import kept_secrets
from chalicelib.domain import visibility
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.store import Refused
from chalicelib.store import calendar_feeds as feed_store
from chalicelib.store import series as series_store
from chalicelib.store.records import OWNER, Event, Invitation
from chalicelib.timeutil import utcnow

TOKEN_BYTES = 24  # 32 URL-safe characters
TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
DAYS_BACK = 30
CANCELLED_KEPT_DAYS = 30
MAX_FEED_EVENTS = 500
MAX_ROWS_READ = 2 * MAX_FEED_EVENTS  # index rows looked at: invitations with no answer may not be in the feed
REPLACE_ATTEMPTS = 3


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def feed_urls(base: str, token: str) -> dict[str, str]:
    """``{"url": "<base>/c/<token>.ics", "webcal": "webcal://<host>/c/<token>.ics"}``."""
    url = f"{base.rstrip('/')}/c/{token}.ics"
    return {"url": url, "webcal": "webcal://" + url.split("://", 1)[-1]}


def new_feed_token(user) -> str:
    """A new token for the user's feed; the one before it finds nothing from now on."""
    token = kept_secrets.issued(secrets.token_urlsafe(TOKEN_BYTES))

    def attempt(_number: int) -> None:
        try:
            feed_store.replace_token(user.id, feed_store.current_hash(user.id), _hash(token), utcnow())
        except Refused:
            raise TryAgain() from None  # a parallel call replaced it first: replace that one

    try:
        retry(attempt, attempts=REPLACE_ATTEMPTS)
    except AttemptsSpent:
        raise RuntimeError("the calendar link kept changing") from None
    return token


def user_of_token(token: str) -> int | None:
    """The user whose current token this is; None for a malformed, unknown or replaced one."""
    if not isinstance(token, str) or not TOKEN.fullmatch(token):
        return None
    return feed_store.user_of(_hash(token))


def _kept(event: Event, now: datetime) -> bool:
    """Live, or cancelled within the last 30 days."""
    if not event.cancelled:
        return True
    return (event.calendar_modified or event.modified) >= now - timedelta(days=CANCELLED_KEPT_DAYS)


def person_feed(user_id: int, now: datetime | None = None) -> list[visibility.SeenEvent]:
    """The events of the user's feed, by date."""
    now = now or utcnow()
    rows = list(islice(feed_store.invitations_since(user_id, now - timedelta(days=DAYS_BACK)), MAX_ROWS_READ))
    unanswered = [row.event_id for row in rows if row.role != OWNER and row.has_accepted is None]
    whole = feed_store.full_invitations(user_id, unanswered) if unanswered else {}
    chosen: list[Invitation] = []
    for row in rows:
        if row.role == OWNER or row.has_accepted is True:
            chosen.append(row)
        elif row.event_id in whole and (whole[row.event_id].wait_key or whole[row.event_id].cohost):
            chosen.append(whole[row.event_id])  # waiting for a spot, or hosting as a co-host
    chosen = chosen[:MAX_FEED_EVENTS]
    events = feed_store.metas([row.event_id for row in chosen])
    entries = []
    for row in chosen:
        event = events.get(row.event_id)
        if event is not None and _kept(event, now):
            entries.append(visibility.as_seen(event, row))
    return entries


def guest_feed(event: Event, invitation: Invitation, now: datetime | None = None) -> list[visibility.SeenEvent]:
    """A texted guest's calendar: their event, or every date of its series they have not declined."""
    now = now or utcnow()
    series = series_store.load_series(event.series_id) if event.series_id else None
    if series is None:
        return [visibility.as_seen(event, invitation)]
    ids = [int(each) for each in series.event_ids]
    events = feed_store.metas(ids)
    mine = feed_store.full_invitations(invitation.user_id, ids)
    entries = []
    for event_id in ids:
        date, own = events.get(event_id), mine.get(event_id)
        if date is None or own is None or own.has_accepted is False or not _kept(date, now):
            continue
        entries.append(visibility.as_seen(date, own))
    return entries
