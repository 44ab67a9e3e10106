"""A duplicate set's finished games stay secret while the rest of the set plays the same deal.

The games of a set share one seed: a finished game's seed, actions (which show
every hidden hand) and outcome would tell the set's other tables what is still
secret to them. Every public door is checked: the game page, the game API,
the home list, verification, and the finish broadcast.
"""

from __future__ import annotations

import random

import pytest
from django.test import Client

import engines
from botapi import notify
from botapi.tasks import notify_bots
from botapi.versions import head_to_head
from games import spectator
from games.listings import games_with_seats
from games.models import Game, Move
from games.records.verification import NotVerifiable, verify_game
from games.referee import steps as referee
from games.referee.statecache import load_state
from tests.factories import BotFactory, CompetitorFactory
from tests.tournaments.played import play_as_people, played_game
from tournaments.models import Round, Table, Tournament
from web.sockets import broadcast

pytestmark = pytest.mark.django_db

DEAL = "shared-deal-of-the-set"


@pytest.fixture
def duplicate_set():
    """Two games of one table on the same seed: the first finished, the second still running."""
    event = Tournament.objects.create(name="Duplicate night", engine="manila", duplicate=True)
    table = Table.objects.create(
        round=Round.objects.create(tournament=event, number=1), number=1, seats=[1, 2, 3]
    )
    players = CompetitorFactory.create_batch(3)
    finished = played_game("manila", players, seed=DEAL)
    running = played_game("manila", players[1:] + players[:1], seed=DEAL, plies=12)
    Game.objects.filter(pk__in=[finished.pk, running.pk]).update(tournament=event, table=table)
    finished.refresh_from_db()
    running.refresh_from_db()
    assert finished.status == Game.Status.FINISHED and running.status == Game.Status.RUNNING
    return finished, running


def test_a_finished_game_of_an_unfinished_set_shows_no_seed_actions_or_outcome(
    duplicate_set, client: Client
) -> None:
    finished, _ = duplicate_set
    assert not spectator.is_public(finished)
    assert DEAL not in client.get(f"/games/{finished.pk}/").content.decode()
    record = client.get(f"/api/v1/games/{finished.pk}/").json()
    assert record["seed"] is None and DEAL not in str(record)
    assert DEAL not in client.get("/").content.decode()
    with pytest.raises(NotVerifiable, match="duplicate set"):
        verify_game(finished)


def test_the_set_is_revealed_when_its_last_game_ends(duplicate_set, client: Client) -> None:
    finished, running = duplicate_set
    Game.objects.filter(pk=running.pk).update(status=Game.Status.FINISHED)
    assert spectator.is_public(finished)
    assert client.get(f"/api/v1/games/{finished.pk}/").json()["seed"] == DEAL
    assert DEAL in client.get(f"/games/{finished.pk}/").content.decode()


def test_lists_know_which_sets_are_open_without_a_query_per_game(
    duplicate_set, django_assert_num_queries
) -> None:
    finished, _ = duplicate_set
    listed = games_with_seats().get(pk=finished.pk)
    with django_assert_num_queries(0):
        assert not spectator.is_public(listed)


def play_to_the_end(game: Game) -> None:
    """Log random moves (chance from the seed) until the game is over, as the referee would."""
    state = load_state(game)
    dealer, rng, ply = engines.Dealer(game.seed), random.Random(1), game.next_ply
    while not state.is_over:
        seat = state.to_move[0]
        if seat == engines.CHANCE:
            action = dealer.choose(state)
        else:
            action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        Move.objects.create(game=game, ply=ply, seat=seat, action=action, source="person")
        ply += 1
    Game.objects.filter(pk=game.pk).update(next_ply=ply)


@pytest.mark.parametrize("set_still_open", [True, False])
def test_the_finish_broadcast_holds_the_seed_back_while_the_set_plays(
    duplicate_set, monkeypatch, django_capture_on_commit_callbacks, set_still_open
) -> None:
    finished, running = duplicate_set
    if set_still_open:  # a third game of the set, still at its start
        third = played_game("manila", CompetitorFactory.create_batch(3), seed=DEAL, plies=1)
        Game.objects.filter(pk=third.pk).update(table=running.table)
    sent: list[dict] = []
    monkeypatch.setattr(broadcast, "publish", lambda game_id, message: sent.append(message))
    play_to_the_end(running)
    with django_capture_on_commit_callbacks(execute=True):
        assert referee.finish(running.pk)
    finishes = {m["game"]: m for m in sent if m.get("type") == "game.finished"}
    assert finishes[running.pk]["seed"] == (None if set_still_open else DEAL)
    assert (finishes[running.pk]["outcome"] is None) == set_still_open
    # The game that closes the set tells the pages of its finished games they may show their end.
    assert set(finishes) == ({running.pk} if set_still_open else {running.pk, finished.pk})


def test_push_bots_hear_of_a_set_games_finish_only_once_the_set_is_over(
    duplicate_set, monkeypatch
) -> None:
    finished, running = duplicate_set
    told: list[int] = []
    monkeypatch.setattr(notify, "notify_finish", lambda game: told.append(game.pk) or 1)
    assert notify_bots(finished.pk, "finish") == 0, "its outcome would tell the other table"
    play_to_the_end(running)
    assert referee.finish(running.pk)
    assert notify_bots(finished.pk, "finish") == 0  # a late task: the set's last game tells
    assert notify_bots(running.pk, "finish") == 2
    assert told == [finished.pk, running.pk]


def test_an_owners_version_comparison_counts_a_set_game_only_once_the_set_is_over() -> None:
    older = BotFactory()
    newer = BotFactory(owner=older.owner, previous_version=older)
    event = Tournament.objects.create(name="Versions night", engine="manila", duplicate=True)
    table = Table.objects.create(
        round=Round.objects.create(tournament=event, number=1), number=1, seats=[1, 2, 3]
    )
    players = [older.competitor, newer.competitor, CompetitorFactory()]
    finished = played_game("manila", players, seed=DEAL)
    running = played_game("manila", players[1:] + players[:1], seed=DEAL, plies=12)
    Game.objects.filter(pk__in=[finished.pk, running.pk]).update(tournament=event, table=table)
    assert head_to_head([older, newer]) == [], "the ranks of a game of an open set"
    Game.objects.filter(pk=running.pk).update(status=Game.Status.ABORTED)
    (pair,) = head_to_head([older, newer])
    assert pair.games == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_referee")
def test_no_live_message_shows_the_end_while_the_set_plays(duplicate_set, monkeypatch) -> None:
    _, running = duplicate_set
    third = played_game("manila", CompetitorFactory.create_batch(3), seed=DEAL, plies=1)
    Game.objects.filter(pk=third.pk).update(table=running.table)
    sent: list[dict] = []
    monkeypatch.setattr(broadcast, "maybe_watched", lambda game_id: True)
    monkeypatch.setattr(broadcast, "publish_many", lambda game_id, messages: sent.extend(messages))
    referee.advance(running.pk)  # chance, up to the first person's turn
    play_as_people(running, random.Random(2))  # the last move is claimed with the finish
    running.refresh_from_db()
    assert running.status == Game.Status.FINISHED
    moves = [m for m in sent if m["type"] == "game.move"]
    assert moves and moves[-1]["ply"] == running.next_ply - 2, "the last move's message held back"
    assert all(e["type"] != "game_over" for m in moves for e in m["events"])
    assert all("final" not in m["view"] for m in moves)
    (final,) = [m for m in sent if m["type"] == "game.finished"]
    assert final["outcome"] is None and final["seed"] is None
