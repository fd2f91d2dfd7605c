"""Delivering pushes once: each push to every device of its user, behind a delivery claim.

Before each publish, a claim ``SENT#<push type>#<occurrence>#<user>#<device>`` is taken (store/claims.py).
Publish OK: the claim becomes "sent". A transient failure: the claim is given back and the message
fails, so SQS delivers it again and only the pushes without a claim are retried. A worker that dies
between claim and publish leaves a "sending" claim that the next delivery takes over once the lease
(``NOTIFICATION_LEASE_SECONDS``) is over. So a redelivered message sends nothing twice, and a failed
push is retried, then parked in the queue's dead-letter queue.
"""

from __future__ import annotations

import logging

from chalicelib import aws
from chalicelib.aws_errors import endpoint_gone, error_code, error_code_or_type, is_transient
from chalicelib.config import get_settings
from chalicelib.languages.catalogues import words
from chalicelib.messaging import push_sender
from chalicelib.messaging.notifications.messages import Outcome, Push
from chalicelib.parallel import parallel_map
from chalicelib.store import claims
from chalicelib.store import devices as device_store
from chalicelib.store.devices import device_token

log = logging.getLogger("invites")


def deliver(pairs: list[tuple[object, Push]], flag: str) -> Outcome:
    """Each push to every device of its user, for active users whose ``flag`` is on, once."""
    wanted = [(user, push) for user, push in pairs if user.is_active and getattr(user, flag)]
    total = Outcome()
    for outcome in parallel_map(lambda pair: _deliver_to_user(*pair), wanted):
        total += outcome
    return total


def _deliver_to_user(user, push: Push) -> Outcome:
    outcome = Outcome()
    lease = get_settings().notification_lease_seconds
    for device in device_store.user_devices(user.id):
        key = claims.claim_key(push.push_type, push.occurrence, user.id, device_token(device))
        claim = claims.claim_delivery(key, push.expires_at, lease)
        if claim is None:
            outcome.duplicates += 1
            continue
        try:
            push_sender.send_push(device.endpoint_arn, user.id, push.title, *in_language(push, device.language))
        except Exception as exc:  # noqa: BLE001 - sorted out below
            if endpoint_gone(exc):
                try:
                    forget_endpoint(device)
                except Exception:  # noqa: BLE001 - retried with the message
                    log.warning("could not forget a disabled endpoint of user %s", user.id)
                    claims.release_claim(claim)
                    outcome.failed += 1
                    continue
                log.info("removed a disabled push endpoint of user %s", user.id)
                outcome.removed_endpoints += 1
                continue  # the claim stays: there is nothing left to send to
            log.warning("push %s to user %s failed: %s", push.push_type, user.id, error_code_or_type(exc))
            claims.release_claim(claim)
            outcome.failed += 1
            continue
        claims.mark_claim_sent(claim)
        outcome.sent += 1
    return outcome


def in_language(push: Push, language: str | None) -> tuple[str, dict, dict | None]:
    """(body, data, loc) of ``push`` for a device that registered ``language``: the body in its words, the
    language in the data and the sentence's ``loc-key``/``loc-args`` for iOS. A device that registered none
    (an app from before languages) gets the English body and data it always got, and no loc-key its app
    might not know."""
    if not language:
        return push.body, push.data(), None
    said = words(language)
    data = {**push.data(), "language": said.language}
    if push.words is None:  # a push whose body is not a sentence of the catalogues
        return push.body, data, None
    values = push.words.values_in(said.language)
    body = said._(push.words.message, **values)
    return body, data, push_sender.localized(push.words.key, push.words.args_in(said.language))


def forget_endpoint(device) -> None:
    """Delete an endpoint SNS reported disabled or gone, and the Device item that names it.

    The item is deleted only while it still names that endpoint, so a registration made meanwhile
    stands. Raises transient AWS faults (the caller retries); a missing endpoint is fine."""
    from botocore.exceptions import ClientError

    try:
        aws.sns().delete_endpoint(EndpointArn=device.endpoint_arn)
    except ClientError as exc:
        if is_transient(exc):
            raise
        log.warning("could not delete endpoint of a device: %s", error_code(exc))
    device_store.delete_device_if_endpoint(device)
