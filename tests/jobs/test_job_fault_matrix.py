"""AWS's own faults in the jobs: the queue's worker (its queued pushes and texts and its SendMessage of retries),
the hourly schedule, the inbound texts and the photo processing, each under its own function's IAM policy.

As tests/api/test_fault_matrix.py does for requests: each job runs once with a recording hook on the wire; every
operation it reaches gets every error shape botocore's model lists for it plus the documented throttles, injected
into each call of that operation on a fresh emulator. A job has no answer to judge: what it did is. AWS hands an
invocation that failed to the function again (SQS: the batch comes back; EventBridge, SNS and S3 invoke
asynchronously and retry), so after the fault the job is handed its input again, without the fault, until it
succeeds; it must succeed within those tries and have done exactly what a run without fault does (items of each
kind, counters, texts, pushes): nothing lost, nothing twice. A run that reports success under the fault is not
handed again, so it must have done all its work already.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from moto.sns.models import sns_backends

from tests.api.test_fault_matrix import _new_world, discover, refused_by_iam
from tests.utils import sms_receipts
from tests.utils.api import ACCOUNT, REGION, post_json
from tests.utils.avatars import upload_avatar
from tests.utils.aws_faults import always, client_error, modelled_errors, on_the_wire
from tests.utils.effects import difference, stored_effects
from tests.utils.factories import make_event, make_person, phone
from tests.utils.images import jpeg
from tests.utils.inbound_sms import sns_event
from tests.utils.notifications import add_device, drain, use_queue
from tests.utils.the_day import going, s3_event, started, upload
from tests.utils.web import invite_by_text

# Outcomes the code documents for an error, where the run then rightly does less than a run without it: a
# delivery's claim refused by its condition is held by another delivery, which sends it; an endpoint SNS calls
# gone or disabled is forgotten with its device (the push cannot be delivered to it).
DOCUMENTED = {
    ("dynamodb", "PutItem", "ConditionalCheckFailedException"),
    ("sns", "Publish", "NotFound"),
    ("sns", "Publish", "EndpointDisabled"),
}
# A receipt's record refusing it (its condition) is a receipt that came too late, e.g. failed after delivered: it
# is counted stale and changes nothing (services/texts/delivery_receipts.py).
STALE_RECEIPT = frozenset({("dynamodb", "UpdateItem", "ConditionalCheckFailedException")})
QUOTA_SPENT = frozenset({("dynamodb", "UpdateItem", "ConditionalCheckFailedException")})
# A text tried again counts its tries on its record: what a retry is, not a second effect.
TRIES = ("test-auth", "SENT", "", "attempts")
HANDINGS = 4  # how often AWS hands a failed invocation again, at least (SQS until the queue's redrive limit)


@dataclass(frozen=True)
class Job:
    """One invocation: ``prepare(client)`` builds its world and returns the invocation (raises when it failed)."""

    name: str
    function: str
    prepare: Callable
    shows: Callable[[], Counter] | None = None  # what the job changes that items and counters do not count
    documented: Callable[[], frozenset] = frozenset  # (service, operation, code) whose outcome its code documents
    later: bool = False  # its work goes on in delayed queue messages (a text's next try), handed when due


def _worker_invocation(client, url: str) -> Callable:
    """The worker handed what the queue holds now, then what its own retries and follow-ups queued."""
    pending = drain(url)
    assert pending, "nothing was queued"

    def invoke():
        batch = list(pending)
        client.lambda_.invoke("send_notifications", client.events.generate_sqs_event(batch, queue_name="q"))
        pending[:] = drain(url)  # handled: what it queued meanwhile is the next batch
        while pending:
            batch = list(pending)
            client.lambda_.invoke("send_notifications", client.events.generate_sqs_event(batch, queue_name="q"))
            pending[:] = drain(url)

    def when_due():
        """The queue's delayed messages (a text's next try) come due: the worker is handed them."""
        for _ in range(HANDINGS):
            _delays_pass(url)
            pending[:] = drain(url)
            if not pending:
                return
            invoke()

    invoke.when_due = when_due
    return invoke


def _delays_pass(url: str) -> None:
    """Every message the queue keeps out of sight for its DelaySeconds is visible now (time passes in moto)."""
    from moto.sqs.models import sqs_backends

    for message in sqs_backends[ACCOUNT][REGION].queues[url.rsplit("/", 1)[1]]._messages:
        message.delayed_until = 0


def _owner_with_two_guests(override_settings, device_token: str):
    """A queue, an owner and an event of theirs with a guest who has the app; a number not invited yet."""
    url = use_queue(override_settings)
    owner, app_guest, number = make_person("Olive Owner"), make_person("Gus Guest"), phone()
    add_device(app_guest, device_token)
    event = make_event(owner, app_guest)
    return url, owner, app_guest, number, f"/events/{event.id}"


def _changed_event(client, override_settings) -> Callable:
    """An event changed: its guest with the app is pushed, its guest without it texted."""
    url, owner, app_guest, number, path = _owner_with_two_guests(override_settings, "d4" * 32)
    assert post_json(client, path, {"invite_phone_numbers": [number]}, owner.token, "PATCH").status_code == 200
    drain(url)  # the invitation's own messages: not this job's
    assert post_json(client, path, {"title": "Picnic moved"}, owner.token, "PATCH").status_code == 200
    return _worker_invocation(client, url)


def _account_deleted(client, override_settings) -> Callable:
    """A person deletes their account: their event (with its cover), invitation, device and avatar go."""
    from chalicelib.services.hosting import covers

    url = use_queue(override_settings)
    person, guest = make_person("Pat Person"), make_person("Gus Guest")
    add_device(person, "e6" * 32)
    assert upload_avatar(client, person.token, jpeg()).status_code == 200
    event = make_event(person, guest)
    covers.change_cover(person.user, event.id, jpeg())
    make_event(guest, person)
    drain(url)
    assert client.http.delete("/users/me", headers={"Authorization": f"Bearer {person.token}"}).status_code == 204
    return _worker_invocation(client, url)


def _hourly_schedule(client, override_settings) -> Callable:
    """Events starting within the hour's reminder window: the reminders are queued."""
    use_queue(override_settings)
    owner = make_person("Olive Owner")
    make_event(owner, make_person("Gus Guest"), when=datetime.now(UTC) + timedelta(hours=2))
    event = client.events.generate_cw_event(source="aws.events", detail_type="Scheduled Event", detail={}, resources=[])
    return lambda: client.lambda_.invoke("remind_upcoming_events", event)


def _text_reply(client, override_settings) -> Callable:
    """A guest invited by text answers by replying to it."""
    owner, number = make_person("Olive Owner"), phone()
    fields = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": [number]}
    assert post_json(client, "/events", fields, owner.token).status_code == 201
    payload = {"originationNumber": number, "destinationNumber": "+18885550123", "messageBody": "YES"}
    return lambda: client.lambda_.invoke("handle_inbound_sms", sns_event(payload))


def _photo_upload(client, override_settings) -> Callable:
    """A going guest's photo arrives in the bucket: it is checked, re-encoded and added to the album."""
    owner, guest = make_person("Olive Owner"), make_person("Gus Guest")
    event = make_event(owner, guest)
    started(event.id)
    going(event.id, guest)
    key = upload(guest, event.id, jpeg())
    return lambda: client.lambda_.invoke("process_photo_upload", s3_event(key))


def _guests_removed_and_told(client, override_settings) -> Callable:
    """A host removes a guest with the app and one without it, asking that both be told: a push and a text."""
    url, owner, app_guest, number, path = _owner_with_two_guests(override_settings, "f8" * 32)
    invited = post_json(client, path, {"invite_phone_numbers": [number]}, owner.token, "PATCH")
    texted = next(row["user_id"] for row in invited.json_body["invitees"] if row["phone_number"] == number)
    drain(url)  # the invitation's own messages: not this job's
    for user_id in (app_guest.id, texted):
        removal = client.http.delete(f"{path}/invitees/{user_id}?notify=true", headers=_bearer(owner))
        assert removal.status_code == 204, removal.body
    return _worker_invocation(client, url)


def _texts_held_back() -> frozenset:
    """The errors that rightly leave a text unsent: each Publish error that fails it for good (the outbox marks it
    ``failed``, as sms_sender classifies them), and a quota's conditional add refused (the owner's hourly quota
    spent: ``not_sent``)."""
    from chalicelib.messaging.sms_sender import _sns_busy

    return QUOTA_SPENT | frozenset(
        ("sns", "Publish", error.code)
        for error in modelled_errors("sns", "Publish")
        if not _sns_busy(client_error("Publish", error.code, ResponseMetadata={"HTTPStatusCode": error.status}))
    )


def _bearer(person) -> dict:
    return {"Authorization": f"Bearer {person.token}"}


def _text_receipts(client, override_settings) -> Callable:
    """SNS's delivery-status logs of two invitation texts arrive: one delivered, one failed."""
    owner, delivered, failed = make_person("Olive Owner"), phone(), phone()
    created = invite_by_text(client, owner, delivered, failed)
    ids = {row["phone_number"]: row["user_id"] for row in created["invitees"]}
    records = [
        sms_receipts.delivery_record(sms_receipts.message_id_of_text("invitation", str(created["id"]), ids[number]),
                                     number, success=number == delivered)
        for number in (delivered, failed)
    ]  # fmt: skip
    events = [sms_receipts.subscription_event(records[:1]), sms_receipts.subscription_event(records[1:], failure=True)]
    return lambda: [client.lambda_.invoke("record_text_receipts", event) for event in events]


def _states() -> Counter:
    """What the hosts see of their texts, read from the emulator: each item kind's ``text_status`` (an invitee
    row's) and ``state`` (a text record's) values, counted."""
    from moto.dynamodb.models import dynamodb_backends

    shown: Counter = Counter()
    for table in dynamodb_backends[ACCOUNT][REGION].tables.values():
        for item in table.all_items():
            attrs = item.to_json()["Attributes"]
            kind = (table.name, attrs["pk"]["S"].split("#", 1)[0], attrs.get("sk", {}).get("S", "").split("#", 1)[0])
            for name in ("text_status", "state"):
                if "S" in attrs.get(name, {}):
                    shown[(*kind, name, attrs[name]["S"])] += 1
    return shown


JOBS = [
    Job("the worker: an event changed", "send_notifications", _changed_event),
    Job("the worker: an account deleted", "send_notifications", _account_deleted),
    Job(
        "the worker: removed guests told",
        "send_notifications",
        _guests_removed_and_told,
        documented=_texts_held_back,
        later=True,
    ),
    Job("delivery receipts", "record_text_receipts", _text_receipts, shows=_states, documented=lambda: STALE_RECEIPT),
    Job("the hourly schedule", "remind_upcoming_events", _hourly_schedule),
    Job("an inbound text", "handle_inbound_sms", _text_reply),
    Job("a photo uploaded", "process_photo_upload", _photo_upload),
]


def _pushes() -> int:
    backend = sns_backends[ACCOUNT][REGION]
    return sum(len(endpoint.messages) for endpoint in backend.platform_endpoints.values())


def _effects(job: Job) -> Counter:
    """tests/utils/effects.py's reading, a kind keyed by a person's id (a deletion's job) named without it, the
    pushes SNS accepted, and what the job ``shows``."""
    effects: Counter = job.shows() if job.shows else Counter()
    for kind, count in stored_effects().items():
        effects[tuple("<id>" if part.isdigit() else part for part in kind)] += count
    effects[("pushes",)] = _pushes()
    if job.later:
        effects.pop(TRIES, None)
    return effects


def _handed(invoke) -> str | None:
    """Run the invocation: None when it succeeded, else what it raised."""
    try:
        result = invoke()
    except Exception as failure:  # noqa: BLE001 - a failed invocation is handed again, as AWS does
        return f"{type(failure).__name__}: {failure}"[:300]
    payload = getattr(result, "payload", None)
    failures = payload.get("batchItemFailures") if isinstance(payload, dict) else None
    return f"items failed: {failures}" if failures else None


def _run(client, override_settings, job: Job, rule=None) -> tuple[str | None, dict]:
    """The job on a fresh world, once under ``rule`` and then handed again without it: the first outcome and
    what it did in the end."""
    _new_world()
    invoke = job.prepare(client, override_settings)
    before = _effects(job)
    outcome = first = None
    if rule is not None:
        with on_the_wire(rule):
            outcome = first = _handed(invoke)
        for _ in range(HANDINGS):
            if outcome is None:
                break
            outcome = _handed(invoke)
    else:
        outcome = _handed(invoke)
    assert outcome is None, f"{job.name} still fails once the fault is gone: {outcome}"
    if job.later:
        invoke.when_due()
    return first, difference(before, _effects(job))


@pytest.fixture
def walk(client, deployed_stage, override_settings):
    """The jobs as steps the request matrix's discovery takes: each prepares its world and runs as its function."""

    @dataclass(frozen=True)
    class Step:
        function: str
        prepare: Callable

    return [Step(job.function, lambda client, job=job: job.prepare(client, override_settings)) for job in JOBS]


def test_every_call_of_the_jobs_is_allowed_by_the_policy_of_their_function(client, walk):
    operations, refused = refused_by_iam(client, walk)
    assert {service for service, _ in operations} >= {"dynamodb", "sqs", "sns", "s3"}
    assert refused == []


def test_every_aws_error_a_job_meets_ends_in_its_work_done_once(
    client, walk, deployed_stage, override_settings
):
    failures, pairs, operations = [], 0, set()
    for job, step in zip(JOBS, walk, strict=True):
        _, plain = _run(client, override_settings, job)
        reached = list(discover(client, [step]))
        operations |= set(reached)
        for service, operation in reached:
            for fault in modelled_errors(service, operation):
                if (service, operation, fault.code) in DOCUMENTED | job.documented():
                    continue
                pairs += 1
                where = f"{job.name} with {service}:{operation} {fault.code}"
                try:
                    first, effect = _run(client, override_settings, job, always(service, operation, fault))
                except AssertionError as never:
                    failures.append(f"{where}: {never}")
                    continue
                if effect != plain:
                    failures.append(f"{where} (first: {first or 'success'}): did {effect}, not {plain}")
    print(f"job fault matrix: {len(operations)} operations, {pairs} (job, operation, error) triples")
    assert failures == [], "\n".join(failures)

