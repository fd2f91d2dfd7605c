"""Phone numbers: must start with '+', validated with `phonenumbers`, kept in E.164."""

from __future__ import annotations

from chalicelib.config import get_settings

INVALID_PHONE = "Enter a valid phone number."
INVALID_MOBILE = "Enter a valid mobile phone number."
MAX_PHONE_LENGTH = 32


def normalize_phone(value: object) -> str | None:
    """The E.164 form of ``value``, or None when it is not a valid international number."""
    if not isinstance(value, str) or not value.strip().startswith("+") or len(value) > MAX_PHONE_LENGTH:
        return None
    import phonenumbers  # ~40 ms of metadata: paid only by routes that take numbers

    try:
        parsed = phonenumbers.parse(value.strip(), None)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(parsed):
        return None
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


def can_receive_texts(e164: str) -> bool:
    """Whether the service texts ``e164`` (a valid E.164 number): a mobile number by `phonenumbers`
    (MOBILE, or FIXED_LINE_OR_MOBILE where a country's plan does not tell them apart), in a country
    SMS_COUNTRIES allows. Premium-rate, shared-cost, toll-free, UAN, voicemail, pager, personal and
    plain fixed-line numbers are not: texting them either fails or costs someone money."""
    import phonenumbers
    from phonenumbers import PhoneNumberType

    parsed = phonenumbers.parse(e164, None)
    if phonenumbers.number_type(parsed) not in (PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE_OR_MOBILE):
        return False
    allowed = {code.strip().upper() for code in get_settings().sms_countries.split(",") if code.strip()}
    return not allowed or phonenumbers.region_code_for_number(parsed) in allowed


def mask_phone(e164: str) -> str:
    """A number fit for logs: country prefix and last two digits only."""
    if len(e164) <= 5:
        return "+***"
    return e164[:3] + "*" * (len(e164) - 5) + e164[-2:]
