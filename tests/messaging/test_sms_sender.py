"""chalicelib.messaging.sms_sender: texts go out through SNS, and are echoed to the console on local runs only."""

from __future__ import annotations

import pytest

from tests.utils.api import texts_to

PHONE = "+14155550161"
JSON = {"Content-Type": "application/json"}


# The test client sets STAGE=local around each request (.chalice/config.json), so this calls the service
# directly, as a deployed stage would run it.


def test_sms_echo_is_for_local_runs_only(aws, override_settings, capsys):
    # ECHO_NOTIFICATIONS set on a deployed stage printed every pin and whole number to its logs
    from chalicelib.messaging import sms_sender as notify

    override_settings(echo_notifications="true", stage="dev")
    notify.send_sms(PHONE, "Your Invites pin is 123456.", priority=notify.Priority.ASKED)
    assert "123456" not in capsys.readouterr().out
    override_settings(stage="local")
    notify.send_sms(PHONE, "Your Invites pin is 654321.", priority=notify.Priority.ASKED)
    assert "654321" in capsys.readouterr().out
    assert len(texts_to(PHONE)) == 2


def _published(monkeypatch) -> list[dict]:
    """The parameters of every SNS Publish made from here on (moto keeps no message attributes)."""
    from botocore.client import BaseClient

    calls: list[dict] = []
    original = BaseClient._make_api_call

    def recording(self, operation_name, api_params):
        if operation_name == "Publish":
            calls.append(api_params)
        return original(self, operation_name, api_params)

    monkeypatch.setattr(BaseClient, "_make_api_call", recording)
    return calls


def _origination(params: dict) -> str | None:
    attribute = params["MessageAttributes"].get("AWS.MM.SMS.OriginationNumber")
    return attribute["StringValue"] if attribute else None


def test_pins_and_invitations_go_out_from_their_own_origination_identity(client, override_settings, monkeypatch):
    from tests.utils.factories import make_person, phone
    from tests.utils.web import invite_by_text

    override_settings(sms_origination_pins="+18885550100", sms_origination_invites="+18885550111")
    published = _published(monkeypatch)
    pin_number, invited = phone(), phone()
    assert client.http.post("/auth", body=f'{{"phone_number": "{pin_number}"}}', headers=JSON).status_code == 204
    invite_by_text(client, make_person("Olive Owner"), invited)
    by_number = {params["PhoneNumber"]: _origination(params) for params in published}
    assert by_number == {pin_number: "+18885550100", invited: "+18885550111"}


def test_without_origination_settings_the_account_default_is_used(client, monkeypatch):
    published = _published(monkeypatch)
    assert client.http.post("/auth", body=f'{{"phone_number": "{PHONE}"}}', headers=JSON).status_code == 204
    (params,) = published
    assert _origination(params) is None
    assert params["MessageAttributes"]["AWS.SNS.SMS.SMSType"]["StringValue"] == "Transactional"


def test_each_text_carries_the_maximum_price(client, override_settings, monkeypatch):
    from tests.utils.factories import make_person, phone
    from tests.utils.web import invite_by_text

    override_settings(sms_max_price_usd="0.05")
    published = _published(monkeypatch)
    assert client.http.post("/auth", body=f'{{"phone_number": "{PHONE}"}}', headers=JSON).status_code == 204
    invite_by_text(client, make_person("Olive Owner"), phone())
    assert len(published) == 2
    for params in published:
        assert params["MessageAttributes"]["AWS.SNS.SMS.MaxPrice"] == {"DataType": "Number", "StringValue": "0.05"}


def _budget_count() -> int:
    from datetime import UTC, datetime

    from chalicelib.messaging import sms_sender
    from chalicelib.store import counters

    return counters.count_of(sms_sender.budget_key(datetime.now(UTC)))


def test_parallel_pins_never_pass_the_budget(aws, override_settings):
    from chalicelib.errors import TextsPaused
    from chalicelib.messaging import sms_sender
    from tests.utils.races import race

    override_settings(sms_monthly_segments=20)
    numbers = [f"+1415555{n:04d}" for n in range(30)]
    outcomes = race(
        lambda n: sms_sender.send_sms(numbers[n], "Your Invites pin is 123456.", priority=sms_sender.Priority.ASKED),
        30,
        refused=TextsPaused,
    )
    assert outcomes.count("ok") == 20 and outcomes.count("refused") == 10
    assert sum(len(texts_to(number)) for number in numbers) == 20
    assert _budget_count() == 20


def test_parallel_invitations_stop_at_80_percent_and_leave_the_rest_to_pins(aws, override_settings):
    from chalicelib.errors import TextsPaused
    from chalicelib.messaging import sms_sender
    from tests.utils.races import race

    override_settings(sms_monthly_segments=50)
    numbers = [f"+1415556{n:04d}" for n in range(60)]
    invitation = "Invites: Olive invited you to a picnic. Reply STOP to opt out."
    batches = [[(number, invitation) for number in numbers[start : start + 3]] for start in range(0, 60, 3)]
    held = race(
        lambda n: sms_sender.send_each(batches[n], priority=sms_sender.Priority.UNASKED),
        20,
        refused=(),
    )
    assert held == ["ok"] * 20
    texted = [number for number in numbers if texts_to(number)]
    assert len(texted) == 40 and _budget_count() == 40  # 80% of 50
    pins = [f"+1415557{n:04d}" for n in range(15)]
    outcomes = race(
        lambda n: sms_sender.send_sms(pins[n], "Your Invites pin is 123456.", priority=sms_sender.Priority.ASKED),
        15,
        refused=TextsPaused,
    )
    assert outcomes.count("ok") == 10 and _budget_count() == 50


def test_a_long_text_counts_its_segments(aws, override_settings):
    from chalicelib.errors import TextsPaused
    from chalicelib.messaging import sms_sender

    override_settings(sms_monthly_segments=3)
    two_segments = "x" * 200
    sms_sender.send_sms(PHONE, two_segments, priority=sms_sender.Priority.ASKED)
    assert _budget_count() == 2
    with pytest.raises(TextsPaused):
        sms_sender.send_sms(PHONE, two_segments, priority=sms_sender.Priority.ASKED)
    sms_sender.send_sms(PHONE, "short", priority=sms_sender.Priority.ASKED)
    assert _budget_count() == 3 and len(texts_to(PHONE)) == 2


def test_without_a_budget_nothing_is_counted(aws):
    from chalicelib.messaging import sms_sender

    aws.reset()
    sms_sender.send_sms(PHONE, "Your Invites pin is 123456.", priority=sms_sender.Priority.ASKED)
    assert aws.of("dynamodb") == {} and len(texts_to(PHONE)) == 1


def test_a_paused_pin_is_retried_when_the_month_turns_or_within_an_hour():
    from datetime import UTC, datetime

    from chalicelib.messaging import sms_sender

    assert sms_sender.pause_seconds(datetime(2026, 12, 31, 23, 59, 30, tzinfo=UTC)) == 31
    assert sms_sender.pause_seconds(datetime(2026, 11, 15, 12, 0, tzinfo=UTC)) == 3600
    november, december = datetime(2026, 11, 30, 23, 59, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC)
    january = datetime(2027, 1, 1, tzinfo=UTC)
    keys = {sms_sender.budget_key(when) for when in (november, december, january)}
    assert len(keys) == 3  # each month its own counter
