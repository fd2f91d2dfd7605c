"""chalicelib.messaging.sms_sender: texts go out through SNS, and are echoed to the console on local runs only."""

from __future__ import annotations

from tests.utils.api import texts_to

PHONE = "+14155550161"


# The test client sets STAGE=local around each request (.chalice/config.json), so this calls the service
# directly, as a deployed stage would run it.


def test_sms_echo_is_for_local_runs_only(aws, override_settings, capsys):
    # ECHO_NOTIFICATIONS set on a deployed stage printed every pin and whole number to its logs
    from chalicelib.messaging import sms_sender as notify

    override_settings(echo_notifications="true", stage="dev")
    notify.send_sms(PHONE, "Your Invites pin is 123456.")
    assert "123456" not in capsys.readouterr().out
    override_settings(stage="local")
    notify.send_sms(PHONE, "Your Invites pin is 654321.")
    assert "654321" in capsys.readouterr().out
    assert len(texts_to(PHONE)) == 2
