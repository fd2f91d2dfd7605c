"""A device registered again gets its pushes again: SNS disables an endpoint when APNs refuses its token, and a
registration of that token (the app saying it is live) enables it, with the token, whichever way SNS hands it
back (moto, like SNS for a disabled endpoint, refuses CreatePlatformEndpoint naming the existing endpoint)."""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.models.users import Device, user_pk
from tests.utils.api import post_json
from tests.utils.aws_env import aws_client
from tests.utils.factories import make_event, make_person
from tests.utils.notifications import endpoints, pushes, run_queue, use_queue

TOKEN = "d5" * 32


def _register(client, person) -> int:
    return post_json(client, "/notifications/add_ios_device", {"token": TOKEN}, person.token).status_code


def _stored_endpoint(person) -> str:
    [device] = Device.query(user_pk(person.id), Device.sk.startswith("DEVICE#"), consistent_read=True)
    return device.endpoint_arn


def _disable(arn: str) -> None:
    aws_client("sns").set_endpoint_attributes(EndpointArn=arn, Attributes={"Enabled": "false"})


def _attributes(arn: str) -> dict:
    return aws_client("sns").get_endpoint_attributes(EndpointArn=arn)["Attributes"]


def _invite_and_deliver(client, url: str, host, guest) -> None:
    make_event(host, guest)
    run_queue(client, url)


def test_registering_again_enables_a_disabled_endpoint_and_the_next_push_arrives(client, override_settings):
    url = use_queue(override_settings)
    host, guest = make_person("Hana"), make_person("Gil")
    assert _register(client, guest) == 204
    arn = _stored_endpoint(guest)
    _disable(arn)  # APNs refused the token once: SNS disabled the endpoint
    # WHEN the app registers the token again
    assert _register(client, guest) == 204
    # THEN the same endpoint takes pushes again, and the next one arrives
    assert _stored_endpoint(guest) == arn and _attributes(arn) == {"Token": TOKEN, "Enabled": "true"}
    _invite_and_deliver(client, url, host, guest)
    assert len(pushes(arn)) == 1
    assert _stored_endpoint(guest) == arn  # kept, not forgotten as a dead one


def test_a_disabled_endpoint_sns_still_has_for_the_token_is_enabled_for_its_new_owner(client, override_settings):
    url = use_queue(override_settings)
    host, guest = make_person("Hana"), make_person("Gil")
    # an endpoint left over for the token (its device forgotten while SNS kept it), disabled
    arn = aws_client("sns").create_platform_endpoint(
        PlatformApplicationArn=get_settings().apns_platform_application_arn, Token=TOKEN
    )["EndpointArn"]
    _disable(arn)
    assert _register(client, guest) == 204
    assert _stored_endpoint(guest) == arn and _attributes(arn)["Enabled"] == "true"
    assert list(endpoints()) == [arn]  # no second endpoint for one phone
    _invite_and_deliver(client, url, host, guest)
    assert len(pushes(arn)) == 1


def test_an_endpoint_deleted_in_sns_is_made_anew_when_the_device_registers_again(client, override_settings):
    url = use_queue(override_settings)
    host, guest = make_person("Hana"), make_person("Gil")
    assert _register(client, guest) == 204
    gone = _stored_endpoint(guest)
    aws_client("sns").delete_endpoint(EndpointArn=gone)
    assert _register(client, guest) == 204
    fresh = _stored_endpoint(guest)
    assert fresh != gone and list(endpoints()) == [fresh]
    _invite_and_deliver(client, url, host, guest)
    assert len(pushes(fresh)) == 1


def test_a_registration_of_a_live_endpoint_only_reads_it(client):
    from chalicelib import aws

    guest = make_person("Gil")
    assert _register(client, guest) == 204
    calls = []
    aws.sns().meta.events.register("before-call.sns.*", lambda model, **_: calls.append(model.name))
    assert _register(client, guest) == 204
    assert calls == ["GetEndpointAttributes"]


def test_a_throttled_endpoint_read_is_503_and_the_device_stays_as_it_was(client, fail_aws):
    guest = make_person("Gil")
    assert _register(client, guest) == 204
    arn = _stored_endpoint(guest)
    _disable(arn)
    fail_aws("sns", "GetEndpointAttributes", "Throttling")
    response = post_json(client, "/notifications/add_ios_device", {"token": TOKEN}, guest.token)
    assert response.status_code == 503 and "Retry-After" in response.headers
    fail_aws("sns", "GetEndpointAttributes", "")  # SNS is back
    assert _stored_endpoint(guest) == arn and _attributes(arn)["Enabled"] == "false"
