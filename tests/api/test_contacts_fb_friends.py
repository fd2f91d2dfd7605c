"""GET /users/fb_friends against the fake Graph server on 127.0.0.1."""

from __future__ import annotations

import pytest

from chalicelib.services.identity import auth, users
from tests.utils.api import body, get, post_json

PATH = "/users/fb_friends"


@pytest.fixture
def token(aws):
    user, _ = users.find_or_create_user("+14155550900", active=True)
    return auth.issue_token(user)


def _link(client, graph, token, friends):
    graph.add_user(token="fb-token", id="1001", name="Me", friends=friends)
    assert post_json(client, "/users/fb_token", {"fb_token": "fb-token"}, token).status_code == 200


def test_no_linked_account_is_an_empty_list(client, graph, token):
    response = get(client, PATH, token)
    assert response.status_code == 200 and body(response) == []
    assert graph.requests == []


def test_friends_of_every_page(client, graph, token):
    friends = [(str(2000 + i), f"Friend {i}") for i in range(230)]
    _link(client, graph, token, friends)
    response = get(client, PATH, token)
    assert response.status_code == 200
    assert body(response) == [{"name": name, "id": fid} for fid, name in friends]
    assert [path for path, _ in graph.requests].count("/me/friends") == 3  # 100 + 100 + 30


def test_no_friends(client, graph, token):
    _link(client, graph, token, [])
    assert body(get(client, PATH, token)) == []


def test_graph_down_is_503(client, graph, token):
    _link(client, graph, token, [("2001", "Ann")])
    graph.fail_with(503)
    response = get(client, PATH, token)
    assert response.status_code == 503 and "Retry-After" in response.headers


def test_graph_down_on_a_later_page_is_503(client, graph, token):
    _link(client, graph, token, [(str(2000 + i), f"F{i}") for i in range(150)])
    graph.fail_with(500, after=1)
    assert get(client, PATH, token).status_code == 503


def test_expired_token_is_400_on_fb_token(client, graph, token):
    _link(client, graph, token, [("2001", "Ann")])
    graph.expire("fb-token")
    response = get(client, PATH, token)
    assert response.status_code == 400
    assert body(response) == {"fb_token": ["Invalid or expired token."]}


def test_head_and_auth(client, graph, token):
    _link(client, graph, token, [("2001", "Ann")])
    response = client.http.request("HEAD", PATH, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200 and not response.body
    assert get(client, PATH).status_code == 401
