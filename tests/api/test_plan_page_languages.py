"""A plan's page (/p/<code>) in the reader's language: its frame, dates, tallies, vote form, refusals and the
decided plan's way to the event, chosen as the guest page chooses and kept across the vote's post.

# GIVEN Olive's plan for a dinner with three dates in New York, its invitee texted the page
# WHEN the invitee opens it in Spanish, Hebrew or Arabic and votes, once with no choice
# THEN the page, the refusal and the saved notice are in that language, and the votes are stored as in English
"""

from __future__ import annotations

from urllib.parse import urljoin

from tests.api.test_plan_page import _made, vote_on_page
from tests.utils.api import body, get, post_json
from tests.utils.page_forms import submit
from tests.utils.page_words import assert_frame_translated, html_lang, visible_text
from tests.utils.web import form_token, page, post_form, text_of

FRAME = ["is planning", "When can you make it?", "So far: 0 yes, 0 if need be, 0 no", "If need be", "Save my answers"]
WORDS = {
    "es": ["Olive Owner está organizando", "¿Cuándo puedes?", "Hasta ahora: 0 sí, 0 si hace falta, 0 no",
           "Guardar mis respuestas", "miércoles, 5 de junio de 2030, 14:00 EDT"],
    "he": ["Olive Owner מתכננים", "מתי מתאים לך?", "עד עכשיו: 0 כן, 0 אם אין ברירה, 0 לא", "שמירת התשובות",
           "יום רביעי, 5 ביוני 2030"],
    "ar": ["Olive Owner يخطط", "متى يناسبك؟", "حتى الآن: 0 نعم، 0 عند الضرورة، 0 لا", "احفظ إجاباتي",
           "الأربعاء، 5 يونيو 2030"],
}  # fmt: skip


def test_the_plan_page_frame_and_dates_are_in_the_language_asked_for_and_the_form_keeps_it(client):
    _, _, path = _made(client)
    english = page(client, path)
    code = path.removeprefix("/p/")
    for language, wanted in WORDS.items():
        shown = page(client, f"{path}?lang={language}")
        assert shown.status_code == 200 and html_lang(shown) == (language, "ltr" if language == "es" else "rtl")
        assert_frame_translated(english, shown, FRAME, wanted)
        assert f'action="{code}/votes?lang={language}"' in text_of(shown)
        assert f'<a href="{code}?lang=en" hreflang="en"' in text_of(shown)


def test_a_hebrew_vote_refused_then_saved_is_told_in_hebrew_and_stored(client):
    owner, plan, path = _made(client)
    opened = page(client, f"{path}?lang=he")
    where, refused = submit(client, path, opened, "csrf", {})
    assert where == f"{path}/votes?lang=he" and refused.status_code == 400
    assert "יש לבחור כן, אם אין ברירה או לא לפחות בתאריך אחד." in visible_text(refused)
    assert "Choose Yes" not in visible_text(refused)
    where, saved = submit(client, where, refused, "csrf", {"vote_1": "yes"})
    assert saved.status_code == 303 and saved.headers["Location"].endswith("?saved=1&lang=he")
    back = page(client, urljoin(where, saved.headers["Location"]))
    assert "תודה! התשובות שלך נשמרו." in visible_text(back) and html_lang(back) == ("he", "rtl")
    as_owner = body(get(client, f"/plans/{plan['id']}", owner["auth_token"]))
    assert as_owner["votes"][0]["votes"] == {"1": "yes"}


def test_a_decided_plan_and_a_late_vote_are_told_in_the_browsers_language(client):
    owner, plan, path = _made(client)
    arabic = {"Accept-Language": "ar"}
    opened = text_of(page(client, path, arabic))
    assert post_json(client, f"/plans/{plan['id']}/decide", {"option": 2}, owner["auth_token"]).status_code == 201
    late = post_form(client, f"{path}/votes", {"csrf": form_token(opened), "vote_1": "no"}, arabic)
    assert late.status_code == 409 and "انتهى التصويت على هذه الخطة." in visible_text(late)
    decided = visible_text(page(client, path, arabic))
    assert "تم تحديد الموعد." in decided and "الرد على الدعوة" in decided and "الخميس، 6 يونيو 2030" in decided
    assert "The date is set" not in decided and "Answer the invitation" not in decided


def test_the_plan_pages_errors_are_in_the_chosen_language_and_an_english_vote_reads_as_before(client):
    missing = page(client, "/p/" + "A" * 32, {"Cookie": "lang=fr"})
    assert missing.status_code == 404 and "Ce lien ne fonctionne pas" in visible_text(missing)
    _, _, path = _made(client)
    saved = vote_on_page(client, path, {"1": "yes"})
    assert saved.status_code == 303 and saved.headers["Location"].endswith("?saved=1")
