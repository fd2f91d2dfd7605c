"""Event Invitation API v1: the Chalice app. Routes live in chalicelib/api."""

from chalice import Chalice

from chalicelib.api import install

app = Chalice(app_name="invites")
app.api.binary_types.extend(["multipart/form-data", "image/jpeg", "image/png"])
install(app)
