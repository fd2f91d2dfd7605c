"""The texts of plans: the ask to vote (``<service>: <name> is planning "<title>" and asks when you can make it:
<link> Reply STOP to opt out.``) and the decision, sent instead of the event's invitation text
(``<service>: "<title>" is on <when>. Answer here: <link> Reply STOP to opt out.``). Both are folded, cut and
kept within the invitation texts' segment limits, and go out through the invitation texts' path (stop list,
opt-out list, the owner's hourly quota, each number's daily cap, the month's budget)."""

from __future__ import annotations

from datetime import datetime, timedelta

from chalicelib.config import get_settings
from chalicelib.domain.plans import option_of
from chalicelib.languages import dates
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.messaging import sms_segments
from chalicelib.messaging.notifications.messages import CLAIM_DAYS
from chalicelib.services.texts import text_outbox
from chalicelib.services.texts.host_label import host_label
from chalicelib.services.texts.invitation_texts import send_invitation_texts
from chalicelib.services.texts.text_wording import ending, segment_limits, shown_title
from chalicelib.timeutil import utcnow

# Translators: {name} is the host's, {reply} the link to vote on (or the sentence asking to get the app).
PLANNING = N_('{service}: {name} is planning "{title}" and asks when you can make it: {reply}')
# Translators: {when} is the date the vote chose; {reply} the link to answer on (or the sentence to get the app).
DECIDED = N_('{service}: "{title}" is on {when}. Answer here: {reply}')
GET_THE_APP_TO_ANSWER = N_("Get the {service} app to answer.")


def plan_text(owner, plan, link: str, said: Words | None = None) -> str:
    service, said = get_settings().service_name, said or words(None)
    reply, after = link or said._(GET_THE_APP_TO_ANSWER, service=service), ending(said)

    def wording(who: str, title: str) -> str:
        return said._(PLANNING, service=service, name=who, title=title, reply=reply) + after

    return sms_segments.fit([wording], host_label(owner), shown_title(plan.title, said), segment_limits())


def decided_text(owner, event, link: str, said: Words | None = None) -> str:
    service, said = get_settings().service_name, said or words(None)
    reply, after = link or said._(GET_THE_APP_TO_ANSWER, service=service), ending(said)

    def wording(when: str) -> sms_segments.Template:
        return lambda _who, title: said._(DECIDED, service=service, title=title, when=when, reply=reply) + after

    whens = (dates.short_when(event, said.language), dates.short_when(event, said.language, weekday=False))
    templates = [wording(when) for when in whens]
    return sms_segments.fit(templates, "", shown_title(event.title, said), segment_limits(), min_name=0)


def send_plan_texts(owner, plan, people: list, links: dict[int, str]) -> None:
    """Ask ``people`` (users, already ``reachable``) to vote, each with their own page link, as invitation texts go."""
    send_invitation_texts(
        owner, plan, people, links, text_outbox.PLAN_INVITATION, wording=plan_text, expires=_votes_close(plan)
    )


def _votes_close(plan) -> datetime:
    """When a plan's texts' records may go: after its last date (at least the claims' usual days)."""
    last = max((option_of(stored).starts_at for stored in plan.options), default=utcnow())
    return max(last, utcnow()) + timedelta(days=CLAIM_DAYS)
