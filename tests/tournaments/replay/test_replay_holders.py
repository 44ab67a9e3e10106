"""A seat's holder replays their own seat during the game, and nobody else's.

Before a record is public, ``/games/<id>/boards.json?seat=N`` answers the person
in seat N or the owner of the bot in it (their seat's view, their own moves with
what was offered and taken, a bot's latency and fault kind) and refuses anyone
else with a 403: another seat's holder, a stranger, a foreign bot's owner, an
anonymous visitor. The answer does not change when other seats' secrets do.
"""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

import engines
from engines import CHANCE
from games.models import Game, Move, Seat
from games.records.replay import MAX_PAGE
from games.selectors.boards import board_model, legal_entries
from people import services
from tests.engines.helpers import perturb_secrets
from tests.factories import BotFactory, UserFactory
from tests.people.waiting_games import running_game
from tests.tournaments.played import played_game
from tournaments.models import Round, Table, Tournament
from web.sockets import person_moves

pytestmark = pytest.mark.django_db


def url(game: Game, **params: object) -> str:
    return f"/games/{game.pk}/boards.json?" + "&".join(f"{k}={v}" for k, v in params.items())


def replayed(game: Game, plies: int) -> engines.State:
    state = engines.get(game.engine).new_game(game.num_players, game.options)
    for seat, action in (
        Move.objects.filter(game=game).order_by("ply").values_list("seat", "action")[:plies]
    ):
        state.apply(seat, action)
    return state


def as_json(value: object) -> object:
    return json.loads(json.dumps(value))


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def table():
    """A running Manila game: Ana (a person, to move), Bob's bot and Carl (a person)."""
    ana = services.ensure_person(UserFactory(username="ana", password=None))
    carl = services.ensure_person(UserFactory(username="carl", password=None))
    bot = BotFactory(owner=UserFactory(username="bob", password=None), name="farmer")
    game = running_game(
        [ana.competitor, bot.competitor, carl.competitor], mover=0, seed="holders", plies=40
    )
    seat_of = {s.competitor_id: s.position for s in Seat.objects.filter(game=game)}
    for move in Move.objects.filter(game=game, seat=seat_of[bot.competitor_id]):
        move.latency_ms, move.source = 250 + move.ply, Move.Source.BOT
        move.fault_detail, move.request_excerpt = "secret-detail", "secret-request"
        move.save()
    return {
        "game": game,
        "ana": (ana.user, seat_of[ana.competitor_id]),
        "bob": (bot.owner, seat_of[bot.competitor_id]),
        "carl": (carl.user, seat_of[carl.competitor_id]),
        "names": {s.position: s.competitor.name for s in Seat.objects.filter(game=game)},
    }


def test_a_person_replays_their_own_seat_during_the_game(table) -> None:
    game, (user, seat), names = table["game"], table["ana"], table["names"]
    response = signed_in(user).get(url(game, seat=seat, start=0, count=MAX_PAGE))
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["public"] is False and body["seat"] == seat
    assert body["total"] == game.next_ply + 1
    assert game.seed.encode() not in response.content
    rng = random.Random(11)
    perturbed_elsewhere = 0
    for entry in body["positions"]:
        state = replayed(game, entry["position"])
        assert entry["model"] == as_json(board_model(state, seat, names))
        # Other seats' secrets changed (this seat's kept): the same answer.
        other = perturb_secrets(state, seat, rng)
        assert entry["model"] == as_json(board_model(other, seat, names))
        perturbed_elsewhere += any(
            board_model(other, s, names)["view"] != board_model(state, s, names)["view"]
            for s in range(game.num_players)
            if s != seat
        )
        move = entry["move"]
        if move is None:
            continue
        if move["seat"] == seat:
            offered = [e["text"] for e in legal_entries(state, seat)]
            assert move["offered"] == offered == [e["text"] for e in legal_entries(other, seat)]
            assert move["description"] in offered
            assert "latencyMs" not in move  # a person's seat: as on a public record
        else:
            assert set(move) == {"ply", "seat", "chance", "default"}  # others' and chance's: bare
    assert perturbed_elsewhere  # the perturbation did change secrets the others saw


def test_the_current_position_is_what_the_play_page_shows_the_seat(table) -> None:
    game, (user, seat) = table["game"], table["ana"]
    body = signed_in(user).get(url(game, seat=seat, start=game.next_ply, count=1)).json()
    [last] = body["positions"]
    assert last["move"] is None and last["model"]["legal"]  # Ana is to move
    frame = person_moves.frame(person_moves.viewer_for(game.pk, user))
    assert frame["seat"] == seat and frame["yourTurn"] is True
    assert last["model"]["view"] == as_json(frame["model"]["view"])
    assert last["model"]["legal"] == as_json(frame["model"]["legal"])


def test_a_forfeited_seat_is_offered_nothing_at_the_current_position(table) -> None:
    game, (user, seat) = table["game"], table["ana"]
    Seat.objects.filter(game=game, position=seat).update(forfeited=True)
    body = signed_in(user).get(url(game, seat=seat, start=game.next_ply, count=1)).json()
    assert body["positions"][0]["model"]["legal"] == []
    assert person_moves.frame(person_moves.viewer_for(game.pk, user))["model"]["legal"] == []


def test_a_bot_owner_replays_their_bots_seat_with_latency_and_fault(table) -> None:
    game, (owner, seat), names = table["game"], table["bob"], table["names"]
    move = Move.objects.filter(game=game, seat=seat).order_by("ply").first()
    move.fault_kind, move.source = "timeout", Move.Source.DEFAULT
    move.save()
    response = signed_in(owner).get(url(game, seat=seat, start=move.ply, count=2))
    assert response.status_code == 200
    first = response.json()["positions"][0]
    assert first["model"] == as_json(board_model(replayed(game, move.ply), seat, names))
    block = first["move"]
    assert block["latencyMs"] == move.latency_ms and block["fault"] == "timeout"
    assert block["source"] == "default" and block["offered"]
    assert b"secret-detail" not in response.content
    assert b"secret-request" not in response.content


@pytest.mark.parametrize("holder", ["ana", "bob", "carl"])
def test_another_seats_view_stays_refused_for_a_holder(table, holder) -> None:
    game, (user, mine) = table["game"], table[holder]
    client = signed_in(user)
    for seat in range(game.num_players):
        status = client.get(url(game, seat=seat, start=0, count=5)).status_code
        assert status == (200 if seat == mine else 403), (holder, seat)
    assert client.get(url(game, seat="spectator", start=0, count=5)).status_code == 200


def test_a_stranger_a_foreign_bot_owner_and_anonymous_get_403(table, client) -> None:
    game = table["game"]
    stranger = services.ensure_person(UserFactory(username="dora", password=None)).user
    foreign = BotFactory(owner=UserFactory(username="eve", password=None)).owner
    for viewer in (signed_in(stranger), signed_in(foreign), client):
        for seat in range(game.num_players):
            response = viewer.get(url(game, seat=seat))
            assert response.status_code == 403
            assert "holder" in response.json()["error"]
        assert viewer.get(url(game, seat="spectator")).status_code == 200


def test_a_bot_owner_is_not_the_holder_of_a_persons_seat(table) -> None:
    """A bot competitor's ``user`` is the owner; a person's seat is not theirs for that."""
    game, (owner, _) = table["game"], table["bob"]
    ana_seat = table["ana"][1]
    assert signed_in(owner).get(url(game, seat=ana_seat)).status_code == 403


def test_a_holders_replay_costs_the_same_queries_for_a_short_and_a_long_game() -> None:
    user = services.ensure_person(UserFactory(username="fay", password=None))
    others = [BotFactory().competitor for _ in range(2)]
    counts = []
    for plies in (10, 80):
        game = played_game("manila", [user.competitor, *others], seed=f"q{plies}", plies=plies)
        client = signed_in(user.user)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(game, seat=0, start=0)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_an_open_duplicate_set_keeps_its_rules_for_holders() -> None:
    """A finished game of a set still being played: still no seed, no other seat, no actions."""
    event = Tournament.objects.create(name="Duplicate", engine="manila", duplicate=True)
    table = Table.objects.create(
        round=Round.objects.create(tournament=event, number=1), number=1, seats=[1, 2, 3]
    )
    people = [
        services.ensure_person(UserFactory(username=f"dup{i}", password=None)) for i in range(3)
    ]
    players = [p.competitor for p in people]
    finished = played_game("manila", players, seed="dup-seed")
    running = played_game("manila", players[1:] + players[:1], seed="dup-seed", plies=12)
    Game.objects.filter(pk__in=[finished.pk, running.pk]).update(tournament=event, table=table)
    client = signed_in(people[0].user)
    assert client.get(url(finished, seat=1)).status_code == 403
    response = client.get(url(finished, seat=0, start=0, count=MAX_PAGE))
    assert response.status_code == 200 and response.json()["public"] is False
    assert b"dup-seed" not in response.content
    for entry in response.json()["positions"]:
        move = entry["move"]
        if move is not None and move["seat"] != 0:
            assert set(move) == {"ply", "seat", "chance", "default"}
    assert response.json()["positions"][-1]["model"]["legal"] == []
    stranger = signed_in(UserFactory(username="dupx", password=None))
    assert stranger.get(url(finished, seat=0)).status_code == 403


def test_the_game_page_offers_the_spectator_and_the_viewers_own_seats(table, client) -> None:
    game = table["game"]
    for holder in ("ana", "bob"):
        user, seat = table[holder]
        page = signed_in(user).get(f"/games/{game.pk}/").content.decode()
        assert 'id="replay-seat"' in page
        assert '<option value="spectator">' in page
        assert f'<option value="{seat}">' in page and "(yours)" in page
        others = [s for s in range(game.num_players) if s != seat]
        assert all(f'<option value="{s}">' not in page for s in others)
    for viewer in (client, signed_in(UserFactory(username="gil", password=None))):
        assert 'id="replay-seat"' not in viewer.get(f"/games/{game.pk}/").content.decode()


def test_chance_moves_stay_bare_for_the_holder(table) -> None:
    game, (user, seat) = table["game"], table["ana"]
    body = signed_in(user).get(url(game, seat=seat, start=0, count=MAX_PAGE)).json()
    chance = [e["move"] for e in body["positions"] if e["move"] and e["move"]["seat"] == CHANCE]
    assert chance and all(set(m) == {"ply", "seat", "chance", "default"} for m in chance)
