"""Rolling-limit logs in the auth table: one ``RateLog`` per (limit, subject).

A charge is one UpdateItem (or one item of a transaction): ADD its units to ``total`` and its entry
to one of two sets, DELETE the entries the limit may forget from the other set, all conditional on
``total`` being at most the ceiling the caller worked out (chalicelib/domain/rolling_window.py). Parallel
charges of one subject write the same item but never move what another's condition compares, so none
makes another fail; nothing is rewritten whole. What fits is decided by services/guards/ratelimit.py.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from chalicelib.domain.rolling_window import Charge
from chalicelib.models.auth import RateLog, rate_log_pk
from chalicelib.models.base import transact_write
from chalicelib.store import Refused, refusals
from chalicelib.store.batch import batch_get

LANES = (RateLog.lane_a, RateLog.lane_b)
LEGACY = (RateLog.times, RateLog.amounts, RateLog.version)


@dataclass(frozen=True)
class Log:
    """A log as read: ``total`` (0: no log yet), each lane's entries, and the charges of the log an
    earlier release wrote (``has_legacy``: its attributes are still there)."""

    total: int = 0
    lanes: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    legacy: tuple[Charge, ...] = ()
    has_legacy: bool = False

    @property
    def charges(self) -> list[Charge]:
        return [parse_entry(entry) for lane in self.lanes for entry in lane] + list(self.legacy)


@dataclass(frozen=True)
class LogCharge:
    """One charge to write: ``entry`` into lane ``lane`` and ``amount`` onto ``total``, while ``total``
    is at most ``ceiling``; the entries ``forget`` out of the other lane, and the earlier release's log
    removed when ``drop_legacy``. Also the receipt :func:`take_back` undoes."""

    key: str
    amount: int
    entry: str
    lane: int
    ceiling: int
    forget: frozenset[str]
    drop_legacy: bool
    expires_at: datetime


def log_key(scope: str, subject: str) -> str:
    return rate_log_pk(scope, subject)


def entry_of(charge: Charge) -> str:
    """A charge as a set element: when (to the millisecond), units, and a nonce that keeps equal charges apart."""
    return f"{charge.at:.3f}:{charge.amount}:{secrets.token_hex(6)}"


def parse_entry(entry: str) -> Charge:
    at, amount, _nonce = entry.split(":")
    return Charge(float(at), int(amount))


def planned(
    key: str,
    log: Log,
    charge: Charge,
    ceiling: int,
    forgettable: Callable[[Charge], bool],
    expires_at: datetime,
) -> LogCharge:
    """The write of ``charge`` onto ``log`` as read. DynamoDB refuses adding to and deleting from one
    set in one write, so the lane holding more forgettable entries is cleaned and the charge goes into
    the other; parallel charges that read the same log choose alike, and both set actions are idempotent."""
    old = [frozenset(entry for entry in lane if forgettable(parse_entry(entry))) for lane in log.lanes]
    cleaned = 0 if len(old[0]) >= len(old[1]) else 1
    drop_legacy = log.has_legacy and all(forgettable(spent) for spent in log.legacy)
    return LogCharge(key, charge.amount, entry_of(charge), 1 - cleaned, ceiling, old[cleaned], drop_legacy, expires_at)


def read_logs(keys: list[str]) -> dict[str, Log]:
    """``{key: Log}`` of the logs that exist, read consistently (100 a BatchGetItem, side by side)."""
    found = {}
    for item in batch_get(RateLog, keys, consistent_read=True):
        legacy = tuple(
            Charge(float(at), int(spent)) for at, spent in zip(item.times or [], item.amounts or [], strict=True)
        )
        found[item.pk] = Log(
            total=int(item.total or 0),
            lanes=(frozenset(item.lane_a or ()), frozenset(item.lane_b or ())),
            legacy=legacy,
            has_legacy=item.times is not None or item.amounts is not None or item.version is not None,
        )
    return found


def _update(write: LogCharge) -> tuple[RateLog, list, object]:
    actions = [
        RateLog.total.add(write.amount),
        LANES[write.lane].add({write.entry}),
        RateLog.expires_at.set(write.expires_at),
        RateLog.kind.set(RateLog),
    ]
    if write.forget:
        actions.append(LANES[1 - write.lane].delete(set(write.forget)))
    if write.drop_legacy:
        actions += [attribute.remove() for attribute in LEGACY]
    return RateLog(write.key), actions, RateLog.total.does_not_exist() | (RateLog.total <= write.ceiling)


def add_to(transaction, write: LogCharge) -> None:
    """Put ``write`` into ``transaction`` as one update (the transaction's updates keep their order)."""
    item, actions, condition = _update(write)
    transaction.update(item, actions=actions, condition=condition)


def write_logs(writes: list[LogCharge]) -> None:
    """Write the charges, all or none: one UpdateItem for one, else one transaction (at most 100).
    Raises Refused (with the positions of the logs over their ceilings, for a transaction) or Contended.

    Either is applied once when its answer is lost and it is sent again: a transaction by its token
    (models/base.py); the UpdateItem by its condition that the charge's entry (unique: it carries a nonce) is
    not in its lane yet, and when that refuses it, by finding the entry there (one consistent read, only then)."""
    if len(writes) == 1:
        item, actions, condition = _update(writes[0])
        entry_absent = ~LANES[writes[0].lane].contains(writes[0].entry)
        try:
            with refusals():
                item.update(actions=actions, condition=condition & entry_absent)
        except Refused:
            if _entry_stored(writes[0]):
                return  # this charge, applied before its answer was lost
            raise Refused((0,)) from None
        return
    with refusals(), transact_write() as transaction:
        for write in writes:
            add_to(transaction, write)


def take_back(write: LogCharge) -> None:
    """Undo a charge made by ``write`` (what it paid for failed): its units off ``total``, its entry out
    of its lane. Needs no condition of its own: it only ever lowers what parallel charges compare."""
    try:
        with refusals():
            RateLog(write.key).update(
                actions=[RateLog.total.add(-write.amount), LANES[write.lane].delete({write.entry})],
                condition=LANES[write.lane].contains(write.entry),  # so a retry of it takes nothing more
            )
    except Refused:
        pass  # the log expired meanwhile, or this was taken back already: nothing to take back


def _entry_stored(write: LogCharge) -> bool:
    try:
        log = RateLog.get(write.key, consistent_read=True)
    except RateLog.DoesNotExist:
        return False
    return write.entry in ((log.lane_a, log.lane_b)[write.lane] or set())
