from chalicelib.config import Settings, get_settings


def test_settings_come_from_upper_case_environment_variables(override_settings):
    override_settings(messages_per_event=7, echo_notifications="true", fb_graph_url="http://127.0.0.1:1")
    settings = get_settings()
    assert settings.messages_per_event == 7
    assert settings.echo_notifications is True
    assert settings.fb_graph_url == "http://127.0.0.1:1"


def test_defaults_match_the_contract():
    defaults = Settings()
    assert defaults.auth_sms_per_number_per_hour == 5
    assert defaults.auth_sms_per_ip_per_hour == 100
    assert defaults.messages_per_event == 200
    assert defaults.avatar_max_bytes == defaults.request_max_bytes == 4 * 1024 * 1024  # CONTRACT.md, Body size
    assert defaults.pin_ttl_seconds == 600 and defaults.pin_max_attempts == 5
