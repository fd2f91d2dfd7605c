"""Event Invitation API v1: the Chalice app. Routes live in chalicelib/api, one blueprint per module."""

# ruff: noqa: E402 - the collector is switched off before the imports
import gc

# A cold start creates tens of thousands of long-lived objects (modules, routes, models, botocore's tables) and
# next to no garbage, yet the collector would walk them dozens of times: it stays off while the app loads, and
# what was loaded is then left out of every later collection (https://docs.python.org/3/library/gc.html#gc.freeze).
gc.disable()

import logging
import os
import sys

from chalice import Chalice, Rate

from chalicelib import inline_queue, jobs, snapstart
from chalicelib.api import (
    account_export,
    account_web,
    announcements,
    auth,
    contacts,
    conversation,
    devices,
    docs,
    events,
    guest_album,
    guest_page,
    join_links,
    join_page,
    the_day,
    users,
)
from chalicelib.config import get_settings

# botocore logs every credential lookup at INFO, which `chalice local` shows; keep the console readable.
logging.getLogger("botocore").setLevel(logging.WARNING)


def _plain_chalice_deploy() -> bool:
    """`chalice deploy` or `chalice package` run directly, not through scripts/chalice_cli.py. It would take
    the runtime from this interpreter, build wheels from source and miss the stack's settings."""
    if "chalice.cli" not in sys.modules or os.environ.get("INVITES_CHALICE_CLI") == "1":
        return False
    return os.path.basename(sys.argv[0]) == "chalice" and bool({"deploy", "package"} & set(sys.argv[1:]))


if _plain_chalice_deploy():
    raise SystemExit("deploy with `make deploy STAGE=...` (scripts/chalice_cli.py), not plain chalice")

app = Chalice(app_name="invites")
app.api.binary_types.extend(["multipart/form-data", "image/jpeg", "image/png"])

# Every route of the API, one blueprint per module. Registering one gives each of its paths every method:
# GET brings HEAD, PATCH brings POST, the others answer 405 (chalicelib/api/blueprint.py).
API_BLUEPRINTS = (
    auth.blueprint,
    users.blueprint,
    contacts.blueprint,
    events.blueprint,
    conversation.blueprint,
    announcements.blueprint,
    join_links.blueprint,
    devices.blueprint,
    guest_page.blueprint,
    guest_album.blueprint,
    join_page.blueprint,
    the_day.blueprint,
    account_export.blueprint,
    account_web.blueprint,
    docs.blueprint,
)
for blueprint in API_BLUEPRINTS:
    app.register_blueprint(blueprint)


inline_queue.register(jobs.handle_here)  # without a queue URL a message is handled where it was sent

# One message per invocation: a heavy one (an account deletion) has the whole 15 s, and a failure or a timeout
# sends back only that message (Chalice cannot ask SQS for partial batch responses).
NOTIFICATION_BATCH_SIZE = 1


@app.on_sqs_message(queue=get_settings().notifications_queue_name, batch_size=NOTIFICATION_BATCH_SIZE)
def send_notifications(event):
    """Notification fan-out off the request path: one queue message per trigger."""
    from chalicelib.jobs.queue_handler import handle_queue_batch  # not on the API's cold start

    handle_queue_batch((record.body, record.receipt_handle) for record in event)


@app.schedule(Rate(1, unit=Rate.HOURS))
def remind_upcoming_events(event):
    """Hourly: queue a reminder for each live event starting within the reminder window, and queue again
    any account deletion whose message was lost."""
    # The scheduled job's modules stay off the API's cold start.
    from chalicelib.services.account_deletion import requeue_stuck_jobs
    from chalicelib.services.reminders import enqueue_reminders

    enqueue_reminders()
    requeue_stuck_jobs()


@app.on_sns_message(topic=get_settings().inbound_sms_topic_name)
def handle_inbound_sms(event):
    """Texts people send to the service's numbers (two-way SMS): STOP, START, HELP. Returns what was done."""
    from chalicelib.services.inbound_sms import handle  # the SMS handler's modules stay off the API's cold start

    return handle(event.message)


@app.lambda_function(name="process_photo_upload")
def process_photo_upload(event, context):
    """An album upload landed (S3's ObjectCreated events on ``photo-uploads/``, set by both deploy paths):
    process each object once. A fault raises, so Lambda tries again, then sends it to the failure queue."""
    from chalicelib.services.photo_uploads import handle_s3_event  # Pillow: only in this function

    return [handle_s3_event(record["s3"]["object"]["key"]) for record in event.get("Records", [])]


# With SnapStart on (a stage switch), the runtime calls these around its snapshot; elsewhere nothing happens.
snapstart.register()

gc.freeze()
gc.enable()
