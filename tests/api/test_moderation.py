"""Taking down a message, a poll or a time suggestion: DELETE /events/{id}/messages/{message_id},
/polls/{poll_id}, /time_suggestions/{suggestion_id}. The item stays in place, its words gone, marked removed."""

from __future__ import annotations

from datetime import UTC, datetime

from chalicelib.models.events import Message, Poll, TimeSuggestion, event_pk
from chalicelib.services.account import data_export
from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, stored_event


def delete(client, person, path):
    return client.http.delete(path, headers={"Authorization": f"Bearer {person.token}"})


def say(client, person, event_id, text):
    response = post_json(client, f"/events/{event_id}/messages", {"body": text}, token=person.token)
    assert response.status_code == 201, response.body
    return body(response)["id"]


def messages(client, person, event_id):
    return body(get(client, f"/events/{event_id}", token=person.token))["messages"]


def test_the_author_takes_their_message_down_and_it_stays_in_place_without_words(client):
    olive, gus, ann = make_person("Olive"), make_person("Gus"), make_person("Ann")
    event = make_event(olive, gus, ann)
    first = say(client, gus, event.id, "See you there")
    second = say(client, gus, event.id, "\u05dc\u05d0 \u05d0\u05d5\u05db\u05dc \U0001f614 \u201cmy ex\u201d is coming")
    third = say(client, ann, event.id, "Great")

    assert delete(client, gus, f"/events/{event.id}/messages/{second}").status_code == 204

    shown = messages(client, ann, event.id)
    assert [m["id"] for m in shown] == [first, second, third]  # order kept
    assert shown[1]["body"] is None and shown[1]["removed"] is True and shown[1]["user_id"] == gus.id
    assert "removed" not in shown[0] and shown[0]["body"] == "See you there"
    assert stored_event(event.id).message_count == 3  # counts kept
    stored = {m.id: m for m in Message.query(event_pk(event.id), Message.sk.startswith("MSG#"))}
    assert stored[second].body is None and stored[second].removed is True
    assert "ex" not in str(stored[second].serialize())


def test_hosts_take_down_anyone_s_message_guests_only_their_own(client):
    olive, cody, gus, ann, sam = (make_person(n) for n in ("Olive", "Cody", "Gus", "Ann", "Sam"))
    event = make_event(olive, cody, gus, ann)
    post_json(client, f"/events/{event.id}/cohosts/{cody.id}", {}, token=olive.token, method="PUT")
    by_gus, by_olive, by_ann = (
        say(client, gus, event.id, "a"),
        say(client, olive, event.id, "b"),
        say(client, ann, event.id, "c"),
    )

    assert delete(client, ann, f"/events/{event.id}/messages/{by_gus}").status_code == 403
    assert delete(client, sam, f"/events/{event.id}/messages/{by_gus}").status_code == 404
    assert delete(client, gus, f"/events/{event.id}/messages/{by_olive}").status_code == 403
    assert [m.get("removed") for m in messages(client, olive, event.id)] == [None, None, None]

    assert delete(client, cody, f"/events/{event.id}/messages/{by_gus}").status_code == 204
    assert delete(client, olive, f"/events/{event.id}/messages/{by_ann}").status_code == 204
    assert [m.get("removed") for m in messages(client, gus, event.id)] == [True, None, True]
    # a repeat answers the same; an id of no message of this event is 404
    assert delete(client, olive, f"/events/{event.id}/messages/{by_ann}").status_code == 204
    assert delete(client, olive, f"/events/{event.id}/messages/123456789").status_code == 404
    other = make_event(olive, gus)
    assert delete(client, olive, f"/events/{other.id}/messages/{by_olive}").status_code == 404


def test_a_poll_and_a_time_suggestion_lose_their_words_and_keep_their_place(client):
    olive, gus = make_person("Olive"), make_person("Gus")
    event = make_event(olive, gus)
    venues = ("Caf\u00e9 \u4e2d\u6587", "Bar \u0639\u0631\u0628\u064a")
    polls = [
        body(
            post_json(client, f"/events/{event.id}/polls", {"suggested_date": day, "suggested_venue": venue}, gus.token)
        )
        for day, venue in zip(("2031-07-02T19:00:00Z", "2031-07-03T19:00:00Z"), venues, strict=True)
    ]
    for comment in ("after work \U0001f37b", "early"):
        payload = {"suggested_time": "2031-07-01T20:00:00Z", "comment": comment}
        assert post_json(client, f"/events/{event.id}/time_suggestions", payload, gus.token).status_code == 204
    suggestions = body(get(client, f"/events/{event.id}/time_suggestions", token=gus.token))

    assert delete(client, olive, f"/events/{event.id}/polls/{polls[0]['id']}").status_code == 204
    assert delete(client, gus, f"/events/{event.id}/time_suggestions/{suggestions[0]['id']}").status_code == 204

    shown = body(get(client, f"/events/{event.id}", token=gus.token))["polls"]
    assert [p["id"] for p in shown] == [p["id"] for p in polls]
    assert shown[0]["suggested_venue"] is None and shown[0]["removed"] is True
    assert shown[0]["suggested_date"] == "2031-07-02T19:00:00Z"
    assert shown[1]["suggested_venue"] == venues[1] and "removed" not in shown[1]
    listed = body(get(client, f"/events/{event.id}/time_suggestions", token=olive.token))
    assert [s["id"] for s in listed] == [s["id"] for s in suggestions]
    assert listed[0]["comment"] is None and listed[0]["removed"] is True and listed[1]["comment"] == "early"
    stored_poll = next(p for p in Poll.query(event_pk(event.id), Poll.sk.startswith("POLL#")) if p.removed)
    assert "Caf" not in str(stored_poll.serialize())
    stored = next(s for s in TimeSuggestion.query(event_pk(event.id), TimeSuggestion.sk.startswith("TS#")) if s.removed)
    assert "after work" not in str(stored.serialize())
    assert stored_event(event.id).poll_count == 2 and stored_event(event.id).suggestion_count == 2


def test_what_was_taken_down_is_in_no_export(client):
    olive, gus = make_person("Olive"), make_person("Gus")
    event = make_event(olive, gus)
    kept, gone = say(client, gus, event.id, "kept words"), say(client, gus, event.id, "regretted words")
    poll = body(
        post_json(
            client,
            f"/events/{event.id}/polls",
            {"suggested_date": "2031-07-02T19:00:00Z", "suggested_venue": "Pub"},
            gus.token,
        )
    )
    assert delete(client, olive, f"/events/{event.id}/messages/{gone}").status_code == 204
    assert delete(client, gus, f"/events/{event.id}/polls/{poll['id']}").status_code == 204

    now = datetime.now(UTC)
    for person in (gus, olive):
        exported = str(data_export.collect(person.user, now))
        assert "kept words" in exported and "regretted words" not in exported and "Pub" not in exported
    received = data_export.collect(gus.user, now)["invitations_received"][0]
    assert [m["id"] for m in received["messages_written"]] == [kept] and received["polls_written"] == []
