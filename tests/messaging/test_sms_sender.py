"""chalicelib.messaging.sms_sender: texts go out through SNS, and are echoed to the console on local runs only."""

from __future__ import annotations

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
