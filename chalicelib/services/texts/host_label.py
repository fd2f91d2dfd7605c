"""How a host is named to guests, the same on the guest page and in every text.

A host with a visible name is that name. A host without one (an account made from a number, never named)
is "Your host (number ending 0100)": the last four digits let a guest place the invitation, while the
page, which may be forwarded, never shows a whole phone number. A host whose account is gone is "Your host".
"""

from __future__ import annotations

from chalicelib.messaging.sms_segments import one_line

NO_HOST = "Your host"


def host_label(host) -> str:
    """The name guests read for ``host`` (a user, or None when the account is gone)."""
    if host is None:
        return NO_HOST
    if one_line(host.full_name or ""):
        return host.full_name
    digits = "".join(ch for ch in host.phone_number or "" if ch.isdigit())
    return f"{NO_HOST} (number ending {digits[-4:]})" if len(digits) >= 4 else NO_HOST
