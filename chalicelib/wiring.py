"""The Chalice app wired: every route from the route table, the queue worker, the hourly schedule, the inbound
texts, the texts' delivery receipts and SnapStart's hooks. It only wires: each handler is named
(chalicelib/loading.py) and lives in chalicelib/api or chalicelib/jobs. app.py, the entry point Chalice and
Lambda name, re-exports what is here."""

from __future__ import annotations

import logging
import os
import sys

from chalice import Chalice, Rate

from chalicelib import inline_queue, jobs, snapstart
from chalicelib.api.routes import API_BLUEPRINTS
from chalicelib.config import get_settings
from chalicelib.loading import load_handler

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

# Every route of the API. Registering a blueprint gives each of its paths every method: GET brings HEAD, PATCH
# brings POST, the others answer 405 (chalicelib/api/blueprint.py).
for blueprint in API_BLUEPRINTS:
    app.register_blueprint(blueprint)

inline_queue.register(jobs.handle_here)  # without a queue URL a message is handled where it was sent

# One message per invocation: a heavy one (an account deletion) has the whole 15 s, and a failure or a timeout
# sends back only that message (Chalice cannot ask SQS for partial batch responses).
NOTIFICATION_BATCH_SIZE = 1


@app.on_sqs_message(queue=get_settings().notifications_queue_name, batch_size=NOTIFICATION_BATCH_SIZE)
def send_notifications(event):
    """Notification fan-out off the request path: one queue message per trigger."""
    batch = load_handler("chalicelib.jobs.queue_handler:handle_queue_batch")
    batch((record.body, record.receipt_handle) for record in event)


@app.schedule(Rate(1, unit=Rate.HOURS))
def remind_upcoming_events(event):
    """Hourly: queue a reminder for each live event starting within the reminder window, and queue again
    any account deletion whose message was lost."""
    load_handler("chalicelib.jobs.schedule:run_hourly")(event)


@app.on_sns_message(topic=get_settings().inbound_sms_topic_name)
def handle_inbound_sms(event):
    """Texts people send to the service's numbers (two-way SMS): STOP, START, HELP. Returns what was done."""
    return load_handler("chalicelib.jobs.inbound_texts:handle_inbound_text")(event.message)


@app.lambda_function(name="process_photo_upload")
def process_photo_upload(event, context):
    """An album upload landed (S3's ObjectCreated events on ``photo-uploads/``, set by both deploy paths):
    process each object once. A fault raises, so Lambda tries again, then sends it to the failure queue."""
    return load_handler("chalicelib.jobs.photo_uploads:handle_photo_uploads")(event)


@app.lambda_function(name="record_text_receipts")
def record_text_receipts(event, context):
    """SNS's delivery-status logs of texts (a CloudWatch Logs subscription, invoked asynchronously): each text's
    outbox record and invitation row read ``delivered`` or ``failed``. A fault raises, so Lambda tries again,
    then sends the payload to the failure queue."""
    return load_handler("chalicelib.jobs.delivery_receipts:handle_delivery_logs")(event)


# With SnapStart on (a stage switch), the runtime calls these around its snapshot; elsewhere nothing happens.
snapstart.register()
