"""The rules of a plan that need no storage: its limits, the options it offers, the votes and their tallies,
and who may do what to it.

A plan offers 2 to 10 dates (options); each invitee votes per option ``yes``, ``if_need_be`` or ``no`` and
may change their votes until the plan is decided or its deadline passes. The owner sees every person's votes
and decides; an invitee sees the tallies. Anyone else (a stranger) is answered 404, as for events.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from chalicelib.errors import NotFound, PermissionDenied
from chalicelib.timeutil import format_datetime, parse_datetime
from chalicelib.validation import comparable_text, date_range_message, in_date_range, text_error

MIN_OPTIONS, MAX_OPTIONS = 2, 10
MAX_OPEN_PLANS = 10  # plans of one owner not yet decided
MAX_INVITEES = 100
TITLE_MAX_LENGTH = 200  # as an event's title: the event is made with it
LABEL_MAX_LENGTH = 60
CHOICES = ("yes", "if_need_be", "no")

OPTION_DATE = "Enter a valid date/time."
DUPLICATE_DATE = "This date is offered twice."
DUPLICATE_LABEL = "This label is used twice."
OPTION_SHAPE = "Send a date/time, or an object with starts_at and an optional label."


class PlanRole(StrEnum):
    OWNER = "owner"
    INVITEE = "invitee"
    STRANGER = "stranger"


class PlanAction(StrEnum):
    READ = "read"  # the plan and each option's tallies
    SEE_VOTES = "see_votes"  # each person's votes
    VOTE = "vote"
    DECIDE = "decide"
    DROP = "drop"  # delete the plan without deciding it


PLAN_PERMITTED: dict[PlanAction, frozenset[PlanRole]] = {
    PlanAction.READ: frozenset({PlanRole.OWNER, PlanRole.INVITEE}),
    PlanAction.SEE_VOTES: frozenset({PlanRole.OWNER}),
    PlanAction.VOTE: frozenset({PlanRole.INVITEE}),
    PlanAction.DECIDE: frozenset({PlanRole.OWNER}),
    PlanAction.DROP: frozenset({PlanRole.OWNER}),
}


def require(role: PlanRole, action: PlanAction) -> None:
    """Nothing when ``role`` may take ``action``; 404 for a stranger (the plan looks like no plan), else 403."""
    if role in PLAN_PERMITTED[action]:
        return
    if role == PlanRole.STRANGER:
        raise NotFound()
    raise PermissionDenied()


@dataclass(frozen=True)
class Option:
    id: int  # 1-based position as sent
    starts_at: datetime
    label: str = ""

    def as_json(self) -> dict:
        return {"id": self.id, "starts_at": format_datetime(self.starts_at), "label": self.label}


def option_of(stored: dict) -> Option:
    return Option(int(stored["id"]), parse_datetime(stored["starts_at"]), stored.get("label") or "")


def parse_options(raw: object) -> tuple[list[Option], dict | list | None]:
    """The options of a new plan, and the errors (``None`` when there are none): a list-level message, or
    ``{"<position>": {...}}`` keyed by position as DRF nests a list of objects. Each option is a date/time, or
    ``{"starts_at", "label"}``; two options at the same instant, or with labels that compare equal
    (NFC-normalised, case-folded, trimmed), are refused."""
    if not isinstance(raw, list):
        return [], [f'Expected a list of items but got type "{type(raw).__name__}".']
    if not MIN_OPTIONS <= len(raw) <= MAX_OPTIONS:
        return [], [f"Offer between {MIN_OPTIONS} and {MAX_OPTIONS} dates."]
    options, problems = [], {}
    for position, item in enumerate(raw):
        option, problem = _one_option(position + 1, item)
        if problem:
            problems[str(position)] = problem
        else:
            options.append(option)
    if not problems:
        problems = _duplicates(options)
    return options, (problems or None)


def _one_option(option_id: int, item: object) -> tuple[Option | None, dict | None]:
    label = ""
    if isinstance(item, dict):
        unknown = sorted(set(item) - {"starts_at", "label"})
        if unknown:
            return None, {name: ["Unknown field."] for name in unknown}
        raw_label = item.get("label") or ""
        if not isinstance(raw_label, str):
            return None, {"label": ["Not a valid string."]}
        label = raw_label.strip()
        problem = text_error(label) if label else None
        if problem is None and len(label) > LABEL_MAX_LENGTH:
            problem = f"Ensure this field has no more than {LABEL_MAX_LENGTH} characters."
        if problem:
            return None, {"label": [problem]}
        item = item.get("starts_at")
        key = "starts_at"
    else:
        key = "non_field_errors"
    if not isinstance(item, str):
        return None, {key: [OPTION_SHAPE if key == "non_field_errors" else OPTION_DATE]}
    when = parse_datetime(item)
    if when is None:
        return None, {key: [OPTION_DATE]}
    if not in_date_range(when):
        return None, {key: [date_range_message()]}
    return Option(option_id, when.replace(microsecond=0), label), None


def _duplicates(options: list[Option]) -> dict:
    problems: dict = {}
    seen_dates: set[datetime] = set()
    seen_labels: set[str] = set()
    for position, option in enumerate(options):
        if option.starts_at in seen_dates:
            problems.setdefault(str(position), {})["starts_at"] = [DUPLICATE_DATE]
        seen_dates.add(option.starts_at)
        compared = comparable_text(option.label)
        if compared and compared in seen_labels:
            problems.setdefault(str(position), {})["label"] = [DUPLICATE_LABEL]
        seen_labels.add(compared)
    return problems


def check_votes(raw: object, option_ids: set[int]) -> tuple[dict[str, str], dict | None]:
    """``{"<option id>": choice}`` checked against the plan's options; errors keyed by option id."""
    if not isinstance(raw, dict):
        return {}, {"non_field_errors": [f"Invalid data. Expected a dictionary, but got {type(raw).__name__}."]}
    if not raw:
        return {}, {"non_field_errors": ["Vote on at least one option."]}
    if len(raw) > MAX_OPTIONS:  # a plan has at most 10: a longer body is answered in one line, whatever its size
        return {}, {"non_field_errors": [f"Ensure this field has no more than {MAX_OPTIONS} elements."]}
    votes, problems = {}, {}
    for key, choice in raw.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and int(key) in option_ids):
            problems[str(key)[:20]] = ["Not an option of this plan."]
        elif choice not in CHOICES:
            problems[key] = [f'"{str(choice)[:20]}" is not a valid choice.']
        else:
            votes[str(int(key))] = choice
    return votes, (problems or None)


def tallies(option_ids: list[int], ballots: list[dict]) -> dict[int, dict[str, int]]:
    """Per option, how many voted each way (those who did not vote on it are not counted)."""
    counts = {option_id: dict.fromkeys(CHOICES, 0) for option_id in option_ids}
    for ballot in ballots:
        for key, choice in ballot.items():
            if choice in CHOICES and int(key) in counts:
                counts[int(key)][choice] += 1
    return counts


def voting_closed(status_decided: bool, deadline: datetime | None, now: datetime) -> bool:
    return status_decided or (deadline is not None and now >= deadline)
