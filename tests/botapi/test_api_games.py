"""A bot's games and their move logs: what its owner may see, and what stays secret."""

from __future__ import annotations

import pytest

from games.models import Game, Move, Outcome, Seat
from tests.factories import BotFactory, CompetitorFactory, GameFactory, seat_bot

pytestmark = pytest.mark.django_db

SECRET_CARD = "queen-of-secret-jade"


@pytest.fixture
def bot(user):
    return BotFactory(owner=user)


def table(bot, status: str = "running", **fields) -> Game:
    """A 3-seat game: someone at 0, the bot at 1, someone at 2; six moves with secrets."""
    game = GameFactory(status=status, num_players=3, **fields)
    Seat.objects.create(game=game, position=0, competitor=CompetitorFactory(name="rival-a"))
    seat_bot(game, bot, 1, fault_count=1)
    Seat.objects.create(
        game=game, position=2, competitor=CompetitorFactory(name="rival-b"), fault_count=2
    )
    moves = [
        (-1, {"type": "deal", "card": SECRET_CARD}, "chance", {}),
        (0, {"type": "keep", "card": "rival-private-card"}, "bot", {"latency_ms": 40}),
        (
            1,
            {"type": "bid", "amount": 3},
            "default",
            {
                "latency_ms": 2001,
                "fault_kind": "timeout",
                "fault_detail": "no complete reply within 2000 ms",
                "request_excerpt": '{"kind":"act","view":{"private":{"hand":["mine"]}}}',
                "reply_excerpt": "",
            },
        ),
        (
            2,
            {"type": "pass"},
            "default",
            {"fault_kind": "invalid_json", "fault_detail": "rival-b-broke", "reply_excerpt": "<h"},
        ),
        (-1, {"type": "reveal", "tile": "hidden-tile-7"}, "chance", {}),
        (1, {"type": "bid", "amount": 5}, "bot", {"latency_ms": 12, "reply_excerpt": '{"i":0}'}),
    ]
    for ply, (seat, action, source, extra) in enumerate(moves):
        Move.objects.create(game=game, ply=ply, seat=seat, action=action, source=source, **extra)
    return game


def moves_of(api, bot, game, **params):
    response = api.get(f"/api/v1/bots/{bot.pk}/games/{game.pk}/moves/", params)
    assert response.status_code == 200, response.content
    return response


# ---------------------------------------------------------------- games
def test_games_lists_only_games_the_bot_sits_in(api, bot):
    mine = table(bot)
    GameFactory(status="running")  # someone else's game
    other_bot = BotFactory(owner=bot.owner)
    seat_bot(GameFactory(), other_bot, 0)  # the owner's other bot
    body = api.get(f"/api/v1/bots/{bot.pk}/games/").json()
    assert body["count"] == 1
    assert body["results"][0]["id"] == mine.pk


def test_game_entry_hides_the_seed_and_others_faults_until_finished(api, bot):
    game = table(bot)
    entry = api.get(f"/api/v1/bots/{bot.pk}/games/").json()["results"][0]
    assert entry["seed"] is None
    assert entry["seed_commitment"] == game.seed_commitment
    assert entry["outcome"] is None
    assert entry["seats"] == [
        {"position": 0, "competitor": "rival-a", "this_bot": False, "forfeited": None,
         "fault_count": None},
        {"position": 1, "competitor": bot.competitor.name, "this_bot": True, "forfeited": False,
         "fault_count": 1},
        {"position": 2, "competitor": "rival-b", "this_bot": False, "forfeited": None,
         "fault_count": None},
    ]  # fmt: skip


def test_finished_game_entry_shows_seed_outcome_and_forfeits(api, bot):
    game = table(bot, status="finished")
    Seat.objects.filter(game=game, position=2).update(forfeited=True)
    Outcome.objects.create(game=game, scores=[10, 7, 0], ranks=[1, 2, 3])
    entry = api.get(f"/api/v1/bots/{bot.pk}/games/").json()["results"][0]
    assert entry["seed"] == game.seed
    assert entry["outcome"] == {"scores": [10.0, 7.0, 0.0], "ranks": [1, 2, 3]}
    assert [seat["forfeited"] for seat in entry["seats"]] == [False, False, True]
    assert [seat["fault_count"] for seat in entry["seats"]] == [None, 1, None]


def test_games_filter_by_status_and_engine(api, bot):
    running = table(bot)
    finished = table(bot, status="finished", engine="batavia")

    def ids(**params):
        return [g["id"] for g in api.get(f"/api/v1/bots/{bot.pk}/games/", params).json()["results"]]

    assert ids(status="running") == [running.pk]
    assert ids(engine="batavia") == [finished.pk]
    assert sorted(ids()) == sorted([running.pk, finished.pk])
    bad = api.get(f"/api/v1/bots/{bot.pk}/games/", {"status": "paused"})
    assert bad.status_code == 400 and "paused" in bad.json()["status"][0]


# ---------------------------------------------------------------- moves
def test_running_game_log_hides_chance_and_other_seats_actions(api, bot):
    game = table(bot)
    response = moves_of(api, bot, game)
    text = response.content.decode()
    for secret in (SECRET_CARD, "hidden-tile-7", "rival-private-card", "rival-b-broke", "<h"):
        assert secret not in text
    entries = response.json()["results"]
    assert [e["ply"] for e in entries] == [1, 2, 3, 5]  # no chance move at all
    rival, own, rival_b, own_later = entries
    assert rival == {
        "ply": 1, "seat": 0, "this_bot": False, "action": None, "source": None,
        "latency_ms": None, "fault_kind": None, "fault_detail": None,
        "request_excerpt": None, "reply_excerpt": None, "created_at": rival["created_at"],
    }  # fmt: skip
    assert rival_b["action"] is None and rival_b["fault_kind"] is None
    assert own["this_bot"] is True
    assert own["action"] == {"type": "bid", "amount": 3}
    assert (own["source"], own["latency_ms"], own["fault_kind"]) == ("default", 2001, "timeout")
    assert own["fault_detail"] == "no complete reply within 2000 ms"
    assert own["request_excerpt"].startswith('{"kind":"act"')
    assert own_later["reply_excerpt"] == '{"i":0}'


@pytest.mark.parametrize("status", ["scheduled", "aborted"])
def test_not_finished_games_keep_their_secrets(api, bot, status):
    game = table(bot, status=status)
    text = moves_of(api, bot, game).content.decode()
    assert SECRET_CARD not in text and "rival-private-card" not in text


def test_finished_game_log_shows_every_action_but_only_own_diagnostics(api, bot):
    game = table(bot, status="finished")
    entries = moves_of(api, bot, game).json()["results"]
    assert [e["ply"] for e in entries] == [0, 1, 2, 3, 4, 5]
    assert entries[0]["action"] == {"type": "deal", "card": SECRET_CARD}
    assert entries[1]["action"] == {"type": "keep", "card": "rival-private-card"}
    assert entries[3]["action"] == {"type": "pass"}
    # another bot's faults, latencies and excerpts stay its owner's business
    for other in (entries[0], entries[1], entries[3], entries[4]):
        assert other["this_bot"] is False
        assert other["fault_kind"] is other["latency_ms"] is other["reply_excerpt"] is None
    assert entries[2]["fault_kind"] == "timeout"


def test_move_filters_faulty_and_mine(api, bot):
    game = table(bot, status="finished")
    assert [e["ply"] for e in moves_of(api, bot, game, faulty="true").json()["results"]] == [2]
    assert [e["ply"] for e in moves_of(api, bot, game, mine="true").json()["results"]] == [2, 5]
    bad = api.get(f"/api/v1/bots/{bot.pk}/games/{game.pk}/moves/", {"faulty": "perhaps"})
    assert bad.status_code == 400 and "faulty" in bad.json()


def test_move_log_is_paginated(api, bot):
    game = table(bot, status="finished")
    body = moves_of(api, bot, game, page_size=4).json()
    assert (body["count"], len(body["results"])) == (6, 4)
    assert [e["ply"] for e in moves_of(api, bot, game, page_size=4, page=2).json()["results"]] == [
        4,
        5,
    ]


def test_self_play_counts_every_seat_of_the_bot_as_its_own(api, bot):
    game = GameFactory(status="running", num_players=2)
    seat_bot(game, bot, 0)
    seat_bot(game, bot, 1)
    Move.objects.create(game=game, ply=0, seat=0, action={"type": "a"}, source="bot")
    Move.objects.create(game=game, ply=1, seat=1, action={"type": "b"}, source="bot")
    entries = moves_of(api, bot, game).json()["results"]
    assert [(e["this_bot"], e["action"]) for e in entries] == [
        (True, {"type": "a"}),
        (True, {"type": "b"}),
    ]


def test_moves_of_a_game_the_bot_is_not_in_are_404(api, bot):
    stranger_game = table(BotFactory())
    other_own_bot = BotFactory(owner=bot.owner)
    own_other_game = table(other_own_bot)
    for game in (stranger_game, own_other_game):
        response = api.get(f"/api/v1/bots/{bot.pk}/games/{game.pk}/moves/")
        assert response.status_code == 404
        assert SECRET_CARD not in response.content.decode()
