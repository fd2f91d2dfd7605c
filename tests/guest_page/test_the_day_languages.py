"""The day itself in the guest's language: the pass, the album, the upload page and the notice after an upload
read in the language chosen on the guest's page, as the rest of the page does."""

from __future__ import annotations

import pytest

from tests.guest_page.test_the_day import invited  # noqa: F401 (the fixture)
from tests.utils.page_words import assert_frame_translated, html_lang, visible_text
from tests.utils.web import form_token, page, post_form, text_of

FRAME = ["Your pass", "Show this at the door.", "Photos", "No photos yet.", "Add a photo"]
WORDS = {
    "es": ["Tu pase", "Enséñalo en la entrada.", "Fotos", "Todavía no hay fotos.", "Añadir una foto"],
    "he": ["הכרטיס שלך", "יש להציג בכניסה.", "תמונות", "עדיין אין תמונות.", "הוספת תמונה"],
    "ar": ["تصريح دخولك", "أظهره عند الباب.", "الصور", "لا توجد صور بعد.", "أضف صورة"],
}


@pytest.mark.parametrize("language", list(WORDS))
def test_the_pass_the_album_and_the_upload_page_are_in_the_pages_language(client, invited, language):  # noqa: F811
    _, _, path = invited
    english = page(client, path)
    shown = page(client, f"{path}?lang={language}")
    assert_frame_translated(english, shown, FRAME, WORDS[language])
    asked = post_form(client, f"{path}/photos", {"csrf": form_token(text_of(shown))}, {"Cookie": f"lang={language}"})
    assert asked.status_code == 200 and html_lang(asked)[0] == language
    upload = visible_text(asked)
    assert "Upload" not in upload and "Choose a photo" not in upload and "Back to the invitation" not in upload
    uploaded = visible_text(page(client, f"{path}?uploaded=1", {"Cookie": f"lang={language}"}))
    assert "Thanks! Your photo" not in uploaded and "Your photo is on its way" not in uploaded
    assert {"es": "¡Gracias! Tu foto va camino del álbum", "he": "תודה! התמונה שלך בדרך לאלבום",
            "ar": "شكرًا! صورتك في طريقها إلى الألبوم"}[language] in uploaded  # fmt: skip
