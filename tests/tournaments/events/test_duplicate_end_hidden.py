"""A duplicate set's finished game shows no end while its set still plays the same deal.

The end position and the last ply's events hold the outcome and what engines
reveal at the end (``final``; Grog Island's ``revealed`` objectives and
treasures; Manila's every seat's shares, in ``final``; the ``game_over``
event with scores and ranks). While another game of the set is on, every
surface shows the finished game as it was before its last ply
(``spectator.shown``): the board replay, the game API, the game page, the
record export, the standings, the live socket and the bot API, to an anonymous
visitor and to the owner of a bot still playing the set. Once the set is over,
the end is shown.

The event runs through the services (entries, start, the referee): its one
table plays three rotations of one deal; the first is played move by move
through ``referee.submit``, so its last move is claimed with the finish.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.utils.html import escape
from rest_framework.test import APIClient

import engines
from games.models import Game, Move
from tests.tournaments.play.conftest import IN_MEMORY, Socket
from tournaments import events
from tournaments.models import Tournament
from web.games import seat_texts
from web.games.ply_window import SIZE

from .conftest import finish_games, make_event, people, play_out, pull_bots, running_games

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_referee"),
]

END_KEYS = {"final", "revealed", "letters", "outcome"}
"""Keys engines put in a view only once the game is over."""


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_anywhere(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_anywhere(v)}
    return set()


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


class Deal:
    """The first finished game of the set, with its states before and at its end."""

    def __init__(self, game: Game) -> None:
        self.game = game
        log = list(Move.objects.filter(game=game).order_by("ply").values_list("seat", "action"))
        self.plies = len(log)
        replay = engines.replay
        self.before = replay(game.engine, game.num_players, game.options, log[:-1])
        self.end = replay(game.engine, game.num_players, game.options, log)
        assert self.end.is_over and not self.before.is_over
        (self.game_over,) = [e for e in self.end.events if e["type"] == "game_over"]
        self.game_over_text = self.end.engine.describe_event(self.game_over)
        # As the game page says it, its seats named (the socket's log names them in JS).
        names = {seat.position: seat.competitor.name for seat in game.seats.all()}
        self.game_over_page_text = seat_texts.with_names(self.game_over_text, names)


def surfaces(deal: Deal, web: Client, api: APIClient, seat: int | None) -> dict[str, Any]:
    """What every surface shows of the game, for the client's user (``seat``: one they hold)."""
    pk = deal.game.pk
    last = deal.plies - 1  # the last ply: the highest start a board page may be asked for
    asked = "spectator" if seat is None else str(seat)
    boards = web.get(f"/games/{pk}/boards.json?seat={asked}&start={max(0, last - 5)}")
    assert boards.status_code == 200, boards.content
    return {
        "boards": boards.json(),
        "boards_end": web.get(f"/games/{pk}/boards.json?start={deal.plies}"),
        "api": api.get(f"/api/v1/games/{pk}/").json(),
        "page": web.get(f"/games/{pk}/?plies={last // SIZE * SIZE}").content.decode(),
        "record": api.get(f"/api/v1/games/{pk}/record/"),
        "standings": web.get(f"/tournaments/{deal.game.tournament_id}/standings.csv").content,
    }


def socket_frame(game_id: int, user: Any = None) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        socket = Socket(game_id, user)
        frame = await socket.open()
        await socket.close()
        return frame

    return async_to_sync(scenario)()


def leaks(deal: Deal, seen: dict[str, Any], seat: int | None, who: str) -> list[str]:
    """The surfaces (``who``: whose) that show more than the position before the end."""
    board, record = seen["boards"], seen["api"]
    views = [p["model"]["view"] for p in board["positions"]]
    last = board["positions"][-1]
    kinds = {e["type"] for m in record["moves"] for e in m["events"]}
    checks = {
        "boards.json public": board["public"] is False,
        "boards.json positions": board["total"] == deal.plies and last["move"] is None,
        "boards.json last view": last["model"]["view"] == plain(deal.before.view(seat)),
        "boards.json end keys": not END_KEYS & keys_anywhere(views),
        "boards.json end position": seen["boards_end"].status_code == 400,
        "api outcome and seed": record["outcome"] is None and record["seed"] is None,
        "api moves": len(record["moves"]) == deal.plies - 1,
        "api game_over": "game_over" not in kinds,
        "api ranks": all(s["rank"] is None and s["score"] is None for s in record["seats"]),
        "page game_over": escape(deal.game_over_page_text) not in seen["page"],
        "page seed": deal.game.seed not in seen["page"],
        "record export": seen["record"].status_code == 409,
        "standings.csv": seen["standings"] == seen["standings_before"],
    }
    return [f"{who}: {name}" for name, hidden in checks.items() if not hidden]


def assert_end_shown(deal: Deal, seen: dict[str, Any]) -> None:
    board = seen["boards"]
    assert board["public"] is True and board["total"] == deal.plies + 1
    assert board["positions"][-1]["model"]["view"] == plain(deal.end.view(None))
    assert END_KEYS & keys_anywhere(board["positions"][-1]["model"]["view"])
    record = seen["api"]
    assert record["outcome"] is not None and len(record["moves"]) == deal.plies
    assert record["moves"][-1]["events"][-1] == plain(deal.game_over)
    assert escape(deal.game_over_page_text) in seen["page"]
    assert seen["record"].status_code == 200


@pytest.mark.parametrize("slug", ["manila", "grog_island"])
def test_a_finished_game_shows_no_end_while_its_set_plays_the_deal(slug, settings) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    event = make_event(engine=slug, duplicate=True, rounds=1)
    events.open_entries(event)
    (person,) = people(1)
    bots = pull_bots(2, engines=[slug])
    events.enter(event, person, by=person.user)
    for bot in bots:
        events.enter(event, bot.competitor, by=bot.owner)
    events.start(event)
    first, *others = running_games(event)
    assert len(others) == 2 and {g.seed for g in others} == {first.seed}
    owner, bot = bots[0].owner, bots[0]
    seat_of = {s.competitor_id: s.position for s in first.seats.all()}
    anonymous, signed_in = (Client(), APIClient()), (Client(), APIClient())
    signed_in[0].force_login(owner)
    signed_in[1].force_authenticate(owner)
    standings_before = anonymous[0].get(f"/tournaments/{event.pk}/standings.csv").content

    play_out([first], seed=3)  # every move through referee.submit: the last one finishes it
    first.refresh_from_db()
    assert first.status == Game.Status.FINISHED
    deal = Deal(first)

    found: list[str] = []
    for (web, api), seat, who in [
        (anonymous, None, "anonymous"),
        (signed_in, seat_of[bot.competitor_id], "bot owner"),
    ]:
        seen = surfaces(deal, web, api, seat)
        seen["standings_before"] = standings_before
        found += leaks(deal, seen, seat, who)
    games = signed_in[1].get(f"/api/v1/bots/{bot.pk}/games/").json()["results"]
    (listed,) = [g for g in games if g["id"] == first.pk]
    if listed["seed"] is not None or listed["outcome"] is not None:
        found.append("bot API: game seed or outcome")
    moves = signed_in[1].get(f"/api/v1/bots/{bot.pk}/games/{first.pk}/moves/").json()
    if any(m["seat"] < 0 for m in moves["results"]):
        found.append("bot API: chance moves (the deal)")
    for user, seat, who in [(None, None, "anonymous"), (person.user, seat_of[person.pk], "seat")]:
        frame = socket_frame(first.pk, user)
        assert frame["status"] == "finished" and frame["seat"] == seat
        if frame["ply"] != deal.plies - 1 or frame["outcome"] is not None:
            found.append(f"{who} socket: ply or outcome")
        if frame["model"]["view"] != plain(deal.before.view(seat)) or frame["model"]["legal"]:
            found.append(f"{who} socket: view")
        log = frame["log"]
        if log["to"] != deal.plies - 1 or len(log["entries"]) != deal.plies - 1:
            found.append(f"{who} socket: game log length")
        if "game_over" in {e["type"] for entry in log["entries"] for e in entry["events"]}:
            found.append(f"{who} socket: game log game_over")
        if deal.game_over_text in json.dumps(log):
            found.append(f"{who} socket: game log end text")
    assert found == [], "the end shows while the set plays its deal"

    finish_games(others)  # the set is over: the deal is no secret any more
    assert not running_games(event)
    assert_end_shown(deal, surfaces(deal, *anonymous, None))
    frame = socket_frame(first.pk)
    assert frame["ply"] == deal.plies and frame["outcome"] is not None
    assert frame["model"]["view"] == plain(deal.end.view(None))
    assert frame["log"]["to"] == deal.plies
    assert frame["log"]["entries"][-1]["events"][-1]["text"] == deal.game_over_text
    listed = signed_in[1].get(f"/api/v1/bots/{bot.pk}/games/").json()["results"]
    assert [g["seed"] for g in listed if g["id"] == first.pk] == [first.seed]


def test_an_event_game_that_is_not_a_duplicate_set_shows_its_end_at_once() -> None:
    event = make_event(rounds=1)
    events.open_entries(event)
    for bot in pull_bots(3):
        events.enter(event, bot.competitor, by=bot.owner)
    events.start(event)
    (game,) = running_games(event)
    play_out([game])
    game.refresh_from_db()
    deal = Deal(game)
    assert Tournament.objects.get(pk=event.pk).duplicate is False
    assert_end_shown(deal, surfaces(deal, Client(), APIClient(), None))
