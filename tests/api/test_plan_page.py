"""/p/<code>: a plan's page for people without the app: seeing the dates and tallies, voting with the guest
page's forgery protection, and, once decided, the way to the event."""

from __future__ import annotations

import re

from tests.api.test_plans import FRIEND, OPTIONS, OWNER, make_plan
from tests.utils.api import body, get, login, post_json, texts_to
from tests.utils.factories import table_items
from tests.utils.web import form_token, page, post_form, text_of

PLAN_LINK = re.compile(r"https?://[^\s/]+(/p/[A-Za-z0-9_-]{32})")
HEBREW_TITLE = "\u05e2\u05e8\u05d1 \u05e9\u05d9\u05e8\u05d9\u05dd \U0001f3b6 <b>"


def plan_link_of(number: str) -> str:
    found = PLAN_LINK.search(texts_to(number)[-1])
    assert found, texts_to(number)
    return found.group(1)


def _made(client, **fields):
    owner = login(client, OWNER, full_name="Olive Owner")
    plan = body(make_plan(client, owner, **fields))
    return owner, plan, plan_link_of(FRIEND)


def vote_on_page(client, path: str, votes: dict, headers=None):
    opened = page(client, path)
    assert opened.status_code == 200, opened.body
    fields = {"csrf": form_token(text_of(opened)), **{f"vote_{key}": value for key, value in votes.items()}}
    return post_form(client, f"{path}/votes", fields, headers)


def test_the_page_shows_the_dates_in_the_plans_zone_and_no_number(client):
    owner, plan, path = _made(client, title=HEBREW_TITLE)
    response = page(client, path)
    assert response.status_code == 200
    shown = text_of(response)
    assert '<h1 dir="auto">\u05e2\u05e8\u05d1 \u05e9\u05d9\u05e8\u05d9\u05dd \U0001f3b6 &lt;b&gt;</h1>' in shown
    assert "Olive Owner</span> is planning" in shown
    assert "Wednesday, June 5, 2030 at 2:00 PM EDT" in shown  # 18:00 UTC in New York
    assert shown.count('type="radio"') == 3 * len(OPTIONS)
    assert FRIEND not in shown and OWNER not in shown
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_votes_on_the_page_are_the_invitees_votes_in_the_app(client):
    owner, plan, path = _made(client)
    response = vote_on_page(client, path, {"1": "yes", "3": "if_need_be"})
    assert response.status_code == 303 and response.headers["Location"].endswith("?saved=1")
    shown = text_of(page(client, f"{path}?saved=1"))
    assert "Your answers are saved." in shown
    assert 'name="vote_1" value="yes" checked' in shown
    assert "1 yes, 0 if need be, 0 no" in shown
    as_owner = body(get(client, f"/plans/{plan['id']}", owner["auth_token"]))
    assert as_owner["votes"][0]["votes"] == {"1": "yes", "3": "if_need_be"}
    assert as_owner["options"][2]["tally"] == {"yes": 0, "if_need_be": 1, "no": 0}


def test_a_form_without_its_token_or_from_elsewhere_is_refused_and_keeps_the_choices(client):
    owner, plan, path = _made(client)
    before = table_items()
    refused = post_form(client, f"{path}/votes", {"csrf": "1.forged", "vote_2": "no"})
    assert refused.status_code == 403
    shown = text_of(refused)
    assert "your votes were not saved" in shown and "reload" not in shown.lower()
    assert 'name="vote_2" value="no" checked' in shown  # what was chosen is kept
    assert f'action="../{path.removeprefix("/p/")}/votes"' in shown  # the form works from where it is shown
    cross_site = vote_on_page(client, path, {"1": "yes"}, headers={"Sec-Fetch-Site": "cross-site"})
    assert cross_site.status_code == 403
    assert table_items() == before


def test_a_choice_the_page_does_not_offer_is_400_and_nothing_is_stored(client):
    owner, plan, path = _made(client)
    before = table_items()
    response = vote_on_page(client, path, {"1": "perhaps"})
    assert response.status_code == 400
    assert "Choose Yes, If need be or No" in text_of(response)
    assert 'aria-invalid="true"' in text_of(response)
    nothing = vote_on_page(client, path, {})
    assert nothing.status_code == 400
    assert table_items() == before


def test_once_decided_the_page_points_to_the_event_and_takes_no_votes(client):
    owner, plan, path = _made(client)
    assert post_json(client, f"/plans/{plan['id']}/decide", {"option": 2}, owner["auth_token"]).status_code == 201
    shown = text_of(page(client, path))
    assert "The date is set." in shown and "Thursday, June 6, 2030 at 2:00 PM EDT" in shown
    event_link = re.search(r'href="https?://[^/"]+(/i/[A-Za-z0-9_-]{32})">Answer the invitation', shown).group(1)
    assert event_link in texts_to(FRIEND)[-1]  # the same link as the decision's text
    assert page(client, event_link).status_code == 200
    assert 'type="radio"' not in shown


def test_a_vote_sent_after_the_decision_shows_that_voting_is_closed(client):
    owner, plan, path = _made(client)
    opened = text_of(page(client, path))
    assert post_json(client, f"/plans/{plan['id']}/decide", {"option": 1}, owner["auth_token"]).status_code == 201
    late = post_form(client, f"{path}/votes", {"csrf": form_token(opened), "vote_1": "no"})
    assert late.status_code == 409
    assert "Voting on this plan is closed." in text_of(late)


def test_the_owners_link_shows_the_tallies_and_no_form(client):
    owner, plan, path = _made(client)
    own_path = plan["url"].removeprefix("https://invites.example.test")
    shown = text_of(page(client, own_path))
    assert "0 yes, 0 if need be, 0 no" in shown and 'type="radio"' not in shown
    assert post_form(client, f"{own_path}/votes", {"csrf": "x", "vote_1": "yes"}).status_code == 403


def test_unknown_and_malformed_codes_get_the_same_404_page(client):
    _made(client)
    unknown = page(client, "/p/" + "A" * 32)
    malformed = page(client, "/p/nope")
    assert unknown.status_code == malformed.status_code == 404
    assert text_of(unknown) == text_of(malformed)


def test_page_views_count_against_the_guest_pages_limit_per_address(client, override_settings):
    owner, plan, path = _made(client)
    override_settings(web_requests_per_ip_per_hour=2)
    assert [page(client, path).status_code for _ in range(2)] == [200, 200]
    refused = page(client, path)
    assert refused.status_code == 429 and refused.headers.get("Retry-After")
    assert "Too many requests" in text_of(refused)
