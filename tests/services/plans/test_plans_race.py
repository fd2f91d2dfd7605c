"""Plans under parallel requests, at the service layer (chalice.test.Client shares current_request between
threads): votes that all stay and tallies that stay exact, and decides that make one event and one text."""

from __future__ import annotations

from datetime import UTC, datetime

from chalicelib.domain.plans import Option, PlanAction
from chalicelib.errors import Conflict
from chalicelib.services.plans import plans
from chalicelib.store import events as event_store
from chalicelib.store import plans as plan_store
from tests.utils.api import texts_to
from tests.utils.factories import make_person, phone
from tests.utils.races import race, read_together

DATES = [datetime(2030, 6, day, 18, tzinfo=UTC) for day in (5, 6, 7)]


def _plan(owner, numbers):
    data = plans.PlanInput(
        title="Dinner",
        time_zone="Europe/Paris",
        options=[Option(n + 1, when) for n, when in enumerate(DATES)],
        invite_phone_numbers=numbers,
    )
    return plans.create_plan(owner.user, data).view.plan.id


def _run_together(actions) -> list[str]:
    """Each action on its own thread: "ok", or "refused" for a 409."""
    return race(lambda n: actions[n](), len(actions), refused=Conflict, workers=len(actions))


def test_parallel_votes_all_stay_and_the_tallies_are_exact(aws, monkeypatch):
    owner = make_person("Owner")
    voters = [make_person(f"Voter {n}") for n in range(6)]
    plan_id = _plan(owner, [voter.phone for voter in voters])
    # every racer reads the plan before any writes
    actions = [lambda v=voter: plans.vote(v.id, plan_id, {"1": "yes", "2": "no"}) for voter in voters]
    # and one voter changes three options at once, each request one option
    choices = {"1": "if_need_be", "2": "yes", "3": "no"}
    actions += [lambda key=key, choice=choice: plans.vote(voters[0].id, plan_id, {key: choice}) for key, choice in
                choices.items()]  # fmt: skip
    read_together(monkeypatch, plan_store, "load_plan", len(actions))
    assert _run_together(actions) == ["ok"] * len(actions)
    monkeypatch.undo()
    view = plans.plan_for(owner.id, plan_id, PlanAction.READ)
    own = plan_store.ballot(view.member(voters[0].id))
    assert own["3"] == "no"  # the one request that set option 3 stayed
    counted = plans.tallies_of(view)
    # each option's tally is exactly what the stored ballots say
    for option_id in (1, 2, 3):
        for choice in ("yes", "if_need_be", "no"):
            expected = sum(plan_store.ballot(member).get(str(option_id)) == choice for member in view.members)
            assert counted[option_id][choice] == expected
    assert sum(counted[1].values()) == 6 and sum(counted[2].values()) == 6 and sum(counted[3].values()) == 1


def test_two_decides_at_once_make_one_event_and_one_text_each(aws, monkeypatch):
    owner = make_person("Owner")
    numbers = [phone(), phone()]  # no accounts: they are texted
    plan_id = _plan(owner, numbers)
    read_together(monkeypatch, plan_store, "load_plan", 2)
    outcomes = _run_together(
        [lambda: plans.decide(owner.user, plan_id, 1), lambda: plans.decide(owner.user, plan_id, 3)]
    )
    monkeypatch.undo()
    assert sorted(outcomes) == ["ok", "refused"]
    view = plans.plan_for(owner.id, plan_id, PlanAction.READ)
    assert view.plan.status == "decided"
    made = event_store.load_partition(view.plan.event_id)
    chosen = DATES[view.plan.decided_option - 1]
    assert made.event.event_date == chosen  # the plan names the date the event was made with
    for number in numbers:
        texts = texts_to(number)
        assert len(texts) == 2  # the plan's ask, then the one decision
        assert '"Dinner" is on ' in texts[1]


def test_a_vote_racing_the_decide_lands_before_it_or_is_refused(aws, monkeypatch):
    owner = make_person("Owner")
    voter = make_person("Voter")
    plan_id = _plan(owner, [voter.phone])
    read_together(monkeypatch, plan_store, "load_plan", 2)
    outcomes = _run_together(
        [lambda: plans.vote(voter.id, plan_id, {"2": "yes"}), lambda: plans.decide(owner.user, plan_id, 1)]
    )
    monkeypatch.undo()
    assert outcomes[1] == "ok"
    assert outcomes[0] in ("ok", "refused")
    later = _run_together([lambda: plans.vote(voter.id, plan_id, {"3": "yes"})])
    assert later == ["refused"]
