"""The lobby's pages, buttons and JSON: anonymous and signed in, empty and busy."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from lobby import services
from lobby.models import LobbyTable

from .conftest import bot, person, seat_names, snapshot

pytestmark = pytest.mark.django_db

LOBBY = "/lobby/"


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def table_of(host, players=4, seats=None, **kwargs) -> LobbyTable:
    seats = [None] * (players - 1) if seats is None else seats
    return services.create_table(
        host, kwargs.get("engine", "manila"), players, "quick", kwargs.get("rated", False), seats
    )


# ------------------------------------------------------------------ the lobby page
def test_an_empty_lobby_invites_anonymous_visitors_to_sign_in(client) -> None:
    page = client.get(LOBBY)
    assert page.status_code == 200
    html = page.content.decode()
    assert "No table is open right now." in html
    assert f"{reverse('account_login')}?next=/lobby/" in html
    assert "Create a table" not in html  # the form is for people who are signed in
    assert 'href="/lobby/"' in html  # the navigation's Play link


def test_the_lobby_lists_open_tables_with_their_seats(client, host, greedy) -> None:
    table = table_of(host, seats=[greedy.pk, None, None])
    cancelled = table_of(host)
    services.cancel(cancelled, host)
    html = client.get(LOBBY).content.decode()
    assert f'href="/lobby/tables/{table.pk}/"' in html
    assert f'href="/lobby/tables/{cancelled.pk}/"' not in html
    assert "Manila" in html and "2/4" in html and "examples/greedy" in html and "hana" in html
    assert "Quick" in html and "30 s a move + 2 min bank" in html and "unrated" in html
    assert f"next=/lobby/tables/{table.pk}/" in html  # "Sign in to join"


def test_a_signed_in_person_sees_join_their_tables_games_and_the_form(host, guest, greedy):
    joinable = table_of(host)
    theirs = table_of(guest, engine="cargo_noir", players=2)
    bot(guest, "mine", engines=["manila", "batavia"])
    started = table_of(guest, engine="grog_island", players=2, seats=[greedy.pk])
    html = client_of(guest).get(LOBBY).content.decode()
    assert f'action="/lobby/tables/{joinable.pk}/join/"' in html
    assert f'action="/lobby/tables/{theirs.pk}/join/"' not in html  # their own: no Join
    assert "Your tables" in html and "Your games" in html
    assert html.count(f'data-table="{theirs.pk}"') == 1  # under theirs, not the open ones
    started.refresh_from_db()
    assert f'href="/games/{started.game_id}/play/"' in html
    assert "Create a table" in html and 'name="csrfmiddlewaretoken"' in html
    # Bots to choose: the example bots first, then their own, each as owner/name.
    assert html.index("examples/greedy") < html.index("gus/mine")
    assert 'data-engines="manila batavia"' in html
    assert 'data-min="3" data-max="5"' in html  # Manila's players


def test_creating_a_table_through_the_form(host, greedy) -> None:
    client = client_of(host)
    answer = client.post(
        "/lobby/tables/",
        {
            "engine": "manila",
            "num_players": "4",
            "time_control": "relaxed",
            "seat_1": str(greedy.pk),
            "seat_2": "",
            "seat_3": "",
            "seat_4": str(greedy.pk),  # beyond the players: ignored
        },
    )
    table = LobbyTable.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/lobby/tables/{table.pk}/"
    assert seat_names(table) == ["hana", "examples/greedy", None, None]
    assert table.time_control == "relaxed" and table.rated is False


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"time_control": "blitz"}, "Select a valid choice"),
        ({"engine": "chess"}, "Select a valid choice"),
        ({"num_players": "2"}, "Manila is for 3 to 5 players, not 2"),
        ({"seat_1": "x"}, "is not a bot&#x27;s number"),
        ({"seat_1": "999999"}, "seat 2: no bot 999999 among yours"),
        ({"rated": "on", "seat_1": "GREEDY"}, "/me/"),
    ],
)
def test_a_bad_form_says_what_to_change_and_changes_nothing(host, greedy, fields, words) -> None:
    data = {"engine": "manila", "num_players": "3", "time_control": "quick"}
    data.update({k: (str(greedy.pk) if v == "GREEDY" else v) for k, v in fields.items()})
    before = snapshot()
    answer = client_of(host).post("/lobby/tables/", data)
    assert answer.status_code == 400
    assert words in answer.content.decode()
    assert snapshot() == before


def test_anonymous_posts_go_to_sign_in_and_change_nothing(client, host) -> None:
    table = table_of(host)
    before = snapshot()
    answer = client.post(f"/lobby/tables/{table.pk}/join/")
    assert answer.status_code == 302
    assert answer["Location"] == f"{reverse('account_login')}?next=/lobby/tables/{table.pk}/"
    assert client.post("/lobby/tables/", {"engine": "manila"}).status_code == 302
    assert snapshot() == before


def test_posts_need_csrf(host) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(host)
    table = table_of(host)
    assert client.post(f"/lobby/tables/{table.pk}/cancel/").status_code == 403
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.OPEN


# ------------------------------------------------------------------ the table page
def test_the_table_page_for_a_visitor_a_guest_and_the_host(client, host, guest, greedy) -> None:
    table = table_of(host, seats=[greedy.pk, None, None])
    url = f"/lobby/tables/{table.pk}/"
    anonymous = client.get(url).content.decode()
    assert "Sign in to join" in anonymous and "examples/greedy" in anonymous
    assert "Remove" not in anonymous and "Cancel the table" not in anonymous
    as_guest = client_of(guest).get(url).content.decode()
    assert "Join this table" in as_guest and "Seat this bot" not in as_guest
    as_host = client_of(host).get(url).content.decode()
    assert "Cancel the table" in as_host and "Remove" in as_host and "Seat this bot" in as_host
    assert "Join this table" not in as_host


def test_join_leave_and_start_through_the_buttons(host, guest) -> None:
    table = table_of(host, engine="cargo_noir", players=3)
    client = client_of(guest)
    answer = client.post(f"/lobby/tables/{table.pk}/join/")
    assert answer["Location"] == f"/lobby/tables/{table.pk}/"
    assert "You have a seat." in client.get(answer["Location"]).content.decode()
    client.post(f"/lobby/tables/{table.pk}/leave/")
    assert seat_names(table) == ["hana", None, None]
    client.post(f"/lobby/tables/{table.pk}/join/")
    last = client_of(person("tess")).post(f"/lobby/tables/{table.pk}/join/")
    table.refresh_from_db()
    assert table.status == LobbyTable.Status.STARTED
    assert last["Location"] == f"/games/{table.game_id}/play/"
    page = client.get(f"/lobby/tables/{table.pk}/").content.decode()
    assert f'href="/games/{table.game_id}/play/"' in page


def test_a_refused_button_shows_why_and_changes_nothing(host, guest, greedy) -> None:
    table = table_of(host, seats=[greedy.pk, None, None])
    client = client_of(guest)
    before = snapshot()
    answer = client.post(f"/lobby/tables/{table.pk}/bots/", {"bot": greedy.pk})
    assert answer["Location"] == f"/lobby/tables/{table.pk}/"
    page = client.get(answer["Location"]).content.decode()
    assert "Only the table&#x27;s host may do that." in page
    assert snapshot() == before


def test_the_host_seats_and_removes_a_bot(host, greedy) -> None:
    table = table_of(host)
    client = client_of(host)
    client.post(f"/lobby/tables/{table.pk}/bots/", {"bot": greedy.pk, "position": 2})
    assert seat_names(table) == ["hana", None, "examples/greedy", None]
    client.post(f"/lobby/tables/{table.pk}/seats/remove/", {"position": 2})
    assert seat_names(table) == ["hana", None, None, None]
    answer = client.post(f"/lobby/tables/{table.pk}/cancel/")
    assert answer["Location"] == "/lobby/"


def test_no_page_for_a_missing_table(client) -> None:
    assert client.get("/lobby/tables/999999/").status_code == 404
    assert client.get("/lobby/tables/999999.json").status_code == 404


def test_pages_refuse_other_methods(client, host) -> None:
    table = table_of(host)
    assert client.post(LOBBY).status_code == 405
    assert client_of(host).get(f"/lobby/tables/{table.pk}/join/").status_code == 405


# ------------------------------------------------------------------ JSON
def test_the_tables_json(client, host, guest, greedy) -> None:
    table = table_of(host, seats=[greedy.pk, None, None], rated=False)
    data = client.get("/lobby/tables.json").json()
    assert data["yourTables"] == [] and data["yourGames"] == []
    (row,) = data["tables"]
    assert row["id"] == table.pk and row["status"] == "open" and row["engine"] == "manila"
    assert (row["taken"], row["total"], row["rated"], row["host"]) == (2, 4, False, "hana")
    assert [seat["kind"] for seat in row["seats"]] == ["person", "bot", "open", "open"]
    assert row["seats"][1]["name"] == "examples/greedy"
    assert row["playUrl"] is None and "html" in data
    mine = client_of(host).get("/lobby/tables.json").json()
    assert [t["id"] for t in mine["yourTables"]] == [table.pk]
    assert mine["yourTables"][0]["seats"][0]["you"] is True


def test_the_table_json_leads_to_the_play_page_once_started(client, host, guest) -> None:
    table = table_of(host, engine="cargo_noir", players=2)
    data = client.get(f"/lobby/tables/{table.pk}.json").json()
    assert data["status"] == "open" and data["playUrl"] is None
    assert "open for a person" in data["html"]
    services.join(table, guest)
    table.refresh_from_db()
    data = client.get(f"/lobby/tables/{table.pk}.json").json()
    assert data["status"] == "started" and data["game"] == table.game_id
    assert data["playUrl"] == f"/games/{table.game_id}/play/"
    assert client.get(f"/lobby/tables/{table.pk}.json")["Cache-Control"].startswith("max-age=0")


def test_games_started_at_a_table_are_listed_to_watch_but_not_to_their_players(
    client, host, guest
) -> None:
    table = table_of(host, engine="cargo_noir", players=2)
    assert "Being played now" not in client.get(LOBBY).content.decode()
    services.join(table, guest)
    table.refresh_from_db()
    watch = f'href="/games/{table.game_id}/play/">Watch</a>'
    assert watch in client.get(LOBBY).content.decode()  # anyone may watch
    assert watch in client_of(person("tess")).get(LOBBY).content.decode()
    assert watch not in client_of(guest).get(LOBBY).content.decode()  # a player plays it
    (live,) = client.get("/lobby/tables.json").json()["liveGames"]
    assert live == {
        "id": table.game_id,
        "engineName": "Cargo Noir",
        "watchUrl": f"/games/{table.game_id}/play/",
    }
    Game.objects.filter(pk=table.game_id).update(status=Game.Status.FINISHED)
    assert client.get("/lobby/tables.json").json()["liveGames"] == []


# ------------------------------------------------------------------ queries
def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def tables(n: int, greedy) -> None:
    for i in range(n):
        host = person(f"host{i}-{LobbyTable.objects.count()}")
        table_of(host, seats=[greedy.pk, None, None])
        services.join(LobbyTable.objects.latest("pk"), person(f"guest{i}-{host.pk}"))


def test_the_lobby_page_costs_the_same_with_more_tables(host, greedy) -> None:
    client = client_of(host)
    table_of(host)
    tables(2, greedy)
    small = (queries(client, LOBBY), queries(client, "/lobby/tables.json"))
    tables(6, greedy)
    large = (queries(client, LOBBY), queries(client, "/lobby/tables.json"))
    assert small == large, (small, large)
    assert LobbyTable.objects.count() == 9
