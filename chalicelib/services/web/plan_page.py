"""The ``/p/<code>`` page of a plan, for people without the app: the invitee's own votes (the same forgery
protection and per-address limit as the guest page, services/web/guest_answers.py), or the owner's tallies.
No chalice imports.

Opening a link costs the per-address counter and the plan's partition side by side (the code names the plan),
then the owner's profile for the name shown. The page's person is the member (or the owner) whose
``link_hash`` is the code's SHA-256; a malformed or unknown code is the same NotFound.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from chalicelib import invite_links, limits
from chalicelib.domain.plans import PlanAction
from chalicelib.errors import NotFound
from chalicelib.parallel import parallel_map
from chalicelib.services.guards import ratelimit
from chalicelib.services.guards.ratelimit import Limit, address_subject
from chalicelib.services.plans import plan_links, plans
from chalicelib.services.texts.host_label import host_label
from chalicelib.services.web.form_tokens import signed_token, signed_token_valid
from chalicelib.store import plans as plan_store
from chalicelib.store.plans import PlanView, ballot
from chalicelib.store.users import get_users


@dataclass
class PlanPage:
    code: str
    view: PlanView
    member: object | None  # the invitee whose page this is; None: the owner's
    host_name: str

    @property
    def own_votes(self) -> dict[str, str]:
        return ballot(self.member)

    @property
    def event_link(self) -> str | None:
        """The invitee's guest link of the decided event, when they were texted one."""
        if self.member is None:
            return None
        return plan_links.unseal_event_link(self.view.plan.id, self.member.user_id, self.member.event_link_sealed)


def _opens(link_hash: str | None, wanted: str) -> bool:
    return bool(link_hash) and hmac.compare_digest(link_hash, wanted)


def open_plan_link(code: str, source_ip: str, *, counted: bool = True) -> PlanPage:
    limit = Limit.of(limits.GUEST_PAGE_PER_ADDRESS, address_subject(source_ip))
    plan_id = invite_links.event_id_of(code)
    count = (lambda: ratelimit.hit(limit)) if counted else (lambda: None)
    if plan_id is None:
        count()
        raise NotFound()
    _, view = parallel_map(lambda step: step(), [count, lambda: plan_store.load_plan(plan_id)])
    if view is None:
        raise NotFound()
    wanted = invite_links.hash_code(code)
    member = next((member for member in view.members if _opens(member.link_hash, wanted)), None)
    if member is None and not _opens(view.plan.link_hash, wanted):
        raise NotFound()
    owner = get_users([view.plan.owner_id]).get(view.plan.owner_id)
    return PlanPage(code, view, member, host_label(owner))


def vote(page: PlanPage, votes: dict) -> PlanPage:
    """The member's votes, as ``PUT /plans/{id}/votes`` takes them (400, 409 as there)."""
    view = plans.vote(page.member.user_id, page.view.plan.id, votes)
    return PlanPage(page.code, view, view.member(page.member.user_id), page.host_name)


def reread(page: PlanPage) -> PlanPage:
    caller = page.member.user_id if page.member else page.view.plan.owner_id
    view = plans.plan_for(caller, page.view.plan.id, PlanAction.READ)
    member = view.member(page.member.user_id) if page.member else None
    return PlanPage(page.code, view, member, page.host_name)


def form_token(page: PlanPage, now: float | None = None) -> str:
    return signed_token("plan:" + invite_links.hash_code(page.code), now)


def form_token_valid(page: PlanPage, token: str | None, now: float | None = None) -> bool:
    return signed_token_valid("plan:" + invite_links.hash_code(page.code), token, now)
