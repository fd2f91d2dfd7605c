"""The queue's dispatch room, above the use cases: the worker's registry of message kind -> handler.

queue_handler.py: the SQS Lambda's batch and :func:`process`, which looks a message's kind up in ``HANDLERS``
(notification jobs, account deletion, data export: all in chalicelib/services). Nothing below imports this
package: without a queue, app.py registers :func:`handle_here` with chalicelib/inline_queue.py.
"""


def handle_here(message: dict) -> None:
    """One message handled in the process that sent it (no queue URL: tests, ``make run``)."""
    from chalicelib.jobs.queue_handler import process  # the services it loads stay off the API's cold start

    process(message)
