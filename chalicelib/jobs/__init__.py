"""The queue's dispatch room, above the use cases: the worker's registry of message kind -> handler.

queue_handler.py: the SQS Lambda's batch and :func:`process`, which looks a message's kind up in ``HANDLERS``
(notification jobs, account deletion, data export: all in chalicelib/services). Nothing below imports this
package: without a queue, app.py registers :func:`handle_here` with chalicelib/inline_queue.py.
"""


from chalicelib.loading import load_handler


def handle_here(message: dict) -> None:
    """One message handled in the process that sent it (no queue URL: tests, ``make run``); the worker and the
    services it loads are imported by the first such message, off the API's cold start."""
    load_handler("chalicelib.jobs.queue_handler:process")(message)
