"""Each domain error's status, body and headers on the wire, chosen in api/error_responses.py only."""

from __future__ import annotations

import pytest

from chalicelib.api.error_responses import InternalError, body_of, headers_of, status_of
from chalicelib.errors import (
    BadRequest,
    Conflict,
    InvalidToken,
    MethodNotAllowed,
    NotAcceptable,
    NotAnImage,
    NotAuthenticated,
    NotFound,
    OutOfRange,
    PageOutOfRange,
    PayloadTooLarge,
    PermissionDenied,
    Required,
    ServiceUnavailable,
    TextsPaused,
    Throttled,
    UnsupportedMediaType,
    ValidationError,
)
from chalicelib.pinkey import PinKeyUnavailable


@pytest.mark.parametrize(
    ("error", "status", "body", "headers"),
    [
        (ValidationError({"title": ["This field is required."]}), 400, {"title": ["This field is required."]}, {}),
        (
            OutOfRange("extra_guests", most=2),
            400,
            {"extra_guests": ["Ensure this value is less than or equal to 2."]},
            {},
        ),
        (
            OutOfRange("total_spots", least=3),
            400,
            {"total_spots": ["Ensure this value is greater than or equal to 3."]},
            {},
        ),
        (Required("body"), 400, {"body": ["This field is required."]}, {}),
        (BadRequest("Form parse error."), 400, {"detail": "Form parse error."}, {}),
        (
            NotAuthenticated(),
            401,
            {"detail": "Authentication credentials were not provided."},
            {"WWW-Authenticate": "Bearer"},
        ),
        (InvalidToken(), 401, {"detail": "Invalid token."}, {"WWW-Authenticate": "Bearer"}),
        (PermissionDenied(), 403, {"detail": "You do not have permission to perform this action."}, {}),
        (NotFound(), 404, {"detail": "Not found."}, {}),
        (PageOutOfRange(), 404, {"detail": "Invalid page."}, {}),
        (
            NotAnImage("avatar"),
            400,
            {"avatar": ["Upload a valid image. The file you uploaded was either not an image or a corrupted image."]},
            {},
        ),
        (
            MethodNotAllowed("PUT", ["GET", "POST"]),
            405,
            {"detail": 'Method "PUT" not allowed.'},
            {"Allow": "GET, POST"},
        ),
        (NotAcceptable(), 406, {"detail": 'Invalid version in "Accept" header.'}, {}),
        (Conflict(), 409, {"detail": "Conflict."}, {}),
        (Conflict("This event is full."), 409, {"detail": "This event is full."}, {}),
        (Conflict(answer={"message": "x", "sent": False}), 409, {"message": "x", "sent": False}, {}),
        (PayloadTooLarge("Request body too large."), 413, {"detail": "Request body too large."}, {}),
        (UnsupportedMediaType("text/plain"), 415, {"detail": 'Unsupported media type "text/plain" in request.'}, {}),
        (
            Throttled(0),
            429,
            {"detail": "Request was throttled. Expected available in 1 seconds."},
            {"Retry-After": "1"},
        ),
        (
            ServiceUnavailable(),
            503,
            {"detail": "Service temporarily unavailable, try again later."},
            {"Retry-After": "5"},
        ),
        (
            TextsPaused(0),
            503,
            {"detail": "Texts are paused for now. Try again later."},
            {"Retry-After": "1"},
        ),
        (PinKeyUnavailable(), 503, {"detail": "Login is unavailable, try again later."}, {"Retry-After": "30"}),
        (InternalError(), 500, {"detail": "Internal server error."}, {}),
    ],
)
def test_each_error_is_sent_as_before(error, status, body, headers):
    assert (status_of(error), body_of(error), headers_of(error)) == (status, body, headers)
