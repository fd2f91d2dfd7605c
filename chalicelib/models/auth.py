"""The auth table: short-lived login state, all of it expiring through DynamoDB TTL.

| item         | pk                                  |
|--------------|-------------------------------------|
| Pin          | PIN#<e164>                          |
| RateCounter  | RATE#<scope>#<subject>#<window>     |
| RateLog      | RATELOG#<scope>#<subject>           |
| SentNotification | SENT#<type>#<occurrence>#<user id>#<device> (a push; ``sms``: a text) |
| SentTextId   | SMSID#<SNS MessageId of a text>     |
| StoppedNumber | STOP#<HMAC of the e164 number>       |
| HeldChangeTexts | HELD#<event id>                     |
| ToldGuest    | TOLD#<event id>#<user id>           |
| GoneEvent    | GONE#<event id>                     |
| IdempotentRequest | IDEM#<user id>#<Idempotency-Key>   |
| AskingText   | ASK#<e164>                          |

Every item but StoppedNumber expires through TTL: a number stays stopped until its owner texts START.
"""

from __future__ import annotations

from pynamodb.attributes import (
    BinaryAttribute,
    BooleanAttribute,
    DiscriminatorAttribute,
    ListAttribute,
    NumberAttribute,
    TTLAttribute,
    UnicodeAttribute,
    UnicodeSetAttribute,
    UTCDateTimeAttribute,
)

from chalicelib.models.base import TableModel, table_meta


def pin_pk(e164: str) -> str:
    return f"PIN#{e164}"


def sent_pk(push_type: str, occurrence: str, user_id: int, device: str) -> str:
    return f"SENT#{push_type}#{occurrence}#{user_id}#{device}"


def sent_text_id_pk(message_id: str) -> str:
    return f"SMSID#{message_id}"


def stop_pk(number_hash: str) -> str:
    return f"STOP#{number_hash}"


def held_pk(event_id: int) -> str:
    return f"HELD#{event_id}"


def told_pk(event_id: int, user_id: int) -> str:
    return f"TOLD#{event_id}#{user_id}"


def gone_pk(event_id: int) -> str:
    return f"GONE#{event_id}"


def idempotency_pk(user_id: int, key: str) -> str:
    return f"IDEM#{user_id}#{key}"


def rate_pk(scope: str, subject: str, window: int) -> str:
    return f"RATE#{scope}#{subject}#{window}"


def rate_log_pk(scope: str, subject: str) -> str:
    return f"RATELOG#{scope}#{subject}"


def ask_pk(e164: str) -> str:
    return f"ASK#{e164}"


class AuthTable(TableModel):
    Meta = table_meta("auth_table")

    pk = UnicodeAttribute(hash_key=True)
    kind = DiscriminatorAttribute()


class Pin(AuthTable, discriminator="pin"):
    """A pin, kept only as an HMAC. ``nonce`` tells one issued pin from the next; ``last_try`` is drawn by each
    try that counted, so a try sent again after its answer was lost counts once."""

    pin_hmac = UnicodeAttribute()
    nonce = UnicodeAttribute()
    attempts = NumberAttribute(default=0)
    last_try = UnicodeAttribute(null=True)
    expires_at = TTLAttribute()


class RateCounter(AuthTable, discriminator="rate"):
    """Requests counted in one fixed window; the item expires with its window."""

    count = NumberAttribute(default=0)
    expires_at = TTLAttribute()


class RateLog(AuthTable, discriminator="rate_log"):
    """The charges of one rolling limit (store/rate_logs.py): ``total``, every unit ever charged (an
    atomic ADD, which each charge's condition bounds), and the charges themselves as
    ``"<when>:<units>:<nonce>"`` strings in two sets, so that one write can add a charge to one set and
    drop old ones from the other. ``times``, ``amounts`` and ``version`` are the log as earlier
    releases rewrote it: read until it leaves the period, then removed. The item expires a period after
    its last charge."""

    total = NumberAttribute(null=True)
    lane_a = UnicodeSetAttribute(null=True)
    lane_b = UnicodeSetAttribute(null=True)
    times = ListAttribute(of=NumberAttribute, null=True)
    amounts = ListAttribute(of=NumberAttribute, null=True)
    version = NumberAttribute(null=True)
    expires_at = TTLAttribute()


CLAIM_DAYS = 14  # a delivery claim's least life, at least the queue's retention: a redelivery always finds it


class SentNotification(AuthTable, discriminator="sent"):
    """One push to one device, claimed before it is sent, so a redelivered queue message never sends
    it twice. ``state`` is "sending" while a worker holds the claim (``nonce``, since ``claimed_at``),
    "sent" once SNS took it; a claim left "sending" longer than the lease may be taken over."""

    state = UnicodeAttribute()
    nonce = UnicodeAttribute()
    claimed_at = NumberAttribute()
    expires_at = TTLAttribute()
    # A text's record in the outbox (services/texts/text_outbox.py) also keeps SNS's MessageId once SNS took it, and,
    # while it waits for another try ("queued"), what it needs to be tried again and what to give back.
    message_id = UnicodeAttribute(null=True)
    answer_lost = BooleanAttribute(null=True)  # SNS's answer never came: "sent" without a MessageId
    attempts = NumberAttribute(null=True)
    first_tried_at = NumberAttribute(null=True)
    phone_number = UnicodeAttribute(null=True)
    body = UnicodeAttribute(null=True)
    quota_keys = UnicodeSetAttribute(null=True)  # rate counters charged for it, each given back one if not sent
    event_id = NumberAttribute(null=True)  # the event it is about (a retry sends nothing once it is cancelled)
    receipt_at = NumberAttribute(null=True)  # when the carrier's receipt said "delivered" or "failed" (UNIX ms)


class SentTextId(AuthTable, discriminator="sms_id"):
    """The outbox record (``record_key``, a SentNotification's pk) of a text SNS took, found by SNS's MessageId:
    SNS's delivery-status logs name a text by it (services/texts/delivery_receipts.py). Expires with the record."""

    record_key = UnicodeAttribute()
    expires_at = TTLAttribute()


class StoppedNumber(AuthTable, discriminator="stop"):
    """A number that asked for no more invitation texts, kept only as a keyed hash (services/texts/stop_list.py).
    ``source`` says how it asked: "page" (the guest page's button) or "text" (a STOP reply)."""

    source = UnicodeAttribute()
    stopped_at = NumberAttribute()


class AskingText(AuthTable, discriminator="ask"):
    """The latest text that asked a number for an answer (an invitation, a nudge): the invitation a reply
    to that number answers (services/web/text_answers.py). ``text_kind`` is the outbox's kind of that text,
    ``asked_at`` when SNS took it (UNIX seconds); the item goes 30 days after it."""

    event_id = NumberAttribute()
    user_id = NumberAttribute()
    text_kind = UnicodeAttribute()
    asked_at = NumberAttribute()
    expires_at = TTLAttribute()


class HeldChangeTexts(AuthTable, discriminator="held"):
    """A burst of edits whose change texts are not sent yet: since ``first_edit_at`` (UNIX seconds), and
    what the event said before that first edit (``before``), for guests told nothing since their invitation."""

    first_edit_at = NumberAttribute()
    before = UnicodeAttribute()
    expires_at = TTLAttribute()


class ToldGuest(AuthTable, discriminator="told"):
    """What a guest without the app was last texted about an event (``told``: its date and place), and how
    many change texts they got on ``day`` (the event's local date)."""

    told = UnicodeAttribute()
    day = UnicodeAttribute()
    count = NumberAttribute(default=0)
    expires_at = TTLAttribute()


class GoneEvent(AuthTable, discriminator="gone"):
    """An event deleted with its owner's account, kept until 7 days after its date so its guests' links say
    it was cancelled: its title and date and the hashes of the links that open it (no number, no name)."""

    title = UnicodeAttribute()
    event_date = UTCDateTimeAttribute()
    link_hashes = ListAttribute(of=UnicodeAttribute)
    expires_at = TTLAttribute()


class IdempotentRequest(AuthTable, discriminator="idempotency"):
    """One user's request under an ``Idempotency-Key``, claimed before its work starts. ``fingerprint``
    is a hash of the method, path and body; ``state`` is "running" while a request holds the claim
    (``nonce``, since ``claimed_at``) and "done" once ``status``, ``headers`` (JSON) and ``body`` (the
    answer's text) are kept, to be answered again to a repeat until ``expires_at``."""

    fingerprint = UnicodeAttribute()
    state = UnicodeAttribute()
    nonce = UnicodeAttribute()
    claimed_at = NumberAttribute()
    status = NumberAttribute(null=True)
    headers = UnicodeAttribute(null=True)
    body = UnicodeAttribute(null=True)  # answers kept before they were compressed
    packed_body = BinaryAttribute(null=True, legacy_encoding=False)  # the answer's text, zlib-compressed
    body_parts = NumberAttribute(null=True)  # the compressed answer is in this many IdempotentAnswerPart items
    expires_at = TTLAttribute()


def idempotent_answer_part_pk(user_id: int, key: str, part: int) -> str:
    return f"IDEMPART#{user_id}#{part}#{key}"


class IdempotentAnswerPart(AuthTable, discriminator="idempotency-part"):
    """One slice of a compressed idempotent answer too big for its record's item (DynamoDB's 400 KB)."""

    data = BinaryAttribute(legacy_encoding=False)
    expires_at = TTLAttribute()
