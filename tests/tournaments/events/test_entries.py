"""Entering an event: who may enter whom, when, and what a refusal says (and leaves unchanged)."""

from __future__ import annotations

import pytest

from botapi.models import Bot
from tests.factories import BotFactory, LeagueFactory, UserFactory
from tournaments import events
from tournaments.events import EventError
from tournaments.models import Entrant, League, Tournament

from .conftest import make_event, people

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Tournament:
    event = make_event(organiser=UserFactory(password=None))
    events.open_entries(event)
    return event


def refused(match: str, call, *args, **kwargs) -> None:
    before = list(Entrant.objects.values_list("pk", "status", "reason", "seed_order"))
    with pytest.raises(EventError, match=match):
        call(*args, **kwargs)
    after = list(Entrant.objects.values_list("pk", "status", "reason", "seed_order"))
    assert after == before, "a refusal changes nothing"


def test_an_owner_enters_their_bot_and_it_is_active_at_once(event) -> None:
    bot = BotFactory()
    entrant = events.enter(event, bot.competitor, by=bot.owner)
    assert entrant.status == Entrant.Status.ACTIVE and entrant.entered_by == bot.owner
    assert entrant.seed_order == 0, "unseeded until the start"


def test_only_the_owner_or_the_organiser_enters_a_bot(event) -> None:
    bot = BotFactory()
    stranger = UserFactory(password=None)
    refused("only the owner of bot .* or the organiser", events.enter, event, bot.competitor,
            by=stranger)  # fmt: skip
    entrant = events.enter(event, bot.competitor, by=event.organiser)
    assert entrant.status == Entrant.Status.ACTIVE
    staff_event = make_event(name="Staff night")
    events.open_entries(staff_event)
    staff = UserFactory(password=None, is_staff=True)
    assert events.enter(staff_event, BotFactory().competitor, by=staff).status == "active"


def test_a_person_enters_only_themselves(event) -> None:
    (person,) = people(1)
    refused("only they can enter themselves", events.enter, event, person, by=event.organiser)
    refused("only they can enter themselves", events.enter, event, person,
            by=UserFactory(password=None))  # fmt: skip
    assert events.enter(event, person, by=person.user).status == Entrant.Status.ACTIVE


def test_a_bot_must_be_active_and_play_the_engine(event) -> None:
    other_engine = BotFactory(engines=["batavia"])
    refused("does not play Manila", events.enter, event, other_engine.competitor,
            by=other_engine.owner)  # fmt: skip
    suspended = BotFactory(status=Bot.Status.SUSPENDED, status_reason="on holiday")
    refused(r"is suspended \(on holiday\)", events.enter, event, suspended.competitor,
            by=suspended.owner)  # fmt: skip


def test_a_league_pool_keeps_bots_and_people_apart() -> None:
    bots_only = make_event(league=LeagueFactory(pool=League.Pool.BOTS))
    people_only = make_event(name="People", league=LeagueFactory(pool=League.Pool.PEOPLE))
    for event in (bots_only, people_only):
        events.open_entries(event)
    (person,) = people(1)
    bot = BotFactory()
    refused("for bots only", events.enter, bots_only, person, by=person.user)
    refused("for people only", events.enter, people_only, bot.competitor, by=bot.owner)
    events.enter(bots_only, bot.competitor, by=bot.owner)
    events.enter(people_only, person, by=person.user)


def test_entries_only_while_open_the_organiser_also_in_a_draft() -> None:
    organiser = UserFactory(password=None)
    draft = make_event(organiser=organiser)
    bot = BotFactory()
    refused("not open yet", events.enter, draft, bot.competitor, by=bot.owner)
    events.enter(draft, bot.competitor, by=organiser)
    events.open_entries(draft)
    for person in people(2):
        events.enter(draft, person, by=person.user)
    events.start(draft)
    late = BotFactory()
    refused("entries to Club night are closed: it is running", events.enter, draft,
            late.competitor, by=organiser)  # fmt: skip


def test_a_duplicate_entry_is_refused_and_a_withdrawn_one_may_come_back(event) -> None:
    bot = BotFactory()
    entrant = events.enter(event, bot.competitor, by=bot.owner)
    refused("already entered in Club night", events.enter, event, bot.competitor, by=bot.owner)
    events.withdraw(entrant, reason="changed my mind", by=bot.owner)
    assert entrant.status == Entrant.Status.WITHDRAWN and entrant.reason == "changed my mind"
    again = events.enter(event, bot.competitor, by=bot.owner)
    assert again.pk == entrant.pk and again.status == Entrant.Status.ACTIVE and not again.reason
    events.disqualify(again, reason="cheated", by=event.organiser)
    refused("was disqualified from Club night: cheated", events.enter, event, bot.competitor,
            by=bot.owner)  # fmt: skip


def test_an_entry_waiting_for_approval_blocks_the_start_until_approved(event) -> None:
    bots = [BotFactory() for _ in range(3)]
    waiting = events.enter(event, bots[0].competitor, by=event.organiser, approved=False)
    assert waiting.status == Entrant.Status.PENDING
    refused("only the organiser of Club night approves", events.enter, event,
            bots[1].competitor, by=bots[1].owner, approved=True)  # fmt: skip
    for bot in bots[1:]:
        events.enter(event, bot.competitor, by=bot.owner)
    refused("wait for approval", events.start, event)
    refused("only the organiser", events.approve, waiting, by=bots[1].owner)
    events.approve(waiting, by=event.organiser)
    assert waiting.status == Entrant.Status.ACTIVE
    refused("not pending", events.approve, waiting)
    events.start(event)


def test_who_may_withdraw_and_disqualify(event) -> None:
    bot = BotFactory()
    entrant = events.enter(event, bot.competitor, by=bot.owner)
    stranger = UserFactory(password=None)
    refused("only the organiser", events.withdraw, entrant, reason="x", by=stranger)
    refused("only the organiser", events.disqualify, entrant, reason="x", by=bot.owner)
    refused("say why", events.withdraw, entrant, reason="  ", by=bot.owner)
    events.withdraw(entrant, reason="server down", by=bot.owner)
    refused("already withdrawn", events.withdraw, entrant, reason="again", by=bot.owner)
