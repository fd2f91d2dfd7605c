"""Export requests at the service layer: parallel requests start one export, and never more than the day's."""

from __future__ import annotations

from chalicelib.errors import Throttled
from chalicelib.services.account import data_export
from chalicelib.store import exports
from tests.utils.factories import make_person
from tests.utils.races import race


def test_parallel_requests_start_one_export(aws, monkeypatch):
    person = make_person("Person")
    started = []
    monkeypatch.setattr(data_export.notifications, "enqueue", lambda kind, **fields: started.append(fields["nonce"]))
    outcomes = race(lambda n: data_export.request_export(person.user), 8, refused=Throttled)
    assert len(started) == 1
    assert exports.get_record(person.id).nonce == started[0]
    assert "ok" in outcomes


def test_parallel_requests_never_start_more_than_three_a_day(aws, monkeypatch):
    person = make_person("Person")
    started = []

    def finish_at_once(kind, **fields):  # each export is made at once, so the next request may start one
        started.append(fields["nonce"])
        record = exports.get_record(person.id)
        exports.mark_ready(person.id, fields["nonce"], "exports/x.json", record.requested, record.expires_at)

    monkeypatch.setattr(data_export.notifications, "enqueue", finish_at_once)
    race(lambda n: data_export.request_export(person.user), 12, refused=Throttled)
    later = race(lambda n: data_export.request_export(person.user), 4, refused=Throttled, workers=1)
    assert 1 <= len(started) <= 3  # parallel requests answered "pending" (one was in progress) or 429
    assert later[-1] == "refused"
