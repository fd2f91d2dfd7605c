"""Live calendars over the API: POST /users/me/calendar_feed, GET /c/<token>.ics, checked as a calendar app reads
them (the ``icalendar`` package) and against RFC 5545's own rules (CRLF, 75-octet lines, stable UIDs)."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

import icalendar
import pytest

from chalicelib.models.events import EventsTable
from chalicelib.models.users import UsersTable
from chalicelib.services.participants import calendar_feeds, cohosts
from chalicelib.services.replies import replies
from chalicelib.store import events as event_store
from tests.utils.api import body, post_json
from tests.utils.factories import future, make_event, make_person

FEED = "/users/me/calendar_feed"


def _new_feed(client, person) -> dict:
    response = client.http.post(FEED, headers={"Authorization": f"Bearer {person.token}"})
    assert response.status_code == 200, response.body
    return body(response)


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def _feed(client, url: str, **headers):
    return client.http.get(_path(url), headers=headers)


def _vevents(text: str) -> list:
    return icalendar.Calendar.from_ical(text).walk("VEVENT")


def _uid(event_id: int) -> str:
    return f"event-{event_id}@invites.example.test"


def test_a_new_link_replaces_the_old_one_at_once_and_only_its_hash_is_kept(client):
    olive = make_person("Olive Owner")
    first = _new_feed(client, olive)
    token = re.fullmatch(r"https://invites\.example\.test/c/([A-Za-z0-9_-]{32})\.ics", first["url"]).group(1)
    assert first["webcal"] == f"webcal://invites.example.test/c/{token}.ics"
    assert _feed(client, first["url"]).status_code == 200
    second = _new_feed(client, olive)
    assert second["url"] != first["url"]
    assert _feed(client, first["url"]).status_code == 404
    assert _feed(client, second["url"]).status_code == 200
    stored = [str(item.serialize()) for item in UsersTable.scan()]  # test-only Scan of what is kept
    assert not any(token in item for item in stored)
    assert _feed(client, "/c/" + "A" * 32 + ".ics").status_code == 404
    assert _feed(client, second["url"].removesuffix(".ics")).status_code == 404


def test_a_deleted_accounts_link_finds_nothing(client):
    olive = make_person("Olive Owner")
    make_event(olive, title="Mine")
    url = _new_feed(client, olive)["url"]
    deleted = client.http.request("DELETE", "/users/me", headers={"Authorization": f"Bearer {olive.token}"})
    assert deleted.status_code == 204
    assert _feed(client, url).status_code == 404
    stored = [str(item.serialize()) for item in UsersTable.scan()]  # test-only Scan: nothing of the link is left
    assert not any("CALFEED" in item for item in stored)


def test_the_feed_holds_what_the_person_hosts_goes_to_or_waits_for_from_30_days_back(client):
    olive, gus, ann = make_person("Olive Owner"), make_person("Gus Guest"), make_person("Ann Other")
    hosted = make_event(gus, title="Gus hosts")
    cohosted = make_event(olive, gus, title="Gus co-hosts")
    cohosts.appoint(olive.user, cohosted.id, gus.id)
    going = make_event(olive, gus, title="Going")
    declined = make_event(olive, gus, title="Declined")
    unanswered = make_event(olive, gus, title="No answer yet")
    full = make_event(olive, gus, ann, title="Waiting", total_spots=1, waitlist=True)
    old = make_event(gus, title="Long ago", when=datetime.now(UTC) - timedelta(days=31))
    recent = make_event(gus, title="Last week", when=datetime.now(UTC) - timedelta(days=7))
    replies.rsvp(gus.user, going.id, accept=True, message=None)
    replies.rsvp(gus.user, declined.id, accept=False, message=None)
    replies.rsvp(ann.user, full.id, accept=True, message=None)
    replies.rsvp(gus.user, full.id, accept=True, message=None)  # the event is full: waiting
    response = _feed(client, _new_feed(client, gus)["url"])
    assert response.headers["Content-Type"] == "text/calendar; charset=utf-8"
    uids = {str(vevent["UID"]) for vevent in _vevents(response.body.decode())}
    assert uids == {_uid(event.id) for event in (hosted, cohosted, going, full, recent)}
    assert _uid(unanswered.id) not in uids and _uid(declined.id) not in uids and _uid(old.id) not in uids


def test_edits_grow_sequence_and_last_modified_and_change_the_etag(client):
    olive, gus = make_person("Olive Owner"), make_person("Gus Guest")
    event = make_event(olive, gus, title="Dinner")
    url = _new_feed(client, olive)["url"]
    first = _feed(client, url)
    [before] = _vevents(first.body.decode())
    assert first.headers["Cache-Control"] == "private, max-age=300" and first.headers["ETag"]
    same = _feed(client, url, **{"If-None-Match": first.headers["ETag"]})
    assert (same.status_code, same.body, same.headers["ETag"]) == (304, b"", first.headers["ETag"])
    time.sleep(1.1)  # LAST-MODIFIED is to the second
    assert post_json(client, f"/events/{event.id}", {"title": "Late dinner"}, olive.token, "PATCH").status_code == 200
    changed = _feed(client, url, **{"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]
    [after] = _vevents(changed.body.decode())
    assert str(after["UID"]) == str(before["UID"]) == _uid(event.id)
    assert int(after["SEQUENCE"]) == int(before["SEQUENCE"]) + 1
    assert after["LAST-MODIFIED"].dt > before["LAST-MODIFIED"].dt
    assert str(after["SUMMARY"]) == "Late dinner"


def test_a_cancelled_event_stays_as_cancelled_for_30_days(client):
    olive = make_person("Olive Owner")
    event = make_event(olive, title="Called off")
    url = _new_feed(client, olive)["url"]
    assert client.http.put(f"/events/{event.id}/cancel_event", headers={"Authorization": f"Bearer {olive.token}"},
                           body=b"").status_code == 204  # fmt: skip
    [vevent] = _vevents(_feed(client, url).body.decode())
    assert str(vevent["STATUS"]) == "CANCELLED" and int(vevent["SEQUENCE"]) == 1
    later = datetime.now(UTC) + timedelta(days=31)
    assert calendar_feeds.person_feed(olive.id, later) == []
    assert len(calendar_feeds.person_feed(olive.id, datetime.now(UTC) + timedelta(days=29))) == 1


def test_the_place_shows_only_where_the_guest_may_see_it(client):
    olive, gus, ann = make_person("Olive Owner"), make_person("Gus Guest"), make_person("Ann Other")
    event = make_event(olive, gus, ann, title="Secret spot", venue_name="The Attic", address="1 Hidden Lane",
                       place_visibility="accepted", total_spots=1, waitlist=True)  # fmt: skip
    replies.rsvp(ann.user, event.id, accept=True, message=None)
    replies.rsvp(gus.user, event.id, accept=True, message=None)  # waiting: not accepted yet
    [waiting] = _vevents(_feed(client, _new_feed(client, gus)["url"]).body.decode())
    assert "LOCATION" not in waiting
    [going] = _vevents(_feed(client, _new_feed(client, ann)["url"]).body.decode())
    assert str(going["LOCATION"]) == "The Attic, 1 Hidden Lane"
    [hosting] = _vevents(_feed(client, _new_feed(client, olive)["url"]).body.decode())
    assert str(hosting["LOCATION"]) == "The Attic, 1 Hidden Lane"


@pytest.mark.parametrize(
    "title",
    ["ערב משחקי קופסה עם כל החברים מהשכונה – להביא חטיפים", "أمسية ألعاب الطاولة مع الأصدقاء في الحي 🎲🎉",
     "週末のボードゲーム会・みんなで集まりましょう！飲み物は各自で", "Game night 🎲 with “everyone” … ’til late " * 3],
)  # fmt: skip
def test_lines_end_in_crlf_and_fold_at_75_octets_inside_no_character(client, title):
    olive = make_person("Olive Owner")
    make_event(olive, title=title, time_zone="Asia/Jerusalem", venue_name="Café “Noir”, 2nd floor")
    text = _feed(client, _new_feed(client, olive)["url"]).body.decode("utf-8")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    lines = text.split("\r\n")[:-1]
    assert all(len(line.encode("utf-8")) <= 75 for line in lines)
    [vevent] = _vevents(text)
    assert str(vevent["SUMMARY"]) == title.replace("\n", " ").strip() or str(vevent["SUMMARY"]).startswith(title[:20])
    assert icalendar.Calendar.from_ical(text).walk("VTIMEZONE")[0]["TZID"] == "Asia/Jerusalem"


def _stored_events(owner, count: int) -> list[int]:
    """``count`` events of ``owner`` written straight to the table (META and the owner's invitation)."""
    now = datetime.now(UTC)
    items, ids = [], []
    for n in range(count):
        event_id = 10_000_000 + n
        fields = {"title": f"Event {n}", "event_date": future(days=1 + n / 2), "is_time_specified": True,
                  "time_zone": ["Europe/Paris", "America/Sao_Paulo", "Australia/Sydney"][n % 3]}  # fmt: skip
        event = event_store.new_event(event_id, owner.id, fields, remind_day="x", now=now)
        items.append((event, event_store.new_invitation(event, owner.id, "owner", event_id + 1, now)))
        ids.append(event_id)
    with EventsTable.batch_write() as batch:
        for event, invitation in items:
            batch.save(event)
            batch.save(invitation)
    return ids


def test_a_feed_holds_at_most_500_events_for_a_bounded_number_of_calls(client, aws):
    olive = make_person("Olive Owner")
    ids = _stored_events(olive, 501)
    url = _new_feed(client, olive)["url"]
    aws.reset()
    started = time.perf_counter()
    response = _feed(client, url)
    elapsed = time.perf_counter() - started
    calls = aws.of("dynamodb")
    vevents = _vevents(response.body.decode())
    assert [str(vevent["UID"]) for vevent in vevents] == [_uid(event_id) for event_id in ids[:500]]
    assert calls["Scan"] == 0
    # the token's GetItem, the index Query (one page here), 5 BatchGetItem of 100 events
    assert (calls["GetItem"], calls["BatchGetItem"]) == (1, 5), calls
    assert aws.total("dynamodb") <= 10, calls
    print(f"\n500-event feed: {aws.total('dynamodb')} DynamoDB calls {dict(calls)}, {elapsed:.2f} s, "
          f"{len(response.body)} bytes")  # fmt: skip


def test_aws_faults_are_503_and_a_failed_new_link_leaves_the_old_one_working(client, fail_aws):
    olive = make_person("Olive Owner")
    url = _new_feed(client, olive)["url"]
    fail_aws("dynamodb", "TransactWriteItems", "ProvisionedThroughputExceededException")
    refused = client.http.post(FEED, headers={"Authorization": f"Bearer {olive.token}"})
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    assert _feed(client, url).status_code == 200
    fail_aws("dynamodb", "Query")
    down = _feed(client, url)
    assert down.status_code == 503 and int(down.headers["Retry-After"]) > 0
