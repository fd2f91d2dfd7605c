"""SNS faults on the service's text Publish calls, through botocore's own event hooks (moto cannot make them).

``throttle(...)`` answers the next Publish calls with SNS's error responses (before the request is sent: SNS took
nothing); ``lose_answers(n)`` lets the next n reach the emulator (the text is out) and then raises botocore's
ReadTimeoutError where a lost answer raises it, inside the SDK's retry loop."""

from __future__ import annotations

from botocore.exceptions import ReadTimeoutError

# SNS Publish errors as botocore's sns model lists them, with the throttle SNS documents.
THROTTLED = ("Throttled", 429)  # ThrottledException
INTERNAL_ERROR = ("InternalError", 500)  # InternalErrorException
KMS_THROTTLING = ("KMSThrottling", 400)  # KMSThrottlingException
INVALID_PARAMETER = ("InvalidParameter", 400)  # refused for good


class _Status:
    def __init__(self, status: int):
        self.status_code = status
        self.headers = {}


class PublishFaults:
    """Faults for the texts' Publish calls (those with a PhoneNumber); ``tries`` counts the calls that reached
    the hooks since the last ``throttle`` or ``lose_answers``."""

    def __init__(self):
        self.pending: list[tuple[str, int]] = []
        self.answers_to_lose = 0
        self.tries = 0

    def throttle(self, *faults: tuple[str, int]) -> None:
        """The next Publish calls answer ``faults``, in order; ``tries`` counts from here."""
        self.pending.extend(faults)
        self.tries = 0

    def lose_answers(self, count: int = 1) -> None:
        """The next ``count`` Publish calls reach SNS, and their answers are lost; ``tries`` counts from here."""
        self.answers_to_lose += count
        self.tries = 0

    def before_call(self, params, **_kwargs):
        sent = params.get("body")  # the request as serialised: the query protocol's parameters
        if not isinstance(sent, dict) or "PhoneNumber" not in sent:
            return None
        self.tries += 1
        if not self.pending:
            return None
        code, status = self.pending.pop(0)
        error = {"Error": {"Code": code, "Message": "injected", "Type": "Sender"}}
        return _Status(status), {**error, "ResponseMetadata": {"HTTPStatusCode": status}}

    def after_send(self, request, **_kwargs):
        body = request.body.decode() if isinstance(request.body, bytes) else str(request.body or "")
        if self.answers_to_lose and "Action=Publish" in body and "PhoneNumber=" in body:
            self.answers_to_lose -= 1
            raise ReadTimeoutError(endpoint_url=request.url)


def install(client=None) -> tuple[PublishFaults, callable]:
    """Hook a PublishFaults into every client the service makes from now on (the session's handlers, which each
    client copies when it is made), or into ``client`` alone; returns it and its undo."""
    from chalicelib import aws

    faults = PublishFaults()
    events = client.meta.events if client is not None else aws.session()
    events.register("before-call.sns.Publish", faults.before_call)
    # after moto's own handler of every before-send, which answers (and keeps the text): the answer is then
    # lost. botocore calls a more specific event's handlers first, so this one listens to every before-send too.
    events.register("before-send", faults.after_send)
    if client is None:
        aws.reset_clients()

    def undo() -> None:
        events.unregister("before-call.sns.Publish", faults.before_call)
        events.unregister("before-send", faults.after_send)
        if client is None:
            aws.reset_clients()

    return faults, undo
