"""The page cache (``web.cache.pagecache``): anonymous public pages served again until a
write bumps their token, and never one visitor's page served to another."""

from __future__ import annotations

import random
import re

import pytest
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.messages.storage.session import SessionStorage
from django.contrib.sessions.backends.cache import SessionStore
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import _unmask_cipher_token, get_token
from django.test import Client, RequestFactory, override_settings
from rest_framework.authtoken.models import Token

from games.creation import create_game
from games.models import Game, Seat
from ratings.recompute import recompute_scope
from ratings.scopes import global_scope
from tests.factories import CompetitorFactory, GameFactory, UserFactory, finished_game
from tests.tournaments.ladders import ladder
from tests.tournaments.played import play_as_people
from web.cache import pagecache

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


def _csrf_secret(client: Client) -> str:
    return client.cookies[settings.CSRF_COOKIE_NAME].value


def _page_csrf_secret(page: str) -> str:
    """The secret behind the page's (masked) CSRF token."""
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    return _unmask_cipher_token(token)


@pytest.mark.usefixtures("page_cache", "games")
@pytest.mark.parametrize("path", ["/", "/leaderboards/", "/leaderboards/manila/", "/games/"])
def test_signed_in_people_get_the_cached_content_with_their_own_header(path: str) -> None:
    ann, bob = UserFactory(username="ann-pc"), UserFactory(username="bob-pc")
    as_ann, as_bob, anonymous = Client(), Client(), Client()
    as_ann.force_login(ann)
    as_bob.force_login(bob)
    first = as_ann.get(path)
    assert not hit(first) and "ann-pc" in first.content.decode()
    page = as_bob.get(path)  # the content Ann's request stored, Bob's header
    shown = page.content.decode()
    assert hit(page) and "bob-pc" in shown and "ann-pc" not in shown
    assert _page_csrf_secret(shown) == _csrf_secret(as_bob) != _csrf_secret(as_ann)
    assert "Sign out" in shown and "Sign in" not in shown
    main = re.compile(r"<main>.*</main>", re.S)
    assert main.search(shown).group(0) == main.search(first.content.decode()).group(0)
    with override_settings(PAGECACHE_SECONDS=0):
        fresh = as_bob.get(path).content.decode()
    same = re.sub(r'value="[^"]+"', "", fresh) == re.sub(r'value="[^"]+"', "", shown)
    assert same, "byte for byte the page Bob is rendered, but for the CSRF mask"
    visitor = anonymous.get(path)  # signed-in requests stored nothing anonymous
    assert not hit(visitor) and "Sign in" in visitor.content.decode()
    assert "bob-pc" not in visitor.content.decode() and "ann-pc" not in visitor.content.decode()
    assert "csrfmiddlewaretoken" not in visitor.content.decode()
    assert hit(anonymous.get(path))
    again = as_ann.get(path)
    assert hit(again) and "ann-pc" in again.content.decode()
    assert "bob-pc" not in again.content.decode()


@pytest.mark.usefixtures("page_cache")
def test_signed_in_visitors_see_a_write_at_once(db, django_capture_on_commit_callbacks) -> None:
    players = CompetitorFactory.create_batch(3, kind="bot")
    finished_game(players, [1, 2, 3])
    visitor = Client()
    visitor.force_login(UserFactory())
    visitor.get("/leaderboards/manila/")
    assert hit(visitor.get("/leaderboards/manila/"))
    with django_capture_on_commit_callbacks(execute=True):
        players[0].name = "renamed-for-the-cache"
        players[0].save()
    page = visitor.get("/leaderboards/manila/")
    assert not hit(page) and "renamed-for-the-cache" in page.content.decode()


def _signed_in_request(path: str = "/x/") -> HttpRequest:
    request = _request(path=path)
    request.user = UserFactory()
    return request


def _page(content: str) -> str:
    return f'<title>t</title><header class="site-header">who</header><main>{content}</main>'


@pytest.mark.django_db
@pytest.mark.usefixtures("page_cache")
@pytest.mark.parametrize(
    "body",
    [
        lambda request: HttpResponse(
            _page(f'<input name="csrfmiddlewaretoken" value="{get_token(request)}">')
        ),
        lambda request: (messages.info(request, "hello"), HttpResponse(_page("added")))[1],
        lambda request: (request.session.__setitem__("k", 1), HttpResponse(_page("s")))[1],
        lambda request: HttpResponse(_page("private"), headers={"Cache-Control": "private"}),
        lambda request: HttpResponse(_page("missing"), status=404),
        lambda request: HttpResponse("no site header to cut out"),
    ],
    ids=["csrf-in-content", "message-added", "session-written", "private", "404", "no-header"],
)
def test_a_signed_in_page_depending_on_the_person_is_not_stored(body) -> None:
    view, calls = _counting(body)
    for _ in range(2):
        view(_signed_in_request())
    assert len(calls) == 2


@pytest.mark.django_db
@pytest.mark.usefixtures("page_cache")
def test_a_signed_in_page_with_its_header_cut_out_is_stored() -> None:
    view, calls = _counting(lambda request: HttpResponse(_page("the same for all")))
    view(_signed_in_request())
    served = view(_signed_in_request())
    assert len(calls) == 1 and hit(served)
    shown = served.content.decode()
    assert shown.startswith("<title>t</title>") and shown.endswith("<main>the same for all</main>")
    assert '<header class="site-header">' in shown and "who" not in shown


@pytest.mark.django_db
@pytest.mark.usefixtures("page_cache")
def test_an_api_view_is_not_served_to_signed_in_people() -> None:
    calls = []

    def render() -> HttpResponse:
        calls.append(1)
        return HttpResponse(_page("json"))

    for _ in range(2):
        pagecache.serve(_signed_in_request(), render)  # signed_in False: the API's default
    assert len(calls) == 2


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


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.usefixtures("page_cache")
@pytest.mark.parametrize(
    "query, accept",
    [("", "application/json"), ("?format=csv", "*/*"), ("", "text/csv"), ("?kind=bot", "*/*")],
)
def test_the_leaderboard_api_is_cached_by_query_and_accept(
    db, django_capture_on_commit_callbacks, query: str, accept: str
) -> None:
    people = ladder("manila", [float(i) for i in range(30)])
    path = f"/api/v1/leaderboards/manila/{query}"
    anonymous = Client()
    first = anonymous.get(path, HTTP_ACCEPT=accept)
    second = anonymous.get(path, HTTP_ACCEPT=accept)
    assert first.status_code == 200 and not hit(first) and hit(second)
    assert _body(second) == _body(first) and people[-1].name.encode() in _body(first)
    for header in ("Content-Type", "Content-Disposition"):
        assert second.get(header) == first.get(header)
    other = "text/csv" if accept != "text/csv" else "application/json"
    assert not hit(anonymous.get(path, HTTP_ACCEPT=other)), "JSON and CSV never mix"
    with django_capture_on_commit_callbacks(execute=True):
        people[-1].name = "renamed-on-the-board"
        people[-1].save()
    fresh = anonymous.get(path, HTTP_ACCEPT=accept)
    assert not hit(fresh) and b"renamed-on-the-board" in _body(fresh)


@pytest.mark.usefixtures("page_cache")
def test_the_leaderboard_api_with_a_token_or_a_session_is_never_cached(db, user) -> None:
    ladder("manila", [1.0, 2.0])
    token = Token.objects.create(user=user)
    with_token = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    signed_in = Client()
    signed_in.force_login(user)
    for caller in (with_token, signed_in, with_token, signed_in):
        answer = caller.get("/api/v1/leaderboards/manila/?format=csv")
        assert answer.status_code == 200 and not hit(answer)
    assert not hit(Client().get("/api/v1/leaderboards/manila/?format=csv")), "they stored none"


@pytest.mark.usefixtures("page_cache")
def test_a_long_csv_export_is_streamed_and_not_stored(db, monkeypatch) -> None:
    ladder("manila", [float(i) for i in range(30)])
    monkeypatch.setattr(pagecache, "MAX_STREAMED_BYTES", 200)
    whole = _body(Client().get("/api/v1/leaderboards/manila/?format=csv"))
    again = Client().get("/api/v1/leaderboards/manila/?format=csv")
    assert again.streaming and not hit(again) and _body(again) == whole
    assert whole.count(b"\n") == 31


@pytest.mark.usefixtures("page_cache")
def test_an_unknown_engine_is_not_stored(db) -> None:
    for _ in range(2):
        answer = Client().get("/api/v1/leaderboards/chess/?format=csv")
        assert answer.status_code == 404 and not hit(answer)


@pytest.mark.usefixtures("page_cache", "games")
def test_a_finished_games_page_is_cached_for_everyone() -> None:
    game = Game.objects.filter(status=Game.Status.FINISHED).first()
    path = f"/games/{game.pk}/"
    anonymous, signed_in = Client(), Client()
    signed_in.force_login(UserFactory(username="reader-pc"))
    first = anonymous.get(path)
    assert not hit(first) and hit(anonymous.get(path))
    page = signed_in.get(path)  # the visitor's page, with the reader's header
    assert hit(page) and "reader-pc" in page.content.decode()
    assert "Cache-Control" not in first or "private" not in first["Cache-Control"]


@pytest.mark.usefixtures("page_cache")
def test_a_running_games_page_is_private_and_never_stored(db) -> None:
    holder = UserFactory(username="holder-pc")
    person = CompetitorFactory(kind="person", user=holder)
    game = GameFactory(num_players=3, status=Game.Status.RUNNING)
    Seat.objects.create(game=game, position=0, competitor=person)
    for position in (1, 2):
        Seat.objects.create(game=game, position=position, competitor=CompetitorFactory())
    path = f"/games/{game.pk}/"
    as_holder, stranger, anonymous = Client(), Client(), Client()
    as_holder.force_login(holder)
    stranger.force_login(UserFactory())
    for client in (as_holder, stranger, anonymous, as_holder, stranger, anonymous):
        page = client.get(path)
        assert page.status_code == 200 and not hit(page)
        assert "private" in page["Cache-Control"]


@pytest.fixture
def public_pages(db) -> tuple[list[str], list]:
    """Every kind of ``@cached_page`` page with something on it, and who may view them.

    The viewers are a stranger, the person whose page it is and the bot's owner:
    the people most likely to be shown something of their own.
    """
    from people.services import ensure_person
    from ratings.services import apply_game_result
    from tests.factories import BotFactory, LeagueFactory

    person = ensure_person(UserFactory(username="pat-pc", password=None))
    bot = BotFactory(name="skiff", owner=UserFactory(username="olga-pc", password=None))
    game = finished_game([person.competitor, bot.competitor, CompetitorFactory()], [1, 2, 3])
    apply_game_result(game)
    league = LeagueFactory()
    paths = ["/", "/games/", "/leaderboards/", "/leaderboards/manila/", f"/games/{game.pk}/"]
    paths += ["/people/pat-pc/", "/bots/olga-pc/skiff/", f"/leagues/{league.slug}/"]
    viewers = [UserFactory(username="stranger-pc", password=None), person.user, bot.owner]
    return paths, viewers


def _around_header(content: bytes) -> tuple[bytes, bytes]:
    start = content.index(pagecache.HEADER_OPEN)
    end = content.index(pagecache.HEADER_CLOSE, start) + len(pagecache.HEADER_CLOSE)
    return content[:start], content[end:]


@override_settings(PAGECACHE_SECONDS=0)
def test_every_cached_page_is_the_same_for_visitors_and_signed_in_people_outside_the_header(
    public_pages,
) -> None:
    paths, viewers = public_pages
    for path in paths:
        visitor = Client().get(path)
        assert visitor.status_code == 200, path
        for user in viewers:
            viewer = Client()
            viewer.force_login(user)
            page = viewer.get(path)
            assert page.status_code == 200, path
            assert user.username in page.content.decode()  # their header
            assert _around_header(page.content) == _around_header(visitor.content), (path, user)


@pytest.mark.usefixtures("page_cache")
def test_a_page_a_visitor_stored_serves_signed_in_people_with_their_own_header(
    public_pages,
) -> None:
    paths, viewers = public_pages
    for path in paths:
        visitor = Client().get(path)
        assert not hit(visitor) and hit(Client().get(path)), path  # stored by the visitor
        for user in viewers:
            viewer = Client()
            viewer.force_login(user)
            page = viewer.get(path)
            assert hit(page), path
            shown = page.content.decode()
            assert _page_csrf_secret(shown) == _csrf_secret(viewer)  # their own sign-out form
            with override_settings(PAGECACHE_SECONDS=0):
                fresh = viewer.get(path)
            unmasked = [re.sub(r'value="[^"]+"', "", p.content.decode()) for p in (page, fresh)]
            assert unmasked[0] == unmasked[1], (path, user.username)


CACHE_OPERATIONS = (
    "get", "get_many", "set", "set_many", "add", "delete", "delete_many", "incr", "touch",
    "has_key", "get_or_set",
)  # fmt: skip


def counting_cache_calls(monkeypatch) -> list[str]:
    """The names of the operations on the default cache from now on, by anyone (the session,
    the user, the page cache...): each a round trip with Redis. One an operation: those a
    backend's own operations call (LocMemCache's ``get_many`` calls ``get``) are not counted."""
    calls: list[str] = []
    backend = caches["default"]
    depth = [0]

    def counted(name: str, real):
        def operation(*args, **kwargs):
            if not depth[0]:
                calls.append(name)
            depth[0] += 1
            try:
                return real(*args, **kwargs)
            finally:
                depth[0] -= 1

        return operation

    for name in CACHE_OPERATIONS:
        monkeypatch.setattr(backend, name, counted(name, getattr(backend, name)))
    return calls


@pytest.mark.usefixtures("page_cache", "games")
def test_a_warm_page_is_one_cache_round_trip_and_a_bump_retires_it(
    client: Client, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    first = client.get("/games/")
    calls = counting_cache_calls(monkeypatch)
    served = client.get("/games/")
    assert hit(served) and served.content == first.content
    assert calls == ["get_many"], "the tokens and the page in one read"
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.bump_on_commit(pagecache.RESULTS)
    assert not hit(client.get("/games/"))  # stored at the old version: never served again
    assert hit(client.get("/games/"))


@pytest.mark.usefixtures("page_cache")
def test_a_quiet_marker_is_not_read_again_until_a_bump(
    db, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """A marker read quiet ("") is remembered at the tokens' version: the section is then one
    cache read and no marker; a marker that moves is read every time and keys the section."""
    reads: list[str] = []
    marker_now = [""]

    def marker() -> str:
        reads.append(marker_now[0])
        return marker_now[0]

    def render() -> str:
        return f"section at {marker_now[0] or 'quiet'}"

    def section() -> str:
        return pagecache.fragment(["log"], [pagecache.RESULTS], render, marker=marker)

    assert section() == "section at quiet" and reads == [""]
    calls = counting_cache_calls(monkeypatch)
    assert section() == "section at quiet" and reads == [""], "quiet: not read again"
    assert calls == ["get_many"]
    monkeypatch.undo()
    marker_now[0] = "7:12"  # moved without a bump: the contract says this cannot happen
    assert section() == "section at quiet", "so the remembered quiet reading is served"
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.bump_on_commit(pagecache.RESULTS)  # a game created
    assert section() == "section at 7:12" and reads == ["", "7:12"]
    assert section() == "section at 7:12" and reads == ["", "7:12", "7:12"], "moving: read"
    marker_now[0] = "7:13"
    assert section() == "section at 7:13", "a new marker is a new section"
    marker_now[0] = ""  # the game finished (which bumps too, but quiet alone must suffice)
    assert section() == "section at quiet" and reads[-1] == ""
    assert section() == "section at quiet" and reads.count("") == 2


@pytest.mark.usefixtures("page_cache")
def test_an_own_page_is_kept_under_exactly_its_inputs(db) -> None:
    """``made_of``: the same inputs serve the kept page; inputs that join to the same text but
    differ ("ab", "c" against "a", "bc") are another page; a pending message renders."""
    request = RequestFactory().get("/own/")
    request.user = UserFactory(password=None)
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    renders: list[int] = []

    def render() -> HttpResponse:
        renders.append(1)
        field = f'<input type="hidden" name="csrfmiddlewaretoken" value="{get_token(request)}">'
        return HttpResponse(f'<header class="site-header">h</header>{field}{len(renders)}')

    first = pagecache.made_of(request, ["ab", "c"], render)
    again = pagecache.made_of(request, ["ab", "c"], render)
    assert again[pagecache._HIT_HEADER] == "hit" and len(renders) == 1
    assert again.content.endswith(b">1") and first.content.endswith(b">1")
    assert b"\x00" not in again.content, "the token's place filled"
    assert pagecache.made_of(request, ["a", "bc"], render).content.endswith(b">2")
    messages.info(request, "saved")
    assert pagecache.made_of(request, ["ab", "c"], render).content.endswith(b">3")


@pytest.mark.usefixtures("page_cache")
def test_a_stored_fragment_is_one_cache_round_trip_and_a_bump_retires_it(
    db, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    renders: list[str] = []

    def render() -> str:
        renders.append("rendered")
        return f"section {len(renders)}"

    assert pagecache.fragment(["part"], [pagecache.RESULTS], render) == "section 1"
    calls = counting_cache_calls(monkeypatch)
    assert pagecache.fragment(["part"], [pagecache.RESULTS], render) == "section 1"
    assert calls == ["get_many"]
    monkeypatch.undo()
    assert pagecache.fragment(["other part"], [pagecache.RESULTS], render) == "section 2"
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.bump_on_commit(pagecache.RESULTS)
    assert pagecache.fragment(["part"], [pagecache.RESULTS], render) == "section 3"
    assert pagecache.fragment(["part"], [pagecache.PEOPLE], render) == "section 4"  # other tokens
