"""Every Lambda function of the stack runs its code paths under its own deployed policy (tests/utils/iam.py):
the API's route families as requests, every kind of queue message through the worker's SQS handler, the hourly
schedule and replies by text through their handlers, each as the function AWS would run it in. A call the
function's policy does not allow fails as AWS fails it, so the service's own error handling runs; the test fails
on any such refusal, and on anything a person would miss (the text a promoted guest gets).

`make test-iam` runs the tests marked `iam`: this file.
"""

from __future__ import annotations

import base64
import contextlib
import json
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest

from chalicelib.jobs import queue_handler  # noqa: F401 - declares every queue kind
from chalicelib.messaging.notifications.kinds import declared_kinds
from chalicelib.parallel import chunks
from chalicelib.services.account import account_deletion
from tests.infra.iam_attendance import remind_and_release
from tests.infra.iam_plans import plan_a_date_together
from tests.infra.iam_removal import remove_and_tell
from tests.infra.iam_text_answers import answer_by_text
from tests.infra.test_policy import GUEST, OWNER, disable_push_endpoints, run_the_flow
from tests.utils import sms_receipts, the_day
from tests.utils.api import login, post_json, texts_to
from tests.utils.avatars import multipart, upload_avatar
from tests.utils.aws_env import ACCOUNT, REGION, aws_client
from tests.utils.images import jpeg
from tests.utils.inbound_sms import sns_event
from tests.utils.notifications import drain
from tests.utils.web import answer, form_token, link_texted_to, page, post_form, text_of

pytestmark = pytest.mark.iam

MESSAGE_KINDS = set(declared_kinds())  # every kind the queue's worker handles
# Granted though the run needs neither: PynamoDB describes a table it has no schema for (Model.exists(),
# count(), a connection-level call on an unknown table), and IAM authorises a transaction by its items' actions
# (dynamodb:TransactWriteItems is kept in case a transaction is ever checked as a whole).
GRANTED_WITHOUT_A_CALL = {"dynamodb:DescribeTable", "dynamodb:TransactWriteItems"}
TEXTED, WAITING, STOPPER = "+14155550190", "+14155550191", "+14155550192"
DROPPED = "+14155550196"
RETRIED = "+14155550178"


class StackRun:
    """One run of the stack: requests as the API function, queue deliveries as the worker, and the rest."""

    def __init__(self, client, iam, monkeypatch):
        from chalice.test import TestHTTPClient

        from chalicelib.config import get_settings

        self.client, self.iam = client, iam
        self.url = get_settings().notifications_queue_url
        self.kinds: set[str] = set()
        self.families: set[str] = set()
        self.failed_invocations: list[str] = []  # asynchronous ones: AWS retries them, then the failure queue
        original = TestHTTPClient.request
        run = self

        def request(http, method, path, headers=None, body=b""):
            run.families.add(path.split("?")[0].split("/")[1])
            with iam.runs_as("api_handler"):
                return original(http, method, path, headers=headers, body=body)

        monkeypatch.setattr(TestHTTPClient, "request", request)

    def deliver(self) -> None:
        """What the queue holds, to the worker's SQS handler as the event source mapping hands it, until empty."""
        from chalicelib.wiring import NOTIFICATION_BATCH_SIZE

        for _ in range(30):
            bodies = drain(self.url)
            if not bodies:
                return
            self.kinds |= {json.loads(body)["type"] for body in bodies}
            with self.iam.runs_as("send_notifications"):
                for batch in chunks(bodies, NOTIFICATION_BATCH_SIZE):
                    event = self.client.events.generate_sqs_event(batch, queue_name=self.url.rsplit("/", 1)[-1])
                    self.client.lambda_.invoke("send_notifications", event)
        raise AssertionError("the queue never emptied")

    def schedule(self) -> None:
        event = self.client.events.generate_cw_event(
            source="aws.events", detail_type="Scheduled Event", detail={}, resources=[]
        )
        with self.iam.runs_as("remind_upcoming_events"):
            self.client.lambda_.invoke("remind_upcoming_events", event)

    def text_in(self, number: str, text: str) -> None:
        payload = {"originationNumber": number, "destinationNumber": "+18885550123", "messageBody": text}
        with self.iam.runs_as("handle_inbound_sms"):
            try:
                self.client.lambda_.invoke("handle_inbound_sms", sns_event(payload))
            except Exception as failure:  # noqa: BLE001 - SNS invoked it asynchronously: nobody waits for it
                self.failed_invocations.append(f"{text}: {failure}")


def promote_a_guest_invited_by_text(run: StackRun) -> None:
    """A full event with a waitlist: a guest invited by text waits in line and is texted when seated."""
    client = run.client
    owner = login(client, "+14155550193", full_name="Wanda Waitlist")["auth_token"]
    seated = login(client, WAITING, full_name="Sid Seated")["auth_token"]
    event = {
        "title": "Dinner",
        "event_date": "2031-07-01T18:00:00Z",
        "total_spots": 1,
        "waitlist": True,
        "invite_phone_numbers": [WAITING],
    }
    created = post_json(client, "/events", event, owner)
    assert created.status_code == 201, created.body
    event_id = created.json_body["id"]
    assert post_json(client, f"/events/{event_id}/accept", {}, seated).status_code == 200
    edited = post_json(client, f"/events/{event_id}", {"invite_phone_numbers": [TEXTED]}, owner, method="PATCH")
    assert edited.status_code == 200, edited.body
    run.deliver()
    path = link_texted_to(TEXTED)
    assert answer(run.client, path, "accept").status_code == 303
    assert "número 1" in text_of(page(client, f"{path}?lang=es"))  # the chosen language kept for the number
    assert client.http.get(f"{path}/event.ics").status_code == 200
    texted = len(texts_to(TEXTED))
    assert post_json(client, f"/events/{event_id}/reject", {}, seated).status_code == 200
    run.deliver()
    texts = texts_to(TEXTED)
    assert len(texts) == texted + 1 and "ya tienes plaza" in texts[-1], texts  # the promotion, in the language chosen


def keep_the_guest_list_by_hand(run: StackRun) -> None:
    """The owner records a guest's reply, counts in someone without a phone and takes them out again."""
    client = run.client
    owner = login(client, "+14155550175", full_name="Holly Host")["auth_token"]
    guest = login(client, "+14155550176", full_name="Gus Guest")
    event = {"title": "Picnic", "event_date": "2031-07-05T12:00:00Z", "total_spots": 3}
    event["invite_phone_numbers"] = ["+14155550176"]
    created = post_json(client, "/events", event, owner)
    assert created.status_code == 201, created.body
    event_id = created.json_body["id"]
    path = f"/events/{event_id}/invitees/{guest['id']}/reply"
    replied = post_json(client, path, {"accept": True}, owner, method="PUT")
    assert replied.status_code == 200 and replied.json_body["replied_by_host"] is True, replied.body
    added = post_json(client, f"/events/{event_id}/offline_guests", {"name": "Grandpa Joe"}, owner)
    assert added.status_code == 201, added.body
    removed = client.http.delete(
        f"/events/{event_id}/offline_guests/{added.json_body['id']}", headers={"Authorization": f"Bearer {owner}"}
    )
    assert removed.status_code == 204, removed.body
    run.deliver()


def drop_a_party_that_no_longer_fits(run: StackRun) -> None:
    """A guest invited by text waits with a party of 2; the owner lowers the total to 1: the worker texts them."""
    client = run.client
    owner = login(client, "+14155550195", full_name="Dora Drop")["auth_token"]
    event = {
        "title": "Boat",
        "event_date": "2031-07-03T18:00:00Z",
        "total_spots": 2,
        "waitlist": True,
        "max_extra_guests": 1,
        "invite_phone_numbers": [WAITING, DROPPED],
    }
    created = post_json(client, "/events", event, owner)
    assert created.status_code == 201, created.body
    event_id = created.json_body["id"]
    seated = login(client, WAITING)["auth_token"]
    assert post_json(client, f"/events/{event_id}/accept", {}, seated).status_code == 200
    path = link_texted_to(DROPPED)
    opened = text_of(page(client, path))
    fields = {"csrf": form_token(opened), "message": "", "answer": "accept", "extra_guests": "1"}
    assert post_form(client, f"{path}/rsvp", fields).status_code == 303
    assert "number 1 in line" in text_of(page(client, path))
    texted = len(texts_to(DROPPED))
    lowered = post_json(client, f"/events/{event_id}", {"total_spots": 1}, owner, method="PATCH")
    assert lowered.status_code == 200, lowered.body
    run.deliver()
    assert len(texts_to(DROPPED)) == texted + 1, texts_to(DROPPED)  # the worker texted them their page


def stop_from_the_page_and_delete_on_the_web(run: StackRun) -> None:
    client = run.client
    owner = login(client, "+14155550194", full_name="Pat Page")["auth_token"]
    created = post_json(
        client,
        "/events",
        {"title": "Tea", "event_date": "2031-07-02T18:00:00Z", "invite_phone_numbers": [STOPPER]},
        owner,
    )
    assert created.status_code == 201, created.body
    run.deliver()
    path = link_texted_to(STOPPER)
    opened = text_of(page(client, path))
    stopped = post_form(client, f"{path}/stop", {"csrf": form_token(opened)})
    assert stopped.status_code in (200, 303), stopped.body
    texted = len(texts_to(STOPPER))
    again = {"title": "Tea again", "event_date": "2031-07-03T18:00:00Z", "invite_phone_numbers": [STOPPER]}
    assert post_json(client, "/events", again, owner).status_code == 201
    run.deliver()
    assert len(texts_to(STOPPER)) == texted  # on the stop list: no more invitation texts
    form = text_of(page(client, "/account/delete"))
    sent = post_form(client, "/account/delete/pin", {"csrf": form_token(form), "phone_number": "+14155550194"})
    assert sent.status_code == 200, sent.body
    assert client.http.get("/docs").status_code == 200 and client.http.get("/openapi.json").status_code == 200


def delete_someone_with_photos_and_an_export(run: StackRun) -> None:
    """The cascade deletes every kind of object a person leaves: avatars, favorites' photos, exports, the covers
    of their events (one set, removed and set again, so the API deletes one too; then copied to a clone)."""
    from chalicelib.config import get_settings

    client = run.client
    person = login(client, "+14155550195", full_name="Fay Files")
    token, folders = person["auth_token"], ("avatars", "favorites", "exports", "covers")
    auth = {"Authorization": f"Bearer {token}"}
    assert upload_avatar(client, token, jpeg()).status_code == 200
    created = post_json(client, "/events", {"title": "Show", "event_date": "2031-07-04T18:00:00Z"}, token)
    cover = f"/events/{created.json_body['id']}/cover"
    payload, headers = multipart(jpeg())
    assert client.http.request("PUT", cover, body=payload, headers={**headers, **auth}).status_code == 200
    assert client.http.request("DELETE", cover, headers=auth).status_code == 200
    assert client.http.request("PUT", cover, body=payload, headers={**headers, **auth}).status_code == 200
    clone = post_json(client, f"/events/{created.json_body['id']}/clone", {"event_date": "2031-07-11T18:00:00Z"}, token)
    assert clone.status_code == 201 and clone.json_body["cover_url"], clone.body  # the cover copied
    favorite = [{"contact_name": "Ann", "phone_number": "+14155550196", "photo": base64.b64encode(jpeg()).decode()}]
    assert post_json(client, "/users/favorite_contacts", favorite, token).status_code in (200, 201)
    assert client.http.post("/users/me/export", headers=auth).status_code == 202
    run.deliver()
    assert client.http.get("/users/me/export", headers=auth).json_body["status"] == "ready"

    def objects() -> dict[str, int]:
        s3, bucket = aws_client("s3"), get_settings().avatar_bucket
        listed = {f: s3.list_object_versions(Bucket=bucket, Prefix=f"{f}/{person['id']}/") for f in folders}
        return {f: len(page.get("Versions", [])) for f, page in listed.items()}

    assert all(objects().values()), objects()
    assert client.http.request("DELETE", "/users/me", headers=auth).status_code == 204
    run.deliver()
    assert objects() == dict.fromkeys(folders, 0)


def text_again_what_sns_throttled(run: StackRun, monkeypatch) -> None:
    """SNS throttles an invitation text: the API function queues its retry, the worker sends it, once."""
    from chalicelib.services.texts import text_outbox
    from tests.utils import sms_faults

    monkeypatch.setattr(text_outbox, "FIRST_RETRY_DELAY", 0)  # visible to the run's next delivery at once
    owner = login(run.client, "+14155550177", full_name="Tess Throttled")["auth_token"]
    faults, undo = sms_faults.install()
    try:
        faults.throttle(sms_faults.THROTTLED)
        event = {"title": "Tea", "event_date": "2031-08-01T16:00:00Z", "invite_phone_numbers": [RETRIED]}
        created = post_json(run.client, "/events", event, owner)
        assert created.status_code == 201, created.body
        assert texts_to(RETRIED) == []
        run.deliver()
    finally:
        undo()
    assert len(texts_to(RETRIED)) == 1  # the worker's retry texted the guest


def share_photos_and_check_in_at_the_door(run: StackRun) -> None:
    """The day itself: a guest adds photos (one processed, one refused, one never processed), the owner looks,
    removes one and checks the guest in by their pass, then the guest deletes their account: every object
    and version they left in the album goes."""
    import requests

    from chalicelib.config import get_settings

    client = run.client
    owner = login(client, "+14155550161", full_name="Pat Photos")["auth_token"]
    guest = login(client, "+14155550162", full_name="Gil Guest")
    token, auth = guest["auth_token"], {"Authorization": f"Bearer {guest['auth_token']}"}
    event = {"title": "Wedding", "event_date": "2031-07-04T18:00:00Z", "invite_phone_numbers": ["+14155550162"]}
    created = post_json(client, "/events", {**event, "album": "guests"}, owner)
    event_id = created.json_body["id"]
    assert post_json(client, f"/events/{event_id}/accept", {}, token).status_code == 200
    the_day.started(event_id)
    keys = []
    for data in (jpeg(), jpeg(), b"no image", jpeg()):
        grant = post_json(client, f"/events/{event_id}/photos", {"content_type": "image/jpeg"}, token).json_body
        sent = requests.post(grant["upload_url"], data=grant["upload_fields"], files={"file": data}, timeout=5)
        assert sent.status_code == 204
        keys.append(grant["upload_fields"]["key"])
    with run.iam.runs_as("process_photo_upload"):
        assert run.client.lambda_.invoke("process_photo_upload", the_day.s3_event(*keys[:3])).payload == [
            "processed",
            "processed",
            "rejected",
        ]
    host = {"Authorization": f"Bearer {owner}"}
    album = client.http.get(f"/events/{event_id}/photos", headers=host).json_body["results"]
    assert len(album) == 2 and all(photo["url"] for photo in album)
    assert client.http.delete(f"/events/{event_id}/photos/{album[0]['id']}", headers=host).status_code == 204
    code = client.http.get(f"/events/{event_id}/pass", headers=auth).json_body["code"]
    assert post_json(client, f"/events/{event_id}/check_ins", {"code": code}, owner).status_code == 200
    assert client.http.delete(f"/events/{event_id}/check_ins?code={code}", headers=host).status_code == 200

    def objects() -> int:
        s3, bucket = aws_client("s3"), get_settings().avatar_bucket
        pages = [s3.list_object_versions(Bucket=bucket, Prefix=f"{f}/{guest['id']}/") for f in the_day.FOLDERS]
        return sum(len(page.get("Versions", [])) for page in pages)

    assert objects() == 3  # the photo left (two sizes) and the upload never processed
    assert client.http.post("/users/me/export", headers=auth).status_code == 202
    run.deliver()  # the export links the photo the guest added
    assert client.http.request("DELETE", "/users/me", headers=auth).status_code == 204
    run.deliver()
    assert objects() == 0
    assert client.http.get(f"/events/{event_id}/photos", headers=host).json_body["results"] == []
    # another guest's photo goes with the event when its owner deletes their account
    other = login(client, "+14155550163", full_name="Ona Other")
    added = post_json(client, f"/events/{event_id}", {"invite_phone_numbers": ["+14155550163"]}, owner, method="PATCH")
    assert added.status_code == 200, added.body
    assert post_json(client, f"/events/{event_id}/accept", {}, other["auth_token"]).status_code == 200
    grant = post_json(client, f"/events/{event_id}/photos", {"content_type": "image/jpeg"}, other["auth_token"])
    fields = grant.json_body["upload_fields"]
    sent = requests.post(grant.json_body["upload_url"], data=fields, files={"file": jpeg()}, timeout=5)
    assert sent.status_code == 204
    with run.iam.runs_as("process_photo_upload"):
        assert run.client.lambda_.invoke("process_photo_upload", the_day.s3_event(fields["key"])).payload == [
            "processed"
        ]
    s3, bucket = aws_client("s3"), get_settings().avatar_bucket
    kept = s3.list_objects_v2(Bucket=bucket, Prefix=f"photos/{other['id']}/").get("Contents", [])
    assert len(kept) == 2
    assert client.http.request("DELETE", "/users/me", headers=host).status_code == 204
    run.deliver()
    assert s3.list_objects_v2(Bucket=bucket, Prefix=f"photos/{other['id']}/").get("Contents", []) == []


def keep_guests_in_the_loop(run: StackRun, monkeypatch) -> None:
    """Change texts (the burst's due message without its delay), announcements, a nudge, an Android device."""
    from chalicelib.services.texts import guest_texts

    monkeypatch.setattr(guest_texts, "BURST_SECONDS", 0)
    noon = (datetime.now(UTC) + timedelta(days=1)).replace(hour=12, minute=0)  # out of quiet hours, after the edit
    monkeypatch.setattr(guest_texts, "utcnow", lambda: noon)
    client = run.client
    owner = login(client, "+14155550197", full_name="Lou Loop")["auth_token"]
    guest = "+14155550198"
    created = post_json(client, "/events", {"title": "Picnic", "event_date": "2031-07-04T18:00:00Z",
                                            "invite_phone_numbers": [guest]}, owner)  # fmt: skip
    assert created.status_code == 201, created.body
    event_id = created.json_body["id"]
    token = "fcm_" + "Xy9:" * 30
    assert post_json(client, "/notifications/add_android_device", {"device_token": token}, owner).status_code == 204
    run.deliver()
    moved = post_json(client, f"/events/{event_id}", {"venue_name": "The Park"}, owner, method="PATCH")
    assert moved.status_code == 200, moved.body
    run.deliver()
    assert any(" is now " in text for text in texts_to(guest)), texts_to(guest)
    announced = post_json(client, f"/events/{event_id}/announcements", {"text": "Bring a blanket"}, owner)
    assert announced.status_code == 201, announced.body
    assert post_json(client, f"/events/{event_id}/nudge", {}, owner).status_code == 200
    run.deliver()
    assert any(" about " in text for text in texts_to(guest)) and any(
        "waiting for your answer" in text for text in texts_to(guest)
    )
    assert answer(client, link_texted_to(guest), "accept").status_code == 303  # the owner's Android is pushed
    run.deliver()
    assert post_json(client, "/notifications/remove_android_device", {"device_token": token}, owner).status_code == 204


def join_by_link(run: StackRun) -> None:
    """A join link made, replaced, used to ask (approval) and to join (open); a request approved and one declined."""
    client = run.client
    owner = login(client, "+14155550181", full_name="Jo Host")["auth_token"]
    askers = [login(client, number)["auth_token"] for number in ("+14155550182", "+14155550183")]
    created = post_json(client, "/events", {"title": "Open house", "event_date": "2031-08-01T18:00:00Z"}, owner)
    event_id = created.json_body["id"]
    assert post_json(client, f"/events/{event_id}", {"join_mode": "approval"}, owner, method="PATCH").status_code == 200
    post_json(client, f"/events/{event_id}/join_link", {}, owner)
    code = post_json(client, f"/events/{event_id}/join_link", {}, owner).json_body["url"].rsplit("/j/", 1)[1]
    for token in askers:
        assert post_json(client, "/events/join", {"code": code}, token).status_code == 202
    listed = client.http.get(f"/events/{event_id}/join_requests", headers={"Authorization": f"Bearer {owner}"})
    first, second = (row["user_id"] for row in listed.json_body)
    assert post_json(client, f"/events/{event_id}/join_requests/{first}/approve", None, owner).status_code == 204
    assert post_json(client, f"/events/{event_id}/join_requests/{second}/decline", None, owner).status_code == 204
    assert post_json(client, f"/events/{event_id}", {"join_mode": "open"}, owner, method="PATCH").status_code == 200
    assert post_json(client, "/events/join", {"code": code}, askers[1]).status_code == 200
    form = text_of(page(client, f"/j/{code}"))  # on the web: the page, a pin texted, the join
    newcomer = "+14155550184"
    typed = {"phone_number": newcomer, "full_name": "Nell Newcomer"}
    pin_page = post_form(client, f"/j/{code}/pin", {"csrf": form_token(form), **typed})
    assert pin_page.status_code == 200, text_of(pin_page)
    fields = {"csrf": form_token(text_of(pin_page)), **typed}
    fields["pin"] = next(word.rstrip(".") for word in texts_to(newcomer)[-1].split() if word.rstrip(".").isdigit())
    assert post_form(client, f"/j/{code}/verify", fields).status_code == 303
    run.deliver()


def bring_a_push_endpoint_back(run: StackRun) -> None:
    """A phone registered again after SNS disabled its endpoint: the registration enables it."""
    client, token = run.client, "e6" * 32
    owner = login(client, "+14155550185")["auth_token"]
    assert post_json(client, "/notifications/add_ios_device", {"token": token}, owner).status_code == 204
    disable_push_endpoints()
    assert post_json(client, "/notifications/add_ios_device", {"token": token}, owner).status_code == 204
    sns = aws_client("sns")
    applications = sns.list_platform_applications()["PlatformApplications"]
    found = [
        endpoint["Attributes"]
        for application in applications
        for endpoint in sns.list_endpoints_by_platform_application(
            PlatformApplicationArn=application["PlatformApplicationArn"]
        )["Endpoints"]
        if endpoint["Attributes"]["Token"] == token
    ]
    assert found == [{"Token": token, "Enabled": "true"}]


def series_and_live_calendars(run: StackRun) -> None:
    """A series texted once, answered per date on its page, changed for all dates and cancelled; both live
    calendars (the person's link, the guest's series)."""
    client = run.client
    owner = login(client, "+14155550187", full_name="Sam Series")["auth_token"]
    guest = "+14155550188"
    created = post_json(client, "/events", {"title": "Book club", "event_date": "2031-09-02T19:00:00-04:00",
                                            "time_zone": "America/New_York", "repeat": {"freq": "weekly", "count": 3},
                                            "invite_phone_numbers": [guest]}, owner)  # fmt: skip
    assert created.status_code == 201, created.body
    dates = [date["id"] for date in created.json_body["series"]["dates"]]
    run.deliver()
    path = link_texted_to(guest)
    opened = text_of(page(client, path))
    answered = post_form(client, f"{path}/dates/{dates[1]}/rsvp", {"csrf": form_token(opened), "answer": "accept"})
    assert answered.status_code == 303, answered.body
    assert client.http.get(f"{path}/calendar.ics").status_code == 200
    edited = post_json(client, f"/events/{dates[0]}", {"venue_name": "Library", "scope": "all"}, owner, "PATCH")
    assert edited.status_code == 200, edited.body
    feed = client.http.post("/users/me/calendar_feed", headers={"Authorization": f"Bearer {owner}"})
    assert feed.status_code == 200, feed.body
    assert client.http.get(feed.json_body["url"].split("invites.example.test", 1)[1]).status_code == 200
    series = created.json_body["series"]["id"]
    cancelled = client.http.request("DELETE", f"/series/{series}", headers={"Authorization": f"Bearer {owner}"})
    assert cancelled.status_code == 204, cancelled.body
    run.deliver()


def receive_delivery_receipts(run: StackRun) -> None:
    """SNS's delivery-status logs of two invitation texts reach record_text_receipts through the CloudWatch Logs
    subscription (invoked asynchronously): one delivered, one failed, as the host then sees them."""
    client = run.client
    owner = login(client, "+14155550250", full_name="Rae Receipts")
    numbers = ("+14155550251", "+14155550252")
    created = post_json(
        client, "/events", {"title": "Receipts", "event_date": "2031-09-01T18:00:00Z", "invite_phone_numbers": numbers},
        owner["auth_token"],
    )  # fmt: skip
    event_id = created.json_body["id"]
    ids = {row["phone_number"]: row["user_id"] for row in created.json_body["invitees"]}
    for number, success in zip(numbers, (True, False), strict=True):
        message_id = sms_receipts.message_id_of_text("invitation", str(event_id), ids[number])
        event = sms_receipts.subscription_event(
            [sms_receipts.delivery_record(message_id, number, success=success)], failure=not success
        )
        with run.iam.runs_as("record_text_receipts"):
            try:
                run.client.lambda_.invoke("record_text_receipts", event)
            except Exception as failure:  # noqa: BLE001 - invoked asynchronously: nobody waits for it
                run.failed_invocations.append(f"receipt: {failure}")
    detail = client.http.get(f"/events/{event_id}", headers={"Authorization": f"Bearer {owner['auth_token']}"})
    shown = {row["phone_number"]: row["text_status"] for row in detail.json_body["invitees"]}
    assert [shown[number] for number in numbers] == ["delivered", "failed"]


def run_the_stack(run: StackRun, monkeypatch) -> None:
    owner, event_id = run_the_flow(run.client)  # the API's routes as the apps use them; it deletes an account
    promote_a_guest_invited_by_text(run)
    drop_a_party_that_no_longer_fits(run)
    keep_the_guest_list_by_hand(run)
    stop_from_the_page_and_delete_on_the_web(run)
    delete_someone_with_photos_and_an_export(run)
    share_photos_and_check_in_at_the_door(run)
    keep_guests_in_the_loop(run, monkeypatch)
    join_by_link(run)
    text_again_what_sns_throttled(run, monkeypatch)
    bring_a_push_endpoint_back(run)
    plan_a_date_together(run)
    series_and_live_calendars(run)
    answer_by_text(run, monkeypatch)
    remind_and_release(run, monkeypatch)
    receive_delivery_receipts(run)
    remove_and_tell(run)
    # the hourly schedule before the worker has run the deletion: it is queued again
    monkeypatch.setattr(account_deletion, "STUCK_AFTER", timedelta(0))
    run.schedule()
    run.deliver()
    for text in ("STOP", "START", "HELP"):
        run.text_in(OWNER, text)
    disable_push_endpoints()  # APNS dropped the tokens: the next pushes make the worker forget them
    guest = {"Authorization": f"Bearer {login(run.client, GUEST)['auth_token']}"}
    export = run.client.http.get("/users/me/export", headers=guest).json_body
    assert export["status"] == "ready" and export["url"], export
    opened = run.client.http.get(urlsplit(export["url"]).path)  # the link, opened without a bearer token
    assert opened.status_code == 303, opened.body  # a presigned URL: the API's right to read the file
    changed = post_json(run.client, f"/events/{event_id}", {"venue_name": "The Pier"}, owner, method="PATCH")
    assert changed.status_code == 200, changed.body
    run.deliver()


@pytest.fixture
def stack_run(client, iam, monkeypatch) -> StackRun:
    return StackRun(client, iam, monkeypatch)


def _refusals(iam) -> list[str]:
    return [f"{d.function}: {d.call} -> {d.request.action} on {d.request.resource}" for d in iam.denied()]


def test_the_functions_of_app_py_are_the_functions_with_policies():
    from app import app
    from tests.utils.iam import stage_functions

    handlers = {"api_handler"} | {source.name for source in app.event_sources}
    handlers |= {function.name for function in app.pure_lambda_functions}
    for stage in ("dev", "prod"):
        assert set(stage_functions(stage)) == handlers


def test_every_function_runs_under_its_own_policy_without_a_refusal(stack_run, monkeypatch):
    from app import app

    run_the_stack(stack_run, monkeypatch)
    iam = stack_run.iam
    assert _refusals(iam) == []
    assert stack_run.failed_invocations == []
    assert stack_run.kinds >= MESSAGE_KINDS, f"no message of kinds {sorted(MESSAGE_KINDS - stack_run.kinds)}"
    families = {path.split("/")[1] for path in app.routes}
    assert stack_run.families >= families, f"no request to {sorted(families - stack_run.families)}"
    for function in iam.policies:
        assert iam.performed_by(function), f"{function} made no AWS call"


def performed_by_aws(stage: str, function: str) -> list[tuple[str, str]]:
    """What AWS does with a function's role: its logs (the log group `chalice deploy` names after the function),
    for the worker the SQS event source mapping's calls on the queue, for replies by text (invoked asynchronously)
    the delivery of a failed event to its failure destination (and for album uploads), the upload a presigned POST
    makes."""
    name = f"invites-{stage}" if function == "api_handler" else f"invites-{stage}-{function}"
    group = f"arn:aws:logs:{REGION}:{ACCOUNT}:log-group:/aws/lambda/{name}"
    requests = [("logs:CreateLogStream", group), ("logs:PutLogEvents", f"{group}:log-stream:2026/11/26/[$LATEST]0a")]
    if function == "send_notifications":
        queue = f"arn:aws:sqs:{REGION}:{ACCOUNT}:invites-{stage}-notifications"
        requests += [(f"sqs:{action}", queue) for action in ("ReceiveMessage", "DeleteMessage", "GetQueueAttributes")]
    if function == "handle_inbound_sms":
        requests += [("sqs:SendMessage", f"arn:aws:sqs:{REGION}:{ACCOUNT}:invites-{stage}-inbound-sms-failures")]
    if function == "record_text_receipts":  # invoked by the CloudWatch Logs subscription, asynchronously
        requests += [("sqs:SendMessage", f"arn:aws:sqs:{REGION}:{ACCOUNT}:invites-{stage}-text-receipt-failures")]
    if function == "process_photo_upload":  # invoked by S3's events, asynchronously
        requests += [("sqs:SendMessage", f"arn:aws:sqs:{REGION}:{ACCOUNT}:invites-{stage}-photo-upload-failures")]
    if function == "api_handler":  # a presigned POST's upload is authorised against the role that signed it
        bucket = f"arn:aws:s3:::invites-{stage}-avatars-{ACCOUNT}"
        requests += [("s3:PutObject", f"{bucket}/photo-uploads/1/2/3")]
    return requests


def _without(policy: dict, sid: str) -> dict:
    return {**policy, "Statement": [s for s in policy["Statement"] if s.get("Sid") != sid]}


def _without_item(policy: dict, sid: str, key: str, item: str) -> dict:
    statements = [
        {**s, key: [i for i in s[key] if i != item]} if s.get("Sid") == sid else s for s in policy["Statement"]
    ]
    return {**policy, "Statement": statements}


def _as_stage(resource: str, stage: str) -> str:
    return resource.replace("invites-dev-", f"invites-{stage}-").replace("/invites/dev/", f"/invites/{stage}/")


def test_removing_any_statement_of_a_policy_refuses_a_call_the_function_makes(stack_run, monkeypatch):
    from tests.utils.iam import allows, load_policy

    run_the_stack(stack_run, monkeypatch)
    iam = stack_run.iam
    assert _refusals(iam) == []
    unneeded = []
    for stage, function in [(stage, function) for stage in ("dev", "prod") for function in iam.policies]:
        policy = load_policy(stage, function)
        requests = [(r.action, _as_stage(r.resource, stage)) for r in set(iam.performed_by(function))]
        requests += performed_by_aws(stage, function)
        assert all(allows(policy, action, resource) for action, resource in requests), function
        sids = [statement["Sid"] for statement in policy["Statement"]]
        assert len(set(sids)) == len(sids), f"{function}: each statement needs its own Sid"
        for sid in sids:
            reduced = _without(policy, sid)
            if all(allows(reduced, action, resource) for action, resource in requests):
                unneeded.append(f"{stage} {function}: {sid}")
        for statement in policy["Statement"]:  # and any one resource or action of a statement
            for key in ("Resource", "Action"):
                items = [i for i in statement.get(key, []) if i not in GRANTED_WITHOUT_A_CALL]
                for item in items if len(statement.get(key, [])) > 1 else []:
                    reduced = _without_item(policy, statement["Sid"], key, item)
                    if all(allows(reduced, action, resource) for action, resource in requests):
                        unneeded.append(f"{stage} {function}: {statement['Sid']} {item}")
    assert unneeded == [], "\n".join(["granted, no call needs it (remove, or reach its call):", *unneeded])


@pytest.mark.parametrize(
    ("function", "sid"),
    [("send_notifications", "PromotionTexts"), ("api_handler", "Tables"), ("handle_inbound_sms", "StopList")],
)
def test_a_run_with_a_statement_taken_out_is_refused_as_aws_would(stack_run, monkeypatch, function, sid):
    # the enforcement itself, not only the re-evaluation above: the live policy lacks one statement
    iam = stack_run.iam
    iam.policies[function] = _without(iam.policies[function], sid)
    with contextlib.suppress(AssertionError):  # what a person would miss fails the run early, as it should
        run_the_stack(stack_run, monkeypatch)
    refused = {(d.function, d.request.action.split(":")[0]) for d in iam.denied()}
    assert refused and {f for f, _ in refused} == {function}, refused
