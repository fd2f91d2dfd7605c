"""Event Invitation API v1: the Chalice app. Routes live in chalicelib/api."""

import logging

from chalice import Chalice

from chalicelib.api import install

# botocore logs every credential lookup at INFO, which `chalice local` shows; keep the console readable.
logging.getLogger("botocore").setLevel(logging.WARNING)

app = Chalice(app_name="invites")
app.api.binary_types.extend(["multipart/form-data", "image/jpeg", "image/png"])
install(app)
