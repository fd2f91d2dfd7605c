"""Event Invitation API v1: the entry point Chalice and Lambda name (``app.app`` and the event handlers below).
The app is wired in chalicelib/wiring.py; its routes are declared in chalicelib/api/routes.py."""

# ruff: noqa: E402 - the collector is switched off before the imports
import gc

# A cold start creates tens of thousands of long-lived objects (modules, routes, models, botocore's tables) and
# next to no garbage, yet the collector would walk them dozens of times: it stays off while the app loads, and
# what was loaded is then left out of every later collection (https://docs.python.org/3/library/gc.html#gc.freeze).
gc.disable()

from chalicelib.wiring import (  # noqa: F401 - Lambda calls each by its name in this module
    API_BLUEPRINTS,
    app,
    handle_inbound_sms,
    process_photo_upload,
    record_text_receipts,
    remind_upcoming_events,
    send_notifications,
)

gc.freeze()
gc.enable()
