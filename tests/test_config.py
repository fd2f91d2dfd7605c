import dataclasses
from dataclasses import FrozenInstanceError

import pytest

from chalicelib.config import Settings, get_settings, setting_types


def test_settings_come_from_upper_case_environment_variables(override_settings):
    override_settings(messages_per_event=7, echo_notifications="true", fb_graph_url="http://127.0.0.1:1")
    settings = get_settings()
    assert settings.messages_per_event == 7
    assert settings.echo_notifications is True
    assert settings.fb_graph_url == "http://127.0.0.1:1"


def test_defaults_match_the_contract():
    defaults = Settings()
    assert defaults.auth_sms_per_number == 5 and defaults.auth_sms_number_window_seconds == 15 * 60
    assert defaults.auth_sms_per_ip_per_hour == 100 and defaults.auth_verify_per_ip_per_hour == 60
    assert defaults.contact_lookup_numbers_per_user_per_day == 2000
    assert defaults.invite_sms_per_owner_per_hour == 50 and defaults.invite_sms_per_stranger_per_day == 3
    assert defaults.invite_sms_max_segments == 2 and defaults.sms_countries == ""
    assert defaults.devices_per_user == 10
    assert defaults.messages_per_event == 200
    assert defaults.avatar_max_bytes == defaults.request_max_bytes == 4 * 1024 * 1024  # docs/api.md, Limits
    assert defaults.pin_ttl_seconds == 900 and defaults.pin_max_attempts == 5


def test_input_limits_default_to_the_contract():
    defaults = Settings()
    assert defaults.multipart_max_parts == 8
    assert defaults.favorite_photo_max_pixels == 12_000_000 and defaults.favorite_photos_per_request == 20
    assert (defaults.earliest_year, defaults.latest_year) == (1970, 2100)
    assert defaults.max_spots == 100_000 and defaults.max_spots_filled == 1_000_000
    assert defaults.time_suggestions_per_event == 50
    assert defaults.public_base_url == ""


def test_settings_are_immutable_and_refuse_a_name_that_is_no_setting():
    settings = Settings(messages_per_event=7)
    with pytest.raises(FrozenInstanceError):
        settings.messages_per_event = 8
    with pytest.raises(FrozenInstanceError):
        del settings.messages_per_event
    with pytest.raises(TypeError, match="messages_per_evnt"):
        Settings(messages_per_evnt=7)
    assert settings.messages_per_event == 7 and Settings.messages_per_event == 200


def test_settings_with_the_same_values_are_equal_whether_given_or_defaulted():
    assert Settings(messages_per_event=200) == Settings() and hash(Settings(messages_per_event=200)) == hash(Settings())
    assert Settings(messages_per_event=7) != Settings() and Settings() != object()
    assert repr(Settings(stage="test")) == "Settings(stage='test')"


def test_every_setting_has_a_type_its_environment_variable_is_read_as(override_settings):
    types = setting_types()
    assert list(types)[:2] == ["stage", "aws_region"] and len(types) > 60
    assert set(types.values()) == {"str", "int", "float", "bool"}
    override_settings(fb_graph_timeout_seconds="2.5", sms_two_way="yes", invitees_per_event="40")
    settings = get_settings()
    assert (settings.fb_graph_timeout_seconds, settings.sms_two_way, settings.invitees_per_event) == (2.5, True, 40)


def test_settings_are_copied_with_changes_and_listed_as_the_dataclass_they_were():
    changed = dataclasses.replace(Settings(stage="test"), messages_per_event=7)
    assert (changed.stage, changed.messages_per_event, changed.invitees_per_event) == ("test", 7, 500)
    assert [field.name for field in dataclasses.fields(Settings)] == list(setting_types())
    assert dataclasses.asdict(changed)["messages_per_event"] == 7 and dataclasses.is_dataclass(changed)
