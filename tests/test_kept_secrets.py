"""chalicelib/kept_secrets.py: secrets sealed in a kept answer and opened again by its repeat."""

from __future__ import annotations

import hashlib
import hmac
import json

from chalicelib import kept_secrets
from chalicelib.pinkey import pin_key

SECRET = "Zq3_-xY0aB1cD2eF3gH4iJ5kL6mN7oP8"


def test_a_sealed_answer_holds_no_secret_and_opens_to_the_very_text():
    text = json.dumps({"url": f"https://x.test/c/{SECRET}.ics", "webcal": f"webcal://x.test/c/{SECRET}.ics"})
    sealed = kept_secrets.seal(text, [SECRET], "7:key-1:abcd")
    assert SECRET not in sealed and sealed.count("\x00") == 4
    assert kept_secrets.unseal(sealed, "7:key-1:abcd") == text


def test_a_long_secret_in_another_script_opens_whole():
    secret = "שלום-مرحبا-你好-🎉" * 4  # longer than one keystream block
    sealed = kept_secrets.seal(f'{{"code": "{secret}"}}', [secret], "scope")
    assert secret not in sealed
    assert kept_secrets.unseal(sealed, "scope") == f'{{"code": "{secret}"}}'


def test_another_claim_does_not_open_the_secret():
    sealed = kept_secrets.seal(SECRET, [SECRET], "7:key-1:nonce-a")
    assert kept_secrets.unseal(sealed, "7:key-1:nonce-b") != SECRET


def test_secrets_are_collected_only_inside_a_kept_request():
    assert kept_secrets.issued(SECRET) == SECRET
    with kept_secrets.collecting() as collected:
        kept_secrets.issued(SECRET)
        kept_secrets.issued(SECRET)
    assert collected == [SECRET]
    with kept_secrets.collecting() as later:
        pass
    assert later == []


def test_the_first_keystream_block_is_the_plan_links_one_so_their_sealed_links_still_open():
    label = "plan event link:12:34"
    stream = hmac.new(pin_key(), label.encode(), hashlib.sha256).digest()
    data = bytes(range(24))
    assert kept_secrets.keystream_xor(label, data) == bytes(a ^ b for a, b in zip(data, stream, strict=False))
