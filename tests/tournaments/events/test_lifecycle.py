"""The event's lifecycle: each transition, and every refusal leaving everything as it was."""

from __future__ import annotations

import pytest

from botapi.models import Bot
from games.models import Game
from games.services import create_game
from ratings.models import Rating
from ratings.services.scopes import league_scope
from tests.factories import LeagueFactory, UserFactory
from tournaments import events
from tournaments.events import EventError, seeds
from tournaments.models import Entrant, Round, Table, Tournament

from .conftest import make_event, people, pull_bots

pytestmark = pytest.mark.django_db


def snapshot(event: Tournament) -> tuple:
    event.refresh_from_db()
    return (
        event.status,
        event.seed,
        event.seed_commitment,
        event.current_round,
        event.status_reason,
        list(Entrant.objects.filter(tournament=event).values_list("pk", "status", "seed_order")),
        Round.objects.filter(tournament=event).count(),
        Game.objects.filter(tournament=event).count(),
    )


def refused(event: Tournament, match: str, call, *args, **kwargs) -> None:
    before = snapshot(event)
    with pytest.raises(EventError, match=match):
        call(*args, **kwargs)
    assert snapshot(event) == before, "a refusal changes nothing"


def open_event(count: int = 6, **fields) -> Tournament:
    event = make_event(**fields)
    events.open_entries(event)
    for bot in pull_bots(count):
        events.enter(event, bot.competitor, by=bot.owner)
    return event


def test_opening_entries_draws_the_seed_and_publishes_its_commitment() -> None:
    event = make_event()
    assert event.seed == "" and event.seed_commitment == ""
    refused(event, "only the organiser", events.open_entries, event,
            by=UserFactory(password=None))  # fmt: skip
    events.open_entries(event)
    assert event.status == Tournament.Status.ENTRIES_OPEN
    assert len(event.seed) == 64 and event.seed_commitment == seeds.commitment(event.seed)
    assert events.event_seed_revealed(event) is None
    refused(event, "entries open only from a draft", events.open_entries, event)


def test_settings_no_game_could_be_played_with_are_refused_when_opening() -> None:
    for fields, match in [
        ({"move_time_ms": 0}, "time per move must be more than 0"),
        ({"table_size": 6, "min_table_size": 3}, "Manila is played by 3 to 5 players"),
        ({"table_size": 3, "min_table_size": 4}, "smallest table"),
        ({"format": "chess"}, "unknown format"),
    ]:
        event = make_event(**fields)
        refused(event, match, events.open_entries, event)
        assert event.status == Tournament.Status.DRAFT


def test_start_pairs_round_one_with_the_event_settings() -> None:
    league = LeagueFactory()
    event = open_event(6, league=league, time_bank_ms=1000, rated=True)
    round_one = events.start(event)
    assert event.status == Tournament.Status.RUNNING and event.started_at is not None
    assert round_one.number == 1 and event.current_round == 1
    games = list(Game.objects.filter(tournament=event))
    assert len(games) == 2
    for game in games:
        assert game.rated and game.league == league and game.purpose == Game.Purpose.EVENT
        assert (game.move_time_ms, game.time_bank_ms) == (60_000, 1000)
        assert game.round_number == 1 and game.table.round == round_one
        assert game.seed == seeds.game_seed(event.seed, 1, game.table.number)
    assert sorted(event.entrants.values_list("seed_order", flat=True)) == [1, 2, 3, 4, 5, 6]


def test_an_unrated_event_makes_unrated_games_by_the_creators_choice() -> None:
    event = open_event(3, rated=False)
    events.start(event)
    game = Game.objects.get(tournament=event)
    assert not game.rated and game.unrated_reason == Game.UnratedReason.CREATOR


def test_one_owners_bots_at_one_table_are_rated_in_an_event() -> None:
    owner = UserFactory(password=None)
    event = make_event()
    events.open_entries(event)
    for bot in pull_bots(3, owner=owner):
        events.enter(event, bot.competitor, by=owner)
    events.start(event)
    assert Game.objects.get(tournament=event).rated, "the organiser, not the owner, chose"


def test_start_refuses_too_few_entrants_and_changes_nothing() -> None:
    event = open_event(2)
    refused(event, "at least 3 entrants are needed; 2 entered", events.start, event)


def test_start_refuses_a_time_control_of_zero() -> None:
    event = open_event(3)
    Tournament.objects.filter(pk=event.pk).update(move_time_ms=0)
    refused(event, "time per move must be more than 0", events.start, event)


def test_start_refuses_an_entrant_that_can_no_longer_play() -> None:
    event = open_event(3)
    bot = Bot.objects.filter(competitor__entries__tournament=event).first()
    bot.status, bot.status_reason = Bot.Status.SUSPENDED, "too many faults"
    bot.save()
    refused(event, r"is suspended \(too many faults\)", events.start, event)
    bot.engines = ["batavia"]
    bot.status = Bot.Status.ACTIVE
    bot.save()
    refused(event, "does not play Manila", events.start, event)


def test_start_refuses_from_a_draft_and_from_a_stranger() -> None:
    event = make_event(organiser=UserFactory(password=None))
    refused(event, "open entries first", events.start, event)
    events.open_entries(event)
    refused(event, "only the organiser", events.start, event, by=UserFactory(password=None))


def test_start_refuses_a_bot_at_its_game_limit_and_changes_nothing() -> None:
    event = open_event(3)
    busy = Bot.objects.filter(competitor__entries__tournament=event).first()
    Bot.objects.filter(pk=busy.pk).update(max_concurrent_games=1)
    create_game("manila", [busy.competitor, *people(2)])
    refused(event, "round 1: table 1: already playing as many games", events.start, event)


def test_seed_order_is_the_organisers_then_by_league_rating() -> None:
    league = LeagueFactory()
    event = make_event(league=league)
    events.open_entries(event)
    bots = pull_bots(4)
    entrants = [events.enter(event, bot.competitor, by=bot.owner) for bot in bots]
    scope = league_scope(league)
    for bot, score in ((bots[1], 5.0), (bots[2], 20.0)):
        Rating.objects.create(competitor=bot.competitor, scope=scope, system="trueskill",
                              value=score + 10, sigma=3.3, score=score)  # fmt: skip
    Entrant.objects.filter(pk=entrants[3].pk).update(seed_order=1)  # the organiser's top seed
    events.start(event)
    order = dict(event.entrants.values_list("competitor_id", "seed_order"))
    assert [order[b.competitor_id] for b in bots] == [4, 3, 2, 1], (
        "the organiser's seed, then rating 20, rating 5, then the newcomer (0)"
    )


def test_pause_resume_and_cancel_refuse_the_wrong_state() -> None:
    event = open_event(3)
    refused(event, "only a running event can be paused", events.pause, event)
    refused(event, "only a paused event can be resumed", events.resume, event)
    refused(event, "say why", events.cancel, event, reason=" ")
    events.start(event)
    events.pause(event)
    assert event.status_reason == "paused by the organiser"
    refused(event, "only a running event can be paused", events.pause, event)
    events.cancel(event, reason="rain")
    refused(event, "already cancelled", events.cancel, event, reason="again")
    refused(event, "only a paused event can be resumed", events.resume, event)


def test_a_draft_can_be_cancelled() -> None:
    event = make_event()
    events.cancel(event, reason="nobody came")
    assert event.status == Tournament.Status.CANCELLED
    assert events.event_seed_revealed(event) is None, "no seed was ever drawn"


def test_a_duplicate_table_plays_every_rotation_on_one_seed() -> None:
    event = open_event(3, duplicate=True)
    events.start(event)
    (table,) = Table.objects.filter(round__tournament=event)
    games = list(Game.objects.filter(table=table).order_by("pk"))
    assert len(games) == 3 and len({g.seed for g in games}) == 1
    keys = dict(event.entrants.values_list("competitor_id", "pk"))
    orders = [
        tuple(keys[c] for c in g.seats.order_by("position").values_list("competitor_id", flat=True))
        for g in games
    ]
    assert orders[0] == tuple(table.seats)
    assert {order[0] for order in orders} == set(table.seats), "everyone sits first once"


def test_a_duplicate_event_refuses_bots_that_cannot_play_a_whole_set_at_once() -> None:
    event = open_event(3, duplicate=True)
    Bot.objects.filter(competitor__entries__tournament=event).update(max_concurrent_games=2)
    refused(event, "a duplicate table of 3 plays 3 games at once", events.start, event)
