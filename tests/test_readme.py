"""The README stays a one-page guide, and the documents it points to name every setting."""

from __future__ import annotations

import re
from pathlib import Path

from chalicelib.config import setting_types

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_readme_fits_on_one_page():
    assert len(README.splitlines()) <= 200


def test_the_two_commands_are_two():
    block = re.search(r"```sh\n(.*?)```", section(README, "The two commands"), re.S).group(1)
    assert [line.split("#")[0].strip() for line in block.strip().splitlines()] == ["make run", "make test"]


def test_every_document_the_readme_links_exists():
    links = re.findall(r"\]\(((?:docs/)?[\w./-]+\.md)(?:#[\w-]+)?\)", README)
    assert links, "the README points to its documents"
    for link in links:
        assert (ROOT / link).is_file(), link


def test_every_document_in_docs_links_only_existing_documents():
    for doc in (ROOT / "docs").glob("*.md"):
        for link in re.findall(r"\]\(([\w./-]+\.md)(?:#[\w-]+)?\)", doc.read_text()):
            assert (doc.parent / link).is_file(), f"{doc.name}: {link}"


def test_every_setting_is_named_in_the_configuration_document():
    configuration = (ROOT / "docs" / "configuration.md").read_text()
    missing = [name.upper() for name in setting_types() if f"`{name.upper()}`" not in configuration]
    assert missing == []


def test_readme_names_the_per_address_login_limits_and_points_to_every_setting():
    for name in ("AUTH_SMS_PER_IP_PER_HOUR", "AUTH_VERIFY_PER_IP_PER_HOUR"):
        assert f"`{name}" in README
    assert "(docs/configuration.md)" in README


def _walkthrough_line(start: str) -> str:
    lines = [line for line in section(README, "A walkthrough with curl").splitlines() if line.startswith(start)]
    assert len(lines) == 1, start
    return lines[0]


def _shell(command: str, page_html: str) -> str:
    """``command`` from the README run by bash, ``curl -s $PAGE`` answering with ``page_html``."""
    import subprocess

    script = command.replace("curl -s $PAGE", 'printf "%s" "$PAGE_HTML"')
    done = subprocess.run(
        ["bash", "-c", f"{script}\nprintf '%s' \"${{CSRF:-}}\""]
        if script.startswith("CSRF=")
        else ["bash", "-c", script],
        env={"PAGE_HTML": page_html, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_the_walkthroughs_guest_answer_works_pasted_line_by_line(client):
    from tests.utils.factories import make_person
    from tests.utils.web import invite_by_text, link_texted_to, page, post_form, text_of

    number = "+14155550101"
    invite_by_text(client, make_person("Sam"), number)
    path = link_texted_to(number)
    # the README's line picks the page's one form token, though the page has two forms
    token = _shell(_walkthrough_line("CSRF=$("), text_of(page(client, path)))
    assert token and "\n" not in token.strip()
    answered = post_form(
        client, f"{path}/rsvp", {"csrf": token.strip(), "answer": "accept", "message": "See you there"}
    )
    assert answered.status_code == 303
    shown = _shell(_walkthrough_line("curl -s $PAGE | grep -o '<p id"), text_of(page(client, path))).strip()
    expected = re.search(r"# (<p id=\"answer\">.*)", section(README, "A walkthrough with curl")).group(1)
    assert shown == expected


def test_the_walkthroughs_announcement_shows_on_the_page_as_the_readme_says(client):
    from tests.utils.api import post_json, texts_to
    from tests.utils.factories import make_person
    from tests.utils.web import invite_by_text, link_texted_to, page, text_of

    host, number = make_person(""), "+14155550101"
    event = invite_by_text(client, host, number)
    [invitation] = texts_to(number)
    assert invitation.startswith(f"Invites: Your host (number ending {host.phone[-4:]}) invited you to")
    said = "We moved to the shade by the tennis courts."
    assert post_json(client, f"/events/{event['id']}/announcements", {"text": said}, host.token).status_code == 201
    shown = _shell(_walkthrough_line("curl -s $PAGE | grep -o '<li>"), text_of(page(client, link_texted_to(number))))
    expected = re.search(r"# (<li><p dir=\"auto\">.*)", section(README, "A walkthrough with curl")).group(1)
    assert shown.strip() == expected
