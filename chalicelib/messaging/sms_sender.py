"""Sends transactional texts through SNS, within the month's text budget, and asks SNS whether a number opted
out of them.

SNS keeps an account-wide opt-out list: a number that replied STOP to any of the account's texts is on
it, and a Publish to it is not delivered. ``opted_out`` asks before every text. In the emulator (moto)
``CheckIfPhoneNumberIsOptedOut`` answers true for every number ending in 99 and ignores the list that
``OptInPhoneNumber`` edits; in AWS it answers from the account's real list.

The budget (``SMS_MONTHLY_SEGMENTS``, segments per calendar month in UTC; unset: none) is counted here, the
one place every text goes out from: a counter item per month in the auth table, added to under a condition
(DynamoDB evaluates it atomically), so parallel senders can never pass it. Each text has a priority: a text
somebody asked for (a pin, the answer to HELP) may use the whole budget; the answer to a guest's reply by text
(a confirmation) the first ``ANSWER_SHARE`` percent; a text nobody asked for (invitations, promotions, changes,
announcements, nudges) only the first ``UNASKED_SHARE`` percent of it, so the pins keep going after those stop.
A text that fails to go out gives its segments back.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from chalicelib import aws, store
from chalicelib.aws_errors import error_code, invalid_parameter, is_transient
from chalicelib.config import get_settings
from chalicelib.errors import ServiceUnavailable, TextsPaused
from chalicelib.messaging.local_echo import echo
from chalicelib.messaging.sms_segments import segments
from chalicelib.parallel import parallel_map
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.store import counters

log = logging.getLogger("invites")

ORIGINATION_ATTRIBUTE = "AWS.MM.SMS.OriginationNumber"
MAX_PRICE_ATTRIBUTE = "AWS.SNS.SMS.MaxPrice"
BUDGET_SCOPE = "sms-budget"
UNASKED_SHARE = 80  # percent of the month's budget that texts nobody asked for may use
ANSWER_SHARE = 90  # percent that the answers to a guest's reply by text may use: after pins, before the unasked
BUDGET_ATTEMPTS = 5  # reads of the month's counter when parallel senders keep moving it
PAUSE_RETRY_BOUND = 3600  # Retry-After of a paused pin at most (until the month turns; the budget may be raised)
KEEP_COUNTER = timedelta(days=35)  # a month's counter stays readable this long after the month ends
SENT, HELD, FAILED, BUSY, LOST = "sent", "held", "failed", "busy", "lost"


class Priority(enum.Enum):
    """Who wanted a text, hence how much of the month's budget it may use."""

    ASKED = "asked"  # pins, HELP answers: up to the whole budget
    UNASKED = "unasked"  # invitations, promotions, changes, announcements, nudges: up to UNASKED_SHARE percent
    ANSWER = "answer"  # confirmations of replies by text, the help text for a reply not read: up to ANSWER_SHARE


# SNS's throttles that aws_errors.TRANSIENT_CODES does not name: ``Throttled`` (HTTP 429, botocore's sns model's
# ThrottledException) and KMS's ``KMSThrottling`` (400). Any 429 means the same.
SMS_THROTTLE_CODES = frozenset({"Throttled", "KMSThrottling"})


class SmsRefused(Exception):
    """SNS refused a text for a reason that will not pass; carries only the error code."""


class SnsBusy(ServiceUnavailable):
    """SNS throttled a text or failed: it did not take it, so trying again later cannot text anyone twice."""


class AnswerLost(ServiceUnavailable):
    """SNS's answer to a Publish did not arrive in time: the text may have gone out, so it is never tried again."""


def _sns_busy(exc) -> bool:
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
    return is_transient(exc) or error_code(exc) in SMS_THROTTLE_CODES or status == 429


def opted_out(e164: str) -> bool:
    """True when the number is on the account's SMS opt-out list. A number SNS calls malformed is not opted
    out (its text will fail instead); any other refusal (a throttle, a fault, a missing permission) raises the
    AWS error, a 503 for the caller: a number that could not be checked is never texted."""
    from botocore.exceptions import ClientError

    try:
        answer = aws.sns().check_if_phone_number_is_opted_out(phoneNumber=e164)
    except ClientError as exc:
        if not invalid_parameter(exc):
            raise
        log.warning("opt-out check refused: %s", error_code(exc))
        return False
    return bool(answer.get("isOptedOut"))


# --- the month's budget ----------------------------------------------------------------------------------


def _month(now: datetime) -> tuple[int, datetime]:
    """The month of ``now`` as YYYYMM, and the moment the next one starts (UTC)."""
    following = datetime(now.year + now.month // 12, now.month % 12 + 1, 1, tzinfo=UTC)
    return now.year * 100 + now.month, following


def budget_key(now: datetime) -> str:
    """The counter of segments sent in the month of ``now``."""
    return counters.counter_key(BUDGET_SCOPE, "segments", _month(now)[0])


def budget_limit(priority: Priority) -> int | None:
    """The segments texts of ``priority`` may bring the month's count to; None without a budget."""
    budget = get_settings().sms_monthly_segments
    if budget <= 0:
        return None
    share = {Priority.ASKED: 100, Priority.ANSWER: ANSWER_SHARE, Priority.UNASKED: UNASKED_SHARE}[priority]
    return budget * share // 100


def pause_seconds(now: datetime) -> int:
    """Retry-After of a text the budget holds back: until the month turns, at most PAUSE_RETRY_BOUND."""
    return max(1, min(PAUSE_RETRY_BOUND, int((_month(now)[1] - now).total_seconds()) + 1))


def _fitting(costs: Sequence[int], room: int) -> int:
    """How many of ``costs``, from the first, fit in ``room`` together."""
    taken = used = 0
    for cost in costs:
        if used + cost > room:
            break
        used, taken = used + cost, taken + 1
    return taken


def _reserve(costs: Sequence[int], priority: Priority, now: datetime) -> int:
    """Count the segments of as many texts as fit (in order) into the month's budget at ``priority``; how many
    did. One conditional ADD when they all fit; else (several texts) the counter read and the ADD tried again
    for fewer. Parallel senders that keep moving the counter may leave texts uncounted (limited early, never
    late). Why attempts rather than a condition that cannot lose: DynamoDB cannot add "as many texts as
    still fit", so an add refused for want of room reads what is left and asks for that."""
    limit = budget_limit(priority)
    if limit is None:
        return len(costs)
    key, expires = budget_key(now), _month(now)[1] + KEEP_COUNTER
    room = limit  # the month's first add meets no counter: never ask for more than the limit

    def attempt(_number: int) -> int:
        nonlocal room
        taken = _fitting(costs, room)
        if taken == 0:
            return 0
        try:
            counters.add_within(key, sum(costs[:taken]), limit, expires)
            return taken
        except store.Refused:
            if len(costs) == 1:
                return 0  # no room for the one text: reading the count would not make any
            room = limit - counters.count_of(key)
            raise TryAgain() from None

    try:
        return retry(attempt, attempts=BUDGET_ATTEMPTS)
    except AttemptsSpent:
        return 0


def _give_back(spent: int, now: datetime) -> None:
    """Segments counted for texts that did not go out, back to the month's budget (best effort)."""
    if spent <= 0 or budget_limit(Priority.ASKED) is None:
        return
    try:
        counters.add(budget_key(now), -spent)
    except Exception:  # noqa: BLE001 - the budget is short by a text or two; nothing else is wrong
        log.warning("sms budget: %d segments of failed texts not given back", spent)


# --- sending ---------------------------------------------------------------------------------------------


def _publish(e164: str, text: str, origination: str) -> str:
    """Publish one text (one attempt: ``aws.sms_publisher``); SNS's MessageId. Raises SnsBusy when SNS answered
    that it is busy or down (or could not be reached), AnswerLost when its answer did not come back (a read
    timeout: the text may be out), SmsRefused when it refused the text for good."""
    from botocore.exceptions import ClientError, ReadTimeoutError

    settings = get_settings()
    attributes = {"AWS.SNS.SMS.SMSType": {"DataType": "String", "StringValue": "Transactional"}}
    if settings.sms_sender_id:
        attributes["AWS.SNS.SMS.SenderID"] = {"DataType": "String", "StringValue": settings.sms_sender_id}
    if settings.sms_max_price_usd:
        attributes[MAX_PRICE_ATTRIBUTE] = {"DataType": "Number", "StringValue": settings.sms_max_price_usd}
    if origination:
        attributes[ORIGINATION_ATTRIBUTE] = {"DataType": "String", "StringValue": origination}
    try:
        answer = aws.sms_publisher().publish(PhoneNumber=e164, Message=text, MessageAttributes=attributes)
    except ReadTimeoutError as exc:
        raise AnswerLost("Texts are unavailable, try again later.") from exc
    except ClientError as exc:
        if _sns_busy(exc):
            # SNS's message may quote the number; the logged traceback must not
            raise SnsBusy("Texts are unavailable, try again later.") from None
        raise SmsRefused(error_code(exc) or "unknown") from None
    except Exception as exc:
        if is_transient(exc):  # no connection: the request never reached SNS
            raise SnsBusy("Texts are unavailable, try again later.") from exc
        raise
    echo("sms", e164, text)
    return answer.get("MessageId", "")


def send_sms(e164: str, text: str, *, priority: Priority, origination: str = "") -> str:
    """Send one transactional text of ``priority``, from ``origination`` (a number or pool of the account; "":
    the account's default), counted in the month's budget; SNS's MessageId. Raises TextsPaused (a 503) when the
    budget has no room for it at its priority, SnsBusy (a 503) when SNS is busy or down, AnswerLost (a 503)
    when its answer was lost, SmsRefused when it refuses; a text surely not sent costs the budget nothing."""
    now = datetime.now(UTC)
    cost = segments(text)
    if not _reserve([cost], priority, now):
        log.warning("sms budget: a text (%s) held back, the month's budget is spent", priority.value)
        raise TextsPaused(pause_seconds(now))
    try:
        return _publish(e164, text, origination)
    except AnswerLost:
        raise  # SNS may have taken it: it stays counted
    except Exception:
        _give_back(cost, now)
        raise


def send_each(texts: Sequence[tuple[str, str]], *, priority: Priority, origination: str = "") -> list[tuple[str, str]]:
    """Send each ``(number, text)`` as ``send_sms`` does, side by side, as far as the month's budget goes (in
    order): one count for all of them. What became of each, with SNS's MessageId when it took it: SENT, HELD (no
    room in the budget), BUSY (SNS was busy or down: worth trying again), LOST (SNS's answer was lost: it may be
    out) or FAILED (SNS refused it). The segments of BUSY and FAILED texts are given back."""
    if not texts:
        return []
    now = datetime.now(UTC)
    costs = [segments(text) for _, text in texts]
    taken = _reserve(costs, priority, now)
    if taken < len(texts):
        log.warning("sms budget: %d of %d texts (%s) held back", len(texts) - taken, len(texts), priority.value)

    def send(item: tuple[str, str]) -> tuple[str, str]:
        try:
            return SENT, _publish(item[0], item[1], origination)
        except AnswerLost:
            return LOST, ""
        except SnsBusy:
            return BUSY, ""
        except Exception as exc:  # noqa: BLE001 - reported to the caller, which decides what it means
            log.warning("sms not sent: %s", error_code(exc) or type(exc).__name__)
            return FAILED, ""

    outcomes = parallel_map(send, list(texts[:taken])) + [(HELD, "")] * (len(texts) - taken)
    given_back = [cost for cost, (outcome, _) in zip(costs, outcomes, strict=True) if outcome in (BUSY, FAILED)]
    _give_back(sum(given_back), now)
    return outcomes
