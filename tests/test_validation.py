import pytest

from chalicelib.api.error_responses import body_of
from chalicelib.errors import ValidationError
from chalicelib.validation import Fields


def test_every_error_is_collected_before_raising():
    fields = Fields({"title": "x" * 201, "spots": -1, "when": "soon", "ok": True})
    fields.string("title", required=True, max_length=200)
    fields.integer("spots", min_value=0)
    fields.datetime("when")
    fields.boolean("ok")
    fields.string("missing", required=True)
    with pytest.raises(ValidationError) as caught:
        fields.raise_if_errors()
    assert set(body_of(caught.value)) == {"title", "spots", "when", "missing"}
    assert body_of(caught.value)["spots"] == ["Ensure this value is greater than or equal to 0."]


def test_phone_list_reports_each_bad_entry_by_position():
    fields = Fields({"invite_phone_numbers": ["+14155552671", "nope", 5]})
    assert fields.phone_list("invite_phone_numbers") is None
    assert fields.errors == {
        "invite_phone_numbers": {"1": ["Enter a valid phone number."], "2": ["Not a valid string."]}
    }


@pytest.mark.parametrize("value", [True, "1", 1.5, None])
def test_integer_refuses_what_is_not_an_integer(value):
    fields = Fields({"n": value})
    assert fields.integer("n") is None
    assert fields.errors


def test_number_range_is_inclusive():
    fields = Fields({"lat": 90, "lng": -180.5})
    assert fields.number("lat", min_value=-90, max_value=90) == 90.0
    assert fields.number("lng", min_value=-180, max_value=180) is None


def test_text_refuses_nul_and_lone_surrogates_but_takes_any_character():
    from chalicelib.validation import text_error

    assert text_error("a\x00b") == "Null characters are not allowed."
    assert text_error("\udfff") == "Surrogate characters are not allowed: U+DFFF."
    assert text_error("\U0001f600 e\u0301 \u05d0 \u200f\ufeff") is None  # emoji (a JSON surrogate pair), marks, RTL


def test_text_names_the_first_lone_surrogate_after_any_script_or_emoji():
    from chalicelib.validation import text_error

    assert text_error("\U0001f389 \u05e9\u05dc\u05d5\u05dd \u6f22 \ud83d x \udfff") == (
        "Surrogate characters are not allowed: U+D83D."
    )
    assert text_error("a" * 5000 + "\udfff") == "Surrogate characters are not allowed: U+DFFF."


@pytest.mark.parametrize("email", ["a@b.co", "\u05d0@example.org", "first.last+tag@mail.example.com"])
def test_email_takes_an_address_with_a_dotted_domain(email):
    assert Fields({"email": email}).email("email") == email


@pytest.mark.parametrize("email", ["a@b", "a b@c.de", "a@-b.de", "@b.de"])
def test_email_refuses_an_address_without_a_dotted_domain(email):
    fields = Fields({"email": email})
    assert fields.email("email") is None
    with pytest.raises(ValidationError) as raised:
        fields.raise_if_errors()
    assert body_of(raised.value) == {"email": ["Enter a valid email address."]}
