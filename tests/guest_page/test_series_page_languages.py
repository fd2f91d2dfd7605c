"""A series' dates on the guest's page in the guest's language: the dates list and its buttons (catalogued with
the page), and a refused answer to one date, whose error page follows the page's language."""

from __future__ import annotations

from tests.guest_page.test_series_page import _series
from tests.utils.factories import make_person, phone
from tests.utils.page_words import html_lang, visible_text
from tests.utils.web import link_texted_to, page, post_form, text_of


def test_a_dates_answer_refused_for_a_stale_form_is_an_error_page_in_the_pages_language(client):
    olive, number = make_person("Olive Owner"), phone(8611)
    created = _series(client, olive, number)
    path = link_texted_to(number)
    ids = [date["id"] for date in created["series"]["dates"]]
    shown = visible_text(page(client, f"{path}?lang=ar"))
    assert "Upcoming dates" not in shown
    refused = post_form(client, f"{path}/dates/{ids[1]}/rsvp", {"csrf": "x", "answer": "accept"}, {"Cookie": "lang=ar"})
    assert refused.status_code == 403 and html_lang(refused) == ("ar", "rtl")
    assert "Answer not accepted" not in visible_text(refused) and "<h1>" in text_of(refused)
