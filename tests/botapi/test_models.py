"""The Bot model and its services: one transaction with the competitor, credentials, health."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from botapi.models import Bot, hash_pull_token
from botapi.services import bots as services
from games.models import Competitor
from tests.factories import BotFactory, GameFactory, LeagueFactory, UserFactory, seat_bot
from tournaments.models import ArenaEntry, Entrant, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory(password=None, username="ada")


def test_register_makes_a_bot_competitor_in_one_go(owner):
    bot, credentials = services.register_bot(
        owner, name="greedy", engines=["manila", "batavia"], endpoint_url="http://127.0.0.1:9/"
    )
    assert bot.competitor.kind == Competitor.Kind.BOT
    assert bot.competitor.user == owner
    assert bot.competitor.name == "ada/greedy"
    assert bot.engines == ["batavia", "manila"]
    assert credentials.signing_secret == bot.signing_secret
    assert credentials.pull_token is None


def test_a_failed_registration_leaves_no_competitor_behind(owner):
    services.register_bot(owner, name="greedy", engines=["manila"], mode="pull")
    before = Competitor.objects.count()
    with pytest.raises(services.BotNameTaken, match="already have a bot named 'greedy'"):
        services.register_bot(owner, name="greedy", engines=["manila"], mode="pull")
    assert Competitor.objects.count() == before


def test_secrets_are_random_and_only_the_pull_tokens_hash_is_stored(owner):
    a, first = services.register_bot(owner, name="a", engines=["manila"], mode="pull")
    b, second = services.register_bot(owner, name="b", engines=["manila"], mode="pull")
    assert len({first.signing_secret, second.signing_secret}) == 2
    assert len({first.pull_token, second.pull_token}) == 2
    stored = Bot.objects.filter(pk=a.pk).values().get()
    assert first.pull_token not in {str(value) for value in stored.values()}
    assert stored["pull_token_hash"] == hash_pull_token(first.pull_token)
    assert a.pull_token_matches(first.pull_token) and not a.pull_token_matches(second.pull_token)
    assert services.bot_for_pull_token(second.pull_token) == b
    assert services.bot_for_pull_token("hmp_nonsense") is None
    assert services.bot_for_pull_token("") is None


def test_name_is_unique_per_owner_in_the_database(owner):
    BotFactory(owner=owner, name="same")
    BotFactory(name="same")  # another owner may
    with pytest.raises(IntegrityError), transaction.atomic():
        BotFactory(owner=owner, name="same")


def test_model_validation_of_engines_and_concurrency(owner):
    bot = BotFactory.build(owner=owner, competitor=None)
    for engines, words in (([], "cannot be blank"), (["go"], "unknown engine 'go'"),
                           (["manila", "manila"], "once")):  # fmt: skip
        bot.engines = engines
        with pytest.raises(ValidationError, match=words):
            bot.full_clean(exclude=["competitor"])
    bot.engines = ["manila"]
    bot.max_concurrent_games = 0
    with pytest.raises(ValidationError, match="max_concurrent_games"):
        bot.full_clean(exclude=["competitor"])


# ------------------------------------------------------------ health hook
def test_faulty_games_in_a_row_suspend_the_bot_and_a_clean_one_resets(settings):
    settings.BOT_SUSPEND_AFTER_FAULTY_GAMES = 3
    bot = BotFactory()
    assert services.record_game_health(bot, faulty=True) is False
    assert services.record_game_health(bot, faulty=True) is False
    assert services.record_game_health(bot, faulty=False) is False
    assert bot.consecutive_faulty_games == 0
    for _ in range(2):
        assert services.record_game_health(bot, faulty=True) is False
    assert bot.status == Bot.Status.ACTIVE
    assert services.record_game_health(bot, faulty=True) is True
    assert bot.status == Bot.Status.SUSPENDED
    assert "3 faulty games in a row" in bot.status_reason
    assert bot.status_changed_at is not None
    # already suspended: counted, not suspended again
    assert services.record_game_health(bot, faulty=True) is False
    assert bot.consecutive_faulty_games == 4


# ------------------------------------------------------------ deletion
def test_delete_bot_without_games_removes_bot_and_competitor():
    bot = BotFactory()
    services.delete_bot(bot)
    assert not Bot.objects.exists()
    assert not Competitor.objects.filter(pk=bot.competitor_id).exists()


def test_delete_bot_with_games_is_refused_and_the_database_protects_seats_too():
    bot = BotFactory()
    seat_bot(GameFactory(), bot, 0)
    with pytest.raises(services.BotConflict) as refused:
        services.delete_bot(bot)
    assert refused.value.code == "has_games"
    with pytest.raises(ProtectedError):
        bot.competitor.delete()
    assert Bot.objects.filter(pk=bot.pk).exists()


def test_delete_bot_in_an_arena_only_removes_its_arena_entry_with_it():
    bot = BotFactory()
    ArenaEntry.objects.create(league=LeagueFactory(), competitor=bot.competitor)
    services.delete_bot(bot)
    assert not Bot.objects.exists()
    assert not ArenaEntry.objects.exists()


def test_delete_bot_entered_in_a_tournament_is_refused_and_keeps_the_entry():
    bot = BotFactory()
    cup = Tournament.objects.create(name="Harbour cup", engine="manila")
    Entrant.objects.create(tournament=cup, competitor=bot.competitor, seed_order=1)
    with pytest.raises(services.BotConflict) as refused:
        services.delete_bot(bot)
    assert refused.value.code == "entered"
    assert "Harbour cup" in str(refused.value)
    assert Bot.objects.filter(pk=bot.pk).exists() and Entrant.objects.exists()


# ------------------------------------------------------------ admin
def test_admin_registers_a_bot_with_its_competitor_and_shows_the_secret_once(client):
    staff = UserFactory(admin=True, password=None)
    client.force_login(staff)
    owner = UserFactory(password=None)
    response = client.post(
        "/admin/botapi/bot/add/",
        {
            "owner": owner.pk,
            "name": "admin-made",
            "description": "",
            "engines": "manila",
            "mode": "push",
            "endpoint_url": "http://127.0.0.1:9/",
            "max_concurrent_games": 2,
            "visibility": "challenge",
            "status": "active",
            "status_reason": "",
        },
        follow=True,
    )
    assert response.status_code == 200
    bot = Bot.objects.get(name="admin-made")
    assert bot.competitor.name == f"{owner.username}/admin-made"
    assert bot.visibility == "challenge"
    shown = [str(m) for m in response.context["messages"]]
    assert any(bot.signing_secret in message for message in shown)
    change = client.get(f"/admin/botapi/bot/{bot.pk}/change/").content.decode()
    assert bot.signing_secret not in change
    assert "admin-made" in change


def test_admin_refuses_a_private_endpoint_and_disables_with_a_reason(client, settings):
    settings.BOT_ENDPOINT_ALLOW = []
    client.force_login(UserFactory(admin=True, password=None))
    bot = BotFactory(endpoint_url="http://8.8.8.8/")
    form = {
        "name": bot.name,
        "description": "",
        "engines": "manila",
        "mode": "push",
        "endpoint_url": "http://10.0.0.1/",
        "max_concurrent_games": 4,
        "visibility": "tournament",
        "status": "disabled",
        "status_reason": "spam",
    }
    page = client.post(f"/admin/botapi/bot/{bot.pk}/change/", form)
    assert page.status_code == 200
    assert "private address 10.0.0.1" in page.content.decode()
    form["endpoint_url"] = "http://8.8.8.8/"
    assert client.post(f"/admin/botapi/bot/{bot.pk}/change/", form).status_code == 302
    bot.refresh_from_db()
    assert (bot.status, bot.status_reason) == ("disabled", "spam")
    assert bot.visibility == "tournament"
    assert bot.status_changed_at is not None
