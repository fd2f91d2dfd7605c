"""The album's refusals on the guest page read in the page's language: a guest no longer going, an album not yet
open, closed or off, and the person's and the event's photo limits, each asked for through the page's form."""

from __future__ import annotations

import subprocess
import sys

import pytest

from chalicelib.domain import the_day as day_rules
from chalicelib.services.the_day import album_words, photos
from tests.guest_page.test_the_day import invited  # noqa: F401 (the fixture)
from tests.utils import the_day
from tests.utils.page_words import html_lang, visible_text
from tests.utils.web import answer, form_token, page, post_form, text_of

SAID = {
    "not_going": {"es": "Solo los anfitriones y los invitados que van pueden compartir fotos.",
                  "he": "רק המארחים והאורחים שמגיעים יכולים לשתף תמונות.",
                  "ar": "لا يمكن مشاركة الصور إلا للمضيفين والضيوف الذين سيحضرون."},
    "not_yet": {"es": "El álbum se abre cuando empieza el evento.", "he": "האלבום ייפתח כשהאירוע יתחיל.",
                "ar": "يُفتح الألبوم عند بدء المناسبة."},
    "closed": {"es": "El álbum está cerrado.", "he": "האלבום סגור.", "ar": "الألبوم مغلق."},
    "off": {"es": "Este evento no tiene álbum compartido.", "he": "לאירוע הזה אין אלבום משותף.",
            "ar": "لا يوجد ألبوم مشترك لهذه المناسبة."},
    "person_full": {"es": "Ya has añadido 50 fotos a este álbum.", "he": "כבר הוספת 50 תמונות לאלבום הזה.",
                    "ar": "لقد أضفت 50 صورة إلى هذا الألبوم بالفعل."},
    "event_full": {"es": "Este álbum ya tiene 500 fotos.", "he": "באלבום הזה כבר יש 500 תמונות.",
                   "ar": "يضم هذا الألبوم 500 صورة بالفعل."},
}  # fmt: skip
ENGLISH = {
    "not_going": album_words.NOT_GOING,
    "not_yet": album_words.ALBUM_WORDS["not_yet"],
    "closed": album_words.ALBUM_WORDS["closed"],
    "off": album_words.ALBUM_WORDS["off"],
    "person_full": album_words.PERSON_FULL,
    "event_full": album_words.EVENT_FULL,
}
STATUS = {"not_going": 403}


def _add_photo(client, path: str, language: str):
    """Press "Add a photo" on the page in ``language``, as the browser would."""
    cookie = {"Cookie": f"lang={language}"}
    shown = text_of(page(client, f"{path}?lang={language}"))
    return post_form(client, f"{path}/photos", {"csrf": form_token(shown)}, cookie)


def _refusing(refusal: str, client, event_id: int, path: str, monkeypatch) -> None:
    """Bring the album to the state where adding a photo is refused with ``refusal``."""
    if refusal == "not_going":  # declined before the start (replies close when it starts)
        the_day.started(event_id, hours_ago=-3)
        assert answer(client, path, "decline").status_code == 303
        the_day.started(event_id)
    elif refusal == "not_yet":
        the_day.started(event_id, hours_ago=-3)
    elif refusal == "closed":  # as if its open days had passed (the page's link outlives the event less)
        monkeypatch.setattr(day_rules, "ALBUM_OPEN_DAYS", 0)
    elif refusal == "off":
        the_day.started(event_id, album="off")
    else:
        limit = "PHOTOS_PER_PERSON" if refusal == "person_full" else "PHOTOS_PER_EVENT"
        monkeypatch.setattr(photos, limit, 1)
        assert _add_photo(client, path, "en").status_code == 200  # the one photo the limit allows


@pytest.mark.parametrize("language", ["es", "he", "ar"])
@pytest.mark.parametrize("refusal", list(SAID))
def test_each_refusal_of_the_album_reads_in_the_pages_language(client, invited, monkeypatch, refusal, language):  # noqa: F811
    event_id, _, path = invited
    _refusing(refusal, client, event_id, path, monkeypatch)
    refused = _add_photo(client, path, language)
    assert refused.status_code == STATUS.get(refusal, 409)
    shown = visible_text(refused)
    assert html_lang(refused)[0] == language
    assert SAID[refusal][language] in shown and ENGLISH[refusal] not in shown
    assert len(photos.photo_store.of_event(event_id)) == (1 if refusal.endswith("_full") else 0)


def test_in_english_the_page_shows_the_services_own_sentence(client, invited):  # noqa: F811
    event_id, _, path = invited
    the_day.started(event_id, album="off")
    refused = _add_photo(client, path, "en")
    assert refused.status_code == 409 and album_words.ALBUM_WORDS["off"] in visible_text(refused)


def test_wording_the_albums_refusals_loads_neither_the_album_nor_the_pass():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, chalicelib.guest_page.service_words; print(sorted(sys.modules))"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "'chalicelib.services.the_day.album_words'" in loaded
    for heavy in ("chalicelib.services.the_day.photos", "chalicelib.services.the_day.check_ins", "segno", "PIL"):
        assert f"'{heavy}'" not in loaded, heavy
