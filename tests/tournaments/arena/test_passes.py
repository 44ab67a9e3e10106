"""Arena passes on the database: who is seated, how the games are made, who waits again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from botapi.models import Bot
from botapi.seating import example_bots_username
from games.models import Game
from ratings.models import Rating
from ratings.scopes import league_scope
from tests.factories import BotFactory, CompetitorFactory, GameFactory, UserFactory, seat_bot
from tournaments import arena
from tournaments.models import ArenaEntry, League, Tournament

pytestmark = pytest.mark.django_db


def tables(games: list[Game]) -> list[set[int]]:
    return [set(game.seats.values_list("competitor_id", flat=True)) for game in games]


def seated(games: list[Game]) -> list[int]:
    return [cid for table in tables(games) for cid in table]


def running_game_with(*bots: Bot, **fields) -> Game:
    """A running game elsewhere (not the arena's) holding a slot of each bot."""
    game = GameFactory(status=Game.Status.RUNNING, num_players=len(bots), **fields)
    for position, bot in enumerate(bots):
        seat_bot(game, bot, position)
    return game


def test_a_pass_seats_every_free_bot_once_in_rated_league_games(league, join_bots) -> None:
    bots = join_bots(8)
    games = arena.arena_pass(league, seed="first")
    assert [game.num_players for game in games] == [4, 4]
    assert sorted(seated(games)) == sorted(bot.competitor_id for bot in bots)
    for game in games:
        game.refresh_from_db()
        assert (game.league, game.tournament, game.purpose) == (league, None, "event")
        assert game.rated and game.unrated_reason == ""
        assert (game.move_time_ms, game.time_bank_ms) == (3000, 1000)
        assert game.status == Game.Status.RUNNING and game.engine == "manila"
    assert not ArenaEntry.objects.filter(waiting_since__isnull=False).exists()
    assert arena.arena_pass(league, seed="again") == [], "all of them are playing"


def test_table_sizes_stay_within_the_arenas_range(league, join_bots) -> None:
    join_bots(6)
    assert [game.num_players for game in arena.arena_pass(league, seed="s")] == [3, 3]
    join_bots(2)
    assert arena.arena_pass(league, seed="s") == [], "two free bots cannot make a table of 3"


def test_unrated_arena_plays_unrated_games(league, join_bots) -> None:
    league.arena_rated = False
    league.save()
    join_bots(4)
    [game] = arena.arena_pass(league, seed="s")
    assert not game.rated and game.unrated_reason == Game.UnratedReason.CREATOR


def test_busy_bots_are_skipped_and_capacity_counts_every_running_game(league, join_bots) -> None:
    full, one_left, *others = join_bots(5, max_concurrent_games=2)
    running_game_with(full, one_left)
    running_game_with(full, purpose=Game.Purpose.CASUAL)
    [game] = arena.arena_pass(league, seed="s")
    members = tables([game])[0]
    assert full.competitor_id not in members
    assert one_left.competitor_id in members
    assert members == {one_left.competitor_id, *(bot.competitor_id for bot in others)}


def test_suspended_wrong_engine_and_wrong_pool_entrants_are_skipped(league, join_bots) -> None:
    fine = join_bots(3)
    suspended, switched = join_bots(2)
    Bot.objects.filter(pk=suspended.pk).update(status=Bot.Status.SUSPENDED)
    Bot.objects.filter(pk=switched.pk).update(engines=["batavia"])
    person = CompetitorFactory(kind="person", user=UserFactory(password=None))
    ArenaEntry.objects.create(league=league, competitor=person, waiting_since=timezone.now())
    [game] = arena.arena_pass(league, seed="s")
    assert tables([game]) == [{bot.competitor_id for bot in fine}]


def test_a_people_only_league_skips_bots_entered_before_the_pool_changed(league, join_bots):
    join_bots(4)
    League.objects.filter(pk=league.pk).update(pool=League.Pool.PEOPLE)
    assert arena.arena_pass(league, seed="s") == []


def test_the_longest_waiting_seeds_and_a_bot_who_left_is_not_seated(league, join_bots) -> None:
    bots = join_bots(5)
    patient = bots[4]
    ArenaEntry.objects.filter(competitor=patient.competitor).update(
        waiting_since=timezone.now() - timedelta(hours=1)
    )
    gone = ArenaEntry.objects.get(competitor=bots[0].competitor)
    arena.leave(gone)
    [game] = arena.arena_pass(league, seed="s")
    assert tables([game]) == [{bot.competitor_id for bot in bots[1:]}]
    gone.refresh_from_db()
    assert not gone.active and gone.waiting_since is None


def test_one_owner_per_table_unless_every_entry_allows_sharing(league, join_bots) -> None:
    owner = UserFactory(password=None)
    mine = join_bots(3, owner=owner)
    assert arena.arena_pass(league, seed="s") == [], "three of one owner, none sharing"
    ArenaEntry.objects.filter(competitor__in=[b.competitor for b in mine[:2]]).update(
        share_tables_with_own_bots=True
    )
    assert arena.arena_pass(league, seed="s") == [], "one of them does not share"
    ArenaEntry.objects.filter(competitor=mine[2].competitor).update(share_tables_with_own_bots=True)
    [game] = arena.arena_pass(league, seed="s")
    assert game.rated, "the arena chose the table: rated although one owner holds every seat"


def test_house_bots_share_tables_without_asking(league) -> None:
    house = UserFactory(username=example_bots_username(), password=None)
    for bot in BotFactory.create_batch(3, owner=house, visibility="tournament"):
        arena.join(league, bot.competitor, by=house)
    [game] = arena.arena_pass(league, seed="s")
    assert game.num_players == 3 and game.rated


def test_opponents_are_close_in_league_rating(league, join_bots) -> None:
    bots = join_bots(8)
    scope = league_scope(league)
    for n, bot in enumerate(bots):
        mu = 40.0 if n % 2 else 10.0
        Rating.objects.create(
            competitor=bot.competitor, scope=scope, system="trueskill", value=mu, sigma=1.0,
            score=mu - 3,
        )  # fmt: skip
    strong = {bot.competitor_id for n, bot in enumerate(bots) if n % 2}
    for seed in ("a", "b", "c"):
        ArenaEntry.objects.update(waiting_since=timezone.now())
        Game.objects.update(status=Game.Status.FINISHED)
        games = arena.arena_pass(league, seed=seed)
        assert sorted(len(t & strong) for t in tables(games)) == [0, 4]


def test_a_finished_arena_game_makes_its_bots_wait_again(league, join_bots) -> None:
    bots = join_bots(4)
    [game] = arena.arena_pass(league, seed="s")
    assert arena.arena_pass(league, seed="s") == []
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    arena.on_game_finished(game)
    entries = ArenaEntry.objects.filter(league=league)
    assert all(e.games_played == 1 and e.waiting_since is not None for e in entries)
    [again] = arena.arena_pass(league, seed="s")
    assert tables([again]) == [{bot.competitor_id for bot in bots}]


def test_other_games_of_the_league_do_not_count_as_arena_games(league, join_bots) -> None:
    join_bots(4)
    assert len(arena.arena_pass(league, seed="s")) == 1
    cup = Tournament.objects.create(name="Cup", engine="manila", league=league)
    casual = GameFactory(league=league, status=Game.Status.FINISHED)
    cup_game = GameFactory(league=league, tournament=cup, purpose="event", status="finished")
    for game in (casual, cup_game):
        for position, entry in enumerate(ArenaEntry.objects.all()):
            game.seats.create(position=position, competitor=entry.competitor)
        arena.on_game_finished(game)
    assert not ArenaEntry.objects.filter(games_played__gt=0).exists()
    assert not ArenaEntry.objects.filter(waiting_since__isnull=False).exists()


def test_a_bot_stranded_by_an_aborted_game_waits_again(league, join_bots) -> None:
    join_bots(4)
    [game] = arena.arena_pass(league, seed="s")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    [again] = arena.arena_pass(league, seed="s")
    assert again.num_players == 4


def test_a_closed_arena_or_impossible_settings_make_no_games(league, join_bots) -> None:
    join_bots(8)
    League.objects.filter(pk=league.pk).update(arena_enabled=False)
    assert arena.arena_pass(league, seed="s") == []
    League.objects.filter(pk=league.pk).update(arena_enabled=True, arena_table_size=6)
    league.refresh_from_db()
    assert "seats 3 to 5 players" in arena.arena_problem(league)
    assert arena.arena_pass(league, seed="s") == []
    assert not Game.objects.exists()


def test_run_passes_plays_every_open_arena(league, join_bots) -> None:
    other = League.objects.create(name="Other", slug="other", engine="manila",
                                  arena_enabled=True)  # fmt: skip
    join_bots(4)
    join_bots(3, into=other)
    closed = League.objects.create(name="Closed", slug="closed", engine="manila")
    assert arena.run_passes() == 2
    assert set(Game.objects.values_list("league", flat=True)) == {league.pk, other.pk}
    assert not closed.games.exists()
