"""Every text a guest without the app can get, in every language of the catalogues, at the longest name, title,
place, message and link: within 3 segments (counted as carriers do), in the language's own words and date forms
(CLDR, the event's zone), the name and title kept to at least their first 10 and 20 characters. The segments each
costs are the table of docs/languages.md, which this test keeps true."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from chalicelib.domain.recurrence import MONTHLY, WEEKLY, Cadence
from chalicelib.domain.visibility import Place
from chalicelib.languages import dates
from chalicelib.languages.catalogues import available, words
from chalicelib.messaging import sms_segments as sms
from chalicelib.services.conversation.host_messages import announcement_text, nudge_text
from chalicelib.services.identity.auth import PinPurpose, pin_text
from chalicelib.services.plans.plan_texts import decided_text, plan_text
from chalicelib.services.texts import attendance_texts, inbound_sms
from chalicelib.services.texts import invitation_texts as invitations
from chalicelib.services.texts.guest_texts import cancel_text, change_text
from chalicelib.services.texts.removal_texts import removal_text
from chalicelib.services.texts.repeat_words import at_time, in_words
from chalicelib.services.texts.text_wording import STOP_WORDS
from chalicelib.services.web import text_answers as answers
from tests.services.texts.test_text_languages import DEPLOYED_LINK, SHORT_LINK, _event, _longest, _owner

DOCS = Path(__file__).resolve().parents[3] / "docs" / "languages.md"
SATURDAY_NOON_MADRID = datetime(2026, 12, 12, 11, 0, tzinfo=UTC)
THURSDAY_MADRID = datetime(2026, 12, 10, 9, 0, tzinfo=UTC)  # two days before: "on Saturday"
# The longest place the API takes (venue 100, address 1,000 characters) and an announcement of 1,000.
PLACES = {"he": ("אולם הגן ", "רחוב הרצל 12, תל אביב "), "ar": ("قاعة الحديقة ", "شارع الملك فهد 12، الرياض ")}
LATIN_PLACE = ("Cafe Nord ", "12 Harbour Street, Springfield ")
MESSAGE = {"he": "נא להביא כיבוד קל ושתייה. ", "ar": "يرجى إحضار بعض الطعام والشراب. "}
LATIN_MESSAGE = "Please bring a snack and something to drink. "


def _place(language: str) -> Place:
    venue, address = PLACES.get(language, LATIN_PLACE)
    return Place((venue * 20)[:100], (address * 50)[:1000], None)


def _placed_event(title: str):
    event = _event(title)
    place = _place("en")
    event.venue_name, event.address = place.venue_name, place.address
    return event


def _confirmation(wording, *, linked: bool = True):
    return lambda name, title, said, link: answers.confirmation_text(
        _event(title), wording, said, link if linked else ""
    )


def _reminder(name: str, title: str, said, link: str) -> str:
    event = _event(title)
    place = _place(said.language)
    event.venue_name, event.address = place.venue_name, place.address
    return attendance_texts.reminder_text(event, link, THURSDAY_MADRID, with_place=True, said=said)


def _change(name: str, title: str, said, link: str) -> str:
    seen = SimpleNamespace(event=_event(title), place=_place(said.language), online_url=None)
    return change_text(seen, link, said)


def _announcement(name: str, title: str, said, link: str) -> str:
    text = (MESSAGE.get(said.language, LATIN_MESSAGE) * 40)[:1000]
    return announcement_text(name, _event(title), text, link, said)


# A series' repeat as its invitation and cancellation say it, for the event on a Saturday, the 12th.
SERIES = {
    "every week": Cadence(WEEKLY, 1, 5),
    "every 2 weeks": Cadence(WEEKLY, 2, 5),
    "every 3 weeks": Cadence(WEEKLY, 3, 5),
    "every 4 weeks": Cadence(WEEKLY, 4, 5),
    "monthly": Cadence(MONTHLY, 1, 12),
}


def _series_invitation(cadence: Cadence):
    return lambda n, t, s, link: invitations.invitation_text(_owner(n), _event(t), link, cadence, s)


def _series_cancellation(cadence: Cadence):
    return lambda n, t, s, link: cancel_text(n, _event(t), cadence, s)


# Each template: (name, title, the person's words, the link) -> the text; and what it carries (name, title, when,
# stop; r: a series' first date, or its repeat and time).
TEMPLATES = {
    "invitation": (lambda n, t, s, link: invitations.invitation_text(_owner(n), _event(t), link, said=s), "ntws"),
    **{f"invitation, {every}": (_series_invitation(cadence), "ntrs") for every, cadence in SERIES.items()},
    "waitlist promotion": (lambda n, t, s, link: invitations.promotion_text(_owner(n), _event(t), link, s), "ntws"),
    "waitlist drop": (lambda n, t, s, link: invitations.dropped_text(_owner(n), _event(t), link, s), "ntws"),
    "change": (_change, "tws"),
    "change, time only": (
        lambda n, t, s, link: change_text(SimpleNamespace(event=_event(t), place=None, online_url=None), link, s),
        "tws",
    ),
    "cancellation": (lambda n, t, s, link: cancel_text(n, _event(t), said=s), "ntws"),
    **{f"cancellation, {every}": (_series_cancellation(cadence), "ntws") for every, cadence in SERIES.items()},
    "announcement": (_announcement, "nts"),
    "nudge": (lambda n, t, s, link: nudge_text(n, _event(t), link, s), "ntws"),
    "plan": (lambda n, t, s, link: plan_text(_owner(n), SimpleNamespace(title=t), link, s), "nts"),
    "plan decided": (lambda n, t, s, link: decided_text(_owner(n), _event(t), link, s), "tws"),
    "removal": (lambda n, t, s, link: removal_text(_owner(n), _event(t), s), "nts"),
    "reminder": (_reminder, "ts"),
    "still coming?": (lambda n, t, s, link: attendance_texts.still_coming_text(_event(t), link, s), "tws"),
    "spot released": (lambda n, t, s, link: attendance_texts.released_text(_event(t), link, s), "ts"),
    "reply: going": (_confirmation(answers.going_wording(_event("Lunch"))), "tw"),
    "reply: not going": (_confirmation(answers.worded(answers.NOT_GOING), linked=False), "t"),
    "reply: maybe": (_confirmation(answers.worded(answers.SAID_MAYBE), linked=False), "t"),
    "reply: waitlisted": (_confirmation(answers.worded(answers.WAITLISTED, position=12), linked=False), "t"),
    "reply: full": (_confirmation(answers.worded(answers.FULL)), "t"),
    "reply: closed": (_confirmation(answers.worded(answers.CLOSED), linked=False), "t"),
    "reply: too many": (_confirmation(answers.too_many_wording(3)), "t"),
    "reply: questions": (_confirmation(answers.worded(answers.QUESTIONS)), "t"),
    "reply: not understood": (
        lambda n, t, s, link: s._(answers.NOT_UNDERSTOOD, service="Invites", link=link),
        "",
    ),
    "HELP answer": (lambda n, t, s, link: inbound_sms.help_text(s), "s"),
    "pin: login": (lambda n, t, s, link: pin_text(PinPurpose.LOGIN, "123456", s), ""),
    "pin: join": (lambda n, t, s, link: pin_text(PinPurpose.JOIN, "123456", s), ""),
    "pin: deletion": (lambda n, t, s, link: pin_text(PinPurpose.DELETION, "123456", s), ""),
}
# The texts that ask for a reply by text when the stage takes replies (SMS_TWO_WAY).
ASKING = (
    "invitation",
    *(f"invitation, {every}" for every in SERIES),
    "nudge",
    "reminder",
    "still coming?",
    "spot released",
)


def _text(template: str, language: str, link: str = DEPLOYED_LINK) -> tuple[str, str, str]:
    """The text at the longest name and title of the language's script, with ``link`` (the deployed stage's)."""
    name, title = _longest(language)
    return TEMPLATES[template][0](name, title, words(language), link), name, title


def _check(template: str, language: str, link: str = DEPLOYED_LINK) -> str:
    text, name, title = _text(template, language, link)
    carries, said = TEMPLATES[template][1], words(language)
    assert sms.segments(text) <= 3, (sms.encoding(text), text)
    if "n" in carries:
        assert name[:10].rstrip() in text, text
    if "t" in carries:
        assert title[:20].rstrip() in text, text
    if "w" in carries or "r" in carries:
        whens = [dates.short_when(_event(title), language, weekday=weekday) for weekday in (True, False)]
        if "r" in carries:  # a series' invitation: its first date, else its repeat and time (the tight form)
            whens.append(at_time(SERIES[template.split(", ", 1)[1]], _event(title), said))
        assert any(when in text for when in whens), (whens, text)
    if "s" in carries:
        assert text.endswith(said._(STOP_WORDS)), text
    if language != "en":
        english, _, _ = _text(template, "en", link)
        assert sms.fold_typography(text) != sms.fold_typography(english)  # its own words, not the English
    return text


@pytest.mark.parametrize("language", available())
@pytest.mark.parametrize("template", TEMPLATES)
def test_every_text_in_every_language_keeps_to_three_segments_and_to_the_name_and_title(aws, template, language):
    _check(template, language)


@pytest.mark.parametrize("language", available())
@pytest.mark.parametrize("template", ASKING)
def test_with_two_way_texting_the_asking_texts_keep_to_their_segments_in_every_language(
    aws, template, language, override_settings
):
    override_settings(sms_two_way=True)  # a stage that takes replies has a domain of its own (docs/deploy.md)
    text = _check(template, language, SHORT_LINK)
    assert sms.segments(text) <= (2 if sms.encoding(text) == "gsm" else 3)
    assert any(words(language)._(line) in text for line in attendance_texts.ASKING_LINES.values()), text


@pytest.mark.parametrize("language", available())
def test_a_series_on_any_weekday_or_day_keeps_its_texts_to_three_segments_and_to_the_name_and_title(aws, language):
    name, title = _longest(language)
    said = words(language)
    cadences = [Cadence(WEEKLY, interval, weekday) for interval in range(1, 5) for weekday in range(7)]
    cadences += [Cadence(MONTHLY, interval, day) for interval in range(1, 5) for day in (1, 22, 31)]
    for cadence in cadences:
        invitation = _series_invitation(cadence)(name, title, said, DEPLOYED_LINK)
        cancellation = _series_cancellation(cadence)(name, title, said, DEPLOYED_LINK)
        for text in (invitation, cancellation):
            assert sms.segments(text) <= 3, (cadence, text)
            assert name[:10].rstrip() in text and title[:20].rstrip() in text, (cadence, text)
        assert in_words(cadence, said) in cancellation
        # with an everyday name and title and a stage's own domain the invitation says the repeat too (in UCS-2
        # with a longer link or name, the first date gives way, then the repeat: the page lists the dates)
        everyday = _series_invitation(cadence)("Dana Levi", "Book club", said, SHORT_LINK)
        assert in_words(cadence, said) in everyday and sms.segments(everyday) <= 3, everyday


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", 'Invites: Reminder: "Lunch" is on Saturday at 12:00 PM CET, '),
        ("es", 'Invites: Recordatorio: "Lunch" es el sábado a las 12:00 CET, '),
        ("fr", 'Invites : Rappel : "Lunch", c\'est samedi à 12:00 CET, '),
        ("de", 'Invites: Erinnerung: "Lunch" ist am Samstag um 12:00 CET, '),
        ("pt-BR", 'Invites: Lembrete: "Lunch" é sábado às 12:00 CET, '),
        ("it", 'Invites: Promemoria: "Lunch" è sabato alle 12:00 CET, '),
        ("he", 'Invites: תזכורת: "Lunch" ביום שבת בשעה 12:00 CET, '),
        ("ar", 'Invites: تذكير: "Lunch" يوم السبت الساعة 12:00 م CET، '),
    ],
)
def test_the_reminder_says_the_day_and_time_in_the_languages_own_words_in_the_events_zone(aws, language, expected):
    event = _placed_event("Lunch")
    text = attendance_texts.reminder_text(event, "", THURSDAY_MADRID, with_place=True, said=words(language))
    assert text.startswith(expected), text


@pytest.mark.parametrize(
    ("days_before", "said"),
    [(0, "hoy a las"), (1, "mañana a las"), (4, "el martes"), (20, "el 12 dic")],
)
def test_the_reminders_relative_day_is_the_languages(aws, days_before, said):
    event = _event("Lunch")
    now = datetime.fromtimestamp(SATURDAY_NOON_MADRID.timestamp() - days_before * 86400 + 60, tz=UTC)
    if days_before == 4:  # a Tuesday's event, four days after
        event.event_date, now = datetime(2026, 12, 15, 18, 0, tzinfo=UTC), datetime(2026, 12, 11, 9, 0, tzinfo=UTC)
    assert said in attendance_texts.reminder_text(event, "", now, with_place=False, said=words("es"))


@pytest.mark.parametrize("language", available())
def test_a_change_text_tells_an_online_event_in_the_languages_word(aws, language):
    seen = SimpleNamespace(event=_event("Lunch"), place=Place("", "", None), online_url="https://meet.example/x")
    said = words(language)
    text = change_text(seen, DEPLOYED_LINK, said)
    assert f"{said._('online')}." in text and "meet.example" not in text


# --------------------------------------------------------------------------- the cost table of docs/languages.md

TABLE = re.compile(r"<!-- segments per language: measured by (?P<test>\S+) -->\n(?P<table>(?:\|.*\n)+)")


def _measured_table() -> str:
    languages = available()
    lines = ["| text | " + " | ".join(languages) + " |", "|---|" + "---|" * len(languages)]
    for template in TEMPLATES:
        cells = []
        for language in languages:
            text, _, _ = _text(template, language)
            cells.append(f"{sms.segments(text)} {'GSM' if sms.encoding(text) == 'gsm' else 'UCS'}")
        lines.append(f"| {template} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def test_the_docs_table_of_segments_per_language_is_what_the_texts_cost(aws):
    found = TABLE.search(DOCS.read_text())
    assert found, "docs/languages.md has no table of segments per language"
    measured = _measured_table()
    assert found.group("table") == measured, f"docs/languages.md should read:\n{measured}"


@pytest.mark.parametrize(("language", "every"), [("es", "every week"), ("he", "every 2 weeks")])
def test_a_tight_series_invitation_says_its_repeat_and_time_and_leaves_the_first_date_to_the_page(aws, language, every):
    text, _, title = _text(f"invitation, {every}", language)
    assert at_time(SERIES[every], _event(title), words(language)) in text, text
    assert dates.short_when(_event(title), language, weekday=False) not in text
    assert sms.segments(text) <= 3
