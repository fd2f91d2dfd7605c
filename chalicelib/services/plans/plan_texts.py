"""The texts of plans: the ask to vote (``<service>: <name> is planning "<title>" and asks when you can make it:
<link> Reply STOP to opt out.``) and the decision, sent instead of the event's invitation text
(``<service>: "<title>" is on <when>. Answer here: <link> Reply STOP to opt out.``). Both are folded, cut and
kept within the invitation texts' segment limits, and go out through the invitation texts' path (stop list,
opt-out list, the owner's hourly quota, each number's daily cap, the month's budget)."""

from __future__ import annotations

from datetime import datetime, timedelta

from chalicelib import localtime
from chalicelib.config import get_settings
from chalicelib.domain.plans import option_of
from chalicelib.messaging import sms_segments
from chalicelib.messaging.notifications.messages import CLAIM_DAYS
from chalicelib.services.texts import text_outbox
from chalicelib.services.texts.host_label import host_label
from chalicelib.services.texts.invitation_texts import NO_TITLE, STOP_WORDS, send_invitation_texts
from chalicelib.timeutil import utcnow


def _limits() -> dict[str, int]:
    settings = get_settings()
    return {"gsm": settings.invite_sms_max_segments, "ucs2": settings.invite_sms_max_segments_ucs2}


def _title(title: str) -> str:
    return title if sms_segments.one_line(title or "") else NO_TITLE


def plan_text(owner, plan, link: str) -> str:
    service = get_settings().service_name
    reply = link or f"Get the {service} app to answer."

    def wording(who: str, title: str) -> str:
        return f'{service}: {who} is planning "{title}" and asks when you can make it: {reply} {STOP_WORDS}'

    return sms_segments.fit([wording], host_label(owner), _title(plan.title), _limits())


def decided_text(owner, event, link: str) -> str:
    service = get_settings().service_name
    reply = link or f"Get the {service} app to answer."

    def wording(when: str) -> sms_segments.Template:
        return lambda _who, title: f'{service}: "{title}" is on {when}. Answer here: {reply} {STOP_WORDS}'

    templates = [wording(localtime.short_when(event)), wording(localtime.short_when(event, weekday=False))]
    return sms_segments.fit(templates, "", _title(event.title), _limits(), min_name=0)


def send_plan_texts(owner, plan, people: list, links: dict[int, str]) -> None:
    """Ask ``people`` (users, already ``reachable``) to vote, each with their own page link, as invitation texts go."""
    send_invitation_texts(
        owner, plan, people, links, text_outbox.PLAN_INVITATION, wording=plan_text, expires=_votes_close(plan)
    )


def _votes_close(plan) -> datetime:
    """When a plan's texts' records may go: after its last date (at least the claims' usual days)."""
    last = max((option_of(stored).starts_at for stored in plan.options), default=utcnow())
    return max(last, utcnow()) + timedelta(days=CLAIM_DAYS)
