"""What the create path of services/hosting/events.py needs to know of a series (hosting/series.py makes it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime


@dataclass
class SeriesPlan:
    """The dates of a series (the first is ``event_date``), and how its people are told: ``send_texts`` takes
    the arguments of ``invitation_texts.send_invitation_texts`` and texts each number once for all dates;
    ``save_series`` is called with the events stored, before anyone is told (raising undoes them)."""

    series_id: int
    dates: list[datetime]
    charges: list  # (RollingLimit, amount) charged with the event's own limits
    send_texts: Callable
    save_series: Callable
