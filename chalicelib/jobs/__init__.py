"""What runs off a request, above the use cases: the queue's worker, the hourly schedule, the inbound texts.

queue_handler.py: the SQS Lambda's batch and :func:`process`, which hands each message to the handler of its kind
(declared beside it in the services: messaging/notifications/kinds.py). schedule.py: the hourly job.
inbound_texts.py: replies by text.
Nothing below imports this package: without a queue, chalicelib/wiring.py registers :func:`handle_here` with
chalicelib/inline_queue.py.
"""

from chalicelib.loading import load_handler


def handle_here(message: dict) -> None:
    """One message handled in the process that sent it (no queue URL: tests, ``make run``); the worker and the
    services it loads are imported by the first such message, off the API's cold start."""
    load_handler("chalicelib.jobs.queue_handler:process")(message)
