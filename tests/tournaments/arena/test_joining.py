"""Who may put whom in a league's arena (``tournaments.events.arena.join`` and ``leave``)."""

from __future__ import annotations

import pytest

from people import services as person_services
from tests.factories import BotFactory, LeagueFactory, UserFactory
from tournaments.events import arena
from tournaments.models import ArenaEntry, League

pytestmark = pytest.mark.django_db


def refused(league, competitor, by, code: str, words: str) -> None:
    before = list(ArenaEntry.objects.values())
    with pytest.raises(arena.ArenaRefused, match=words) as caught:
        arena.join(league, competitor, by=by)
    assert caught.value.code == code
    assert list(ArenaEntry.objects.values()) == before, "a refusal changes nothing"


def test_an_owner_enters_their_bot_and_can_change_their_mind(league) -> None:
    bot = BotFactory()
    entry = arena.join(league, bot.competitor, by=bot.owner, share_tables_with_own_bots=True)
    assert entry.active and entry.share_tables_with_own_bots and entry.waiting_since
    waiting = entry.waiting_since
    again = arena.join(league, bot.competitor, by=bot.owner)
    assert again.pk == entry.pk and not again.share_tables_with_own_bots
    assert again.waiting_since == waiting, "joining again keeps its place in the queue"
    arena.leave(again)
    assert arena.leave(again).active is False  # idempotent
    back = arena.join(league, bot.competitor, by=bot.owner)
    assert back.active and back.waiting_since > waiting


def test_nobody_else_enters_a_bot_and_staff_only_an_open_one(league) -> None:
    bot = BotFactory()
    refused(league, bot.competitor, UserFactory(password=None), "not_allowed", "only its owner")
    staff = UserFactory(password=None, is_staff=True)
    refused(league, bot.competitor, staff, "not_allowed", "only its owner")
    bot.visibility = "tournament"
    bot.save()
    assert arena.join(league, bot.competitor, by=staff).active


def test_a_bot_must_be_active_play_the_engine_and_fit_the_pool(league) -> None:
    suspended = BotFactory(status="suspended")
    refused(league, suspended.competitor, suspended.owner, "not_eligible", "is suspended")
    batavia = BotFactory(engines=["batavia"])
    refused(league, batavia.competitor, batavia.owner, "not_eligible", "does not play manila")
    League.objects.filter(pk=league.pk).update(pool=League.Pool.PEOPLE)
    league.refresh_from_db()
    bot = BotFactory()
    refused(league, bot.competitor, bot.owner, "not_eligible", "people only")


def test_a_person_joins_only_by_themselves_and_only_where_people_play(league) -> None:
    person = UserFactory(password=None)
    me = person_services.ensure_person(person).competitor
    refused(league, me, person, "not_eligible", "bots only")
    League.objects.filter(pk=league.pk).update(pool=League.Pool.MIXED)
    league.refresh_from_db()
    refused(league, me, UserFactory(password=None, is_staff=True), "not_allowed", "themselves")
    refused(league, me, person, "not_allowed", "not accepted bot opponents in rated games")
    person_services.set_consent(person, True)
    assert arena.join(league, me, by=person).active


def test_an_unrated_or_people_only_arena_needs_no_consent(league) -> None:
    person = UserFactory(password=None)
    me = person_services.set_consent(person, False).competitor
    League.objects.filter(pk=league.pk).update(pool=League.Pool.MIXED, arena_rated=False)
    league.refresh_from_db()
    assert arena.join(league, me, by=person).active
    other = LeagueFactory(engine="manila", pool=League.Pool.PEOPLE, arena_enabled=True)
    assert arena.join(other, me, by=person).active


def test_a_person_who_takes_consent_back_is_not_seated_by_a_pass(league) -> None:
    League.objects.filter(pk=league.pk).update(pool=League.Pool.MIXED, arena_table_size=3)
    league.refresh_from_db()
    person = UserFactory(password=None)
    me = person_services.set_consent(person, True).competitor
    arena.join(league, me, by=person)
    for bot in BotFactory.create_batch(3, max_concurrent_games=5):
        arena.join(league, bot.competitor, by=bot.owner, share_tables_with_own_bots=True)
    person_services.set_consent(person, False)
    games = arena.arena_pass(league, seed="s")
    assert games, "the bots still play"
    seated = {seat.competitor_id for game in games for seat in game.seats.all()}
    assert me.pk not in seated


def test_a_closed_arena_takes_nobody(league) -> None:
    League.objects.filter(pk=league.pk).update(arena_enabled=False)
    league.refresh_from_db()
    bot = BotFactory()
    refused(league, bot.competitor, bot.owner, "arena_closed", "closed")
