"""The page cache (``harbormaster.pagecache``): anonymous public pages served again until a
write bumps their token, and never one visitor's page served to another."""

from __future__ import annotations

import random

import pytest
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.messages.storage.session import SessionStorage
from django.contrib.sessions.backends.cache import SessionStore
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.test import Client, RequestFactory
from rest_framework.authtoken.models import Token

from harbormaster import pagecache
from ratings.recompute import recompute_scope
from ratings.scopes import global_scope
from tests.factories import CompetitorFactory, UserFactory, finished_game
from tests.tournaments.played import play_as_people
from tournaments.creation import create_game

HIT = "X-Page-Cache"


def hit(response) -> bool:
    return response.get(HIT) == "hit"


@pytest.fixture
def games(db):
    players = CompetitorFactory.create_batch(3, kind="bot")
    return [finished_game(players, [1, 2, 3]) for _ in range(3)]


@pytest.mark.usefixtures("page_cache", "games")
@pytest.mark.parametrize("path", ["/", "/games/", "/leaderboards/", "/leaderboards/manila/"])
def test_a_cached_page_is_the_fresh_render(client: Client, settings, path: str) -> None:
    first, second = client.get(path), client.get(path)
    assert first.status_code == 200 and not hit(first) and hit(second)
    assert second.content == first.content
    assert second["Content-Type"] == first["Content-Type"]
    settings.PAGECACHE_SECONDS = 0  # the cache off: rendered again, byte for byte the same
    fresh = client.get(path)
    assert not hit(fresh) and fresh.content == second.content
    assert "csrfmiddlewaretoken" not in first.content.decode()
    assert not first.cookies and not second.cookies


@pytest.mark.usefixtures("page_cache", "games")
def test_the_query_string_and_accept_are_part_of_the_key(client: Client) -> None:
    client.get("/leaderboards/manila/")
    assert not hit(client.get("/leaderboards/manila/?by=elo"))
    assert hit(client.get("/leaderboards/manila/?by=elo"))
    json_first = client.get("/api/v1/games/", HTTP_ACCEPT="application/json")
    json_again = client.get("/api/v1/games/", HTTP_ACCEPT="application/json")
    assert not hit(json_first) and hit(json_again)
    assert json_again.content == json_first.content and json_again.json()["results"]
    assert json_again["Content-Type"] == "application/json"
    assert not hit(client.get("/api/v1/games/?page_size=2", HTTP_ACCEPT="application/json"))
    html = client.get("/api/v1/games/", HTTP_ACCEPT="text/html")
    assert not hit(html) and html["Content-Type"].startswith("text/html")


@pytest.mark.usefixtures("page_cache", "games")
def test_the_api_list_with_a_token_is_never_cached(client: Client, user) -> None:
    token = Token.objects.create(user=user)
    auth = {"HTTP_AUTHORIZATION": f"Token {token.key}", "HTTP_ACCEPT": "application/json"}
    assert not hit(client.get("/api/v1/games/", **auth))
    assert not hit(client.get("/api/v1/games/", **auth))
    # Nor did the token holder's requests store a page for anonymous callers.
    assert not hit(client.get("/api/v1/games/", HTTP_ACCEPT="application/json"))
    assert hit(client.get("/api/v1/games/", HTTP_ACCEPT="application/json"))
    assert not hit(client.get("/api/v1/games/", **auth))


@pytest.mark.usefixtures("page_cache", "games")
def test_signed_in_people_are_never_served_nor_store_a_cached_page() -> None:
    ann, bob = UserFactory(username="ann-pc"), UserFactory(username="bob-pc")
    as_ann, as_bob, anonymous = Client(), Client(), Client()
    as_ann.force_login(ann)
    as_bob.force_login(bob)
    for path in ("/", "/leaderboards/"):
        page = as_ann.get(path)
        assert not hit(page) and "ann-pc" in page.content.decode()
        page = as_bob.get(path)
        assert not hit(page) and "bob-pc" in page.content.decode()
        assert "ann-pc" not in page.content.decode()
        first = anonymous.get(path)  # nothing was stored by the two of them
        assert not hit(first) and "Sign in" in first.content.decode()
        assert "bob-pc" not in first.content.decode()
        assert hit(anonymous.get(path))
        again = as_ann.get(path)  # an anonymous page is stored now; Ann still gets hers
        assert not hit(again) and "ann-pc" in again.content.decode()


def _request(method: str = "get", path: str = "/x/") -> HttpRequest:
    request = getattr(RequestFactory(), method)(path)
    request.user = AnonymousUser()
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    return request


def _counting(body):
    calls = []

    @pagecache.cached_page()
    def view(request: HttpRequest) -> HttpResponse:
        calls.append(1)
        return body(request)

    return view, calls


@pytest.mark.usefixtures("page_cache")
def test_post_is_never_cached() -> None:
    view, calls = _counting(lambda request: HttpResponse("posted"))
    for _ in range(2):
        view(_request("post"))
    assert len(calls) == 2
    view(_request())
    view(_request())
    assert len(calls) == 3, "GET: stored once, then served"


@pytest.mark.usefixtures("page_cache")
@pytest.mark.parametrize(
    "body",
    [
        lambda request: HttpResponse(f"<form>{get_token(request)}</form>"),
        lambda request: (messages.info(request, "hello"), HttpResponse("added"))[1],
        lambda request: HttpResponse(" ".join(str(m) for m in messages.get_messages(request))),
        lambda request: (request.session.__setitem__("k", 1), HttpResponse("session"))[1],
        lambda request: HttpResponse("private", headers={"Cache-Control": "private"}),
        lambda request: HttpResponse("missing", status=404),
    ],
    ids=["csrf-token", "message-added", "messages-read", "session-written", "private", "404"],
)
def test_a_response_depending_on_the_session_is_not_stored(body) -> None:
    view, calls = _counting(body)
    for _ in range(2):
        view(_request())
    assert len(calls) == 2


@pytest.mark.usefixtures("page_cache")
def test_a_pending_message_is_neither_shown_nor_consumed_by_a_cached_page(db) -> None:
    finished_game(CompetitorFactory.create_batch(2), [1, 2])
    Client().get("/")  # stored
    visitor = Client()
    session = visitor.session  # a session of their own, with a message waiting in it
    request = _request()
    request.session = session
    storage = SessionStorage(request)
    storage.add(messages.INFO, "signed out")
    storage.update(HttpResponse())
    session.save()
    page = visitor.get("/")
    assert hit(page) and "signed out" not in page.content.decode()
    assert "signed out" in str(visitor.session.get("_messages")), "still waiting"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("page_cache", "eager_referee")
def test_a_game_finishing_through_the_referee_shows_at_once(client: Client) -> None:
    players = CompetitorFactory.create_batch(3, kind="person")
    assert "No rated" in client.get("/leaderboards/manila/").content.decode()
    assert hit(client.get("/leaderboards/manila/"))
    home = client.get("/")
    assert hit(client.get("/"))
    before = pagecache.tokens(pagecache.PUBLIC)
    game = create_game("manila", players, seed="cached")
    assert pagecache.tokens(pagecache.PUBLIC) != before, "creating a game bumps"
    created = pagecache.tokens(pagecache.PUBLIC)
    play_as_people(game, random.Random(3))
    game.refresh_from_db()
    assert game.status == game.Status.FINISHED
    assert pagecache.tokens(pagecache.PUBLIC) != created, "finishing it bumps"
    page = client.get("/")
    assert not hit(page) and f'href="/games/{game.pk}/"' in page.content.decode()
    assert page.content != home.content
    board = client.get("/leaderboards/manila/")
    assert not hit(board)
    shown = board.content.decode()
    assert "No rated" not in shown and all(p.name in shown for p in players)


@pytest.mark.usefixtures("page_cache", "games")
def test_a_rating_recompute_bumps(client: Client, django_capture_on_commit_callbacks) -> None:
    client.get("/leaderboards/manila/")
    assert hit(client.get("/leaderboards/manila/"))
    with django_capture_on_commit_callbacks(execute=True):
        recompute_scope(global_scope("manila"))
    assert not hit(client.get("/leaderboards/manila/"))


@pytest.mark.usefixtures("page_cache")
def test_renaming_a_competitor_bumps_people(db, django_capture_on_commit_callbacks) -> None:
    competitor = CompetitorFactory()
    before = pagecache.tokens([pagecache.PEOPLE, pagecache.RESULTS])
    with django_capture_on_commit_callbacks(execute=True):
        competitor.name = "renamed"
        competitor.save()
    after = pagecache.tokens([pagecache.PEOPLE, pagecache.RESULTS])
    assert after[0] != before[0] and after[1] == before[1]


@pytest.mark.usefixtures("page_cache")
def test_a_sign_in_does_not_bump(db, django_capture_on_commit_callbacks) -> None:
    user = UserFactory()
    before = pagecache.tokens(pagecache.PUBLIC)
    with django_capture_on_commit_callbacks(execute=True):
        user.save(update_fields=["last_login"])
    assert pagecache.tokens(pagecache.PUBLIC) == before


@pytest.mark.usefixtures("page_cache")
def test_a_lost_token_is_replaced_by_a_new_one() -> None:
    from django.core.cache import cache

    before = pagecache.tokens([pagecache.RESULTS])
    assert pagecache.tokens([pagecache.RESULTS]) == before
    cache.delete("pagecache:token:" + pagecache.RESULTS)
    assert pagecache.tokens([pagecache.RESULTS]) != before
