"""factory-boy factories shared by the whole suite; each app's models add theirs here."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

DEFAULT_PASSWORD = "a-long-test-password"


class UserFactory(factory.django.DjangoModelFactory):
    """A person with a usable password (``DEFAULT_PASSWORD`` unless given)."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(DEFAULT_PASSWORD)

    class Params:
        admin = factory.Trait(is_staff=True, is_superuser=True)


class CompetitorFactory(factory.django.DjangoModelFactory):
    """A bot competitor unless ``kind`` says otherwise."""

    class Meta:
        model = "games.Competitor"

    kind = "bot"
    name = factory.Sequence(lambda n: f"competitor{n}")


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "tournaments.League"

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")
    engine = "manila"


class GameFactory(factory.django.DjangoModelFactory):
    """A scheduled game row (no seats); see ``finished_game`` for a whole result."""

    class Meta:
        model = "games.Game"

    engine = "manila"
    engine_version = "1"
    num_players = 4
    seed = factory.Sequence(lambda n: f"seed-{n}")
    seed_commitment = factory.LazyAttribute(
        lambda game: __import__("engines").seed_commitment(game.seed)
    )


def finished_game(competitors, ranks, *, forfeited=None, rated=True, scores=None, **fields):
    """A finished game with seats and an outcome, as the referee leaves it."""
    from django.utils import timezone

    from games.models import Game, Outcome, Seat

    game = GameFactory(
        num_players=len(competitors),
        status=Game.Status.FINISHED,
        rated=rated,
        finished_at=timezone.now(),
        **fields,
    )
    forfeited = forfeited or [False] * len(competitors)
    for position, (competitor, gone) in enumerate(zip(competitors, forfeited, strict=True)):
        Seat.objects.create(game=game, position=position, competitor=competitor, forfeited=gone)
    Outcome.objects.create(game=game, scores=scores or [0] * len(ranks), ranks=list(ranks))
    return game


class BotFactory(factory.django.DjangoModelFactory):
    """A registered push bot with its competitor, as ``botapi.services.bots.register_bot`` makes it.

    ``signing_secret`` is known to the test (the real one is shown only once).
    """

    class Meta:
        model = "botapi.Bot"

    owner = factory.SubFactory(UserFactory, password=None)  # no hashing: fast
    name = factory.Sequence(lambda n: f"bot-{n}")
    engines = factory.LazyFunction(lambda: ["manila"])
    mode = "push"
    endpoint_url = "http://127.0.0.1:9/bot"
    signing_secret = factory.Sequence(lambda n: f"hms_test-secret-{n}")
    competitor = factory.SubFactory(
        CompetitorFactory,
        kind="bot",
        user=factory.SelfAttribute("..owner"),
        name=factory.LazyAttribute(
            lambda c: f"{c.factory_parent.owner.username}/{c.factory_parent.name}"
        ),
    )


def seat_bot(game, bot, position, **fields):
    """Seat ``bot`` at ``game`` in ``position``."""
    from games.models import Seat

    return Seat.objects.create(game=game, position=position, competitor=bot.competitor, **fields)
