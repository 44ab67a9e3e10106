"""Admin games link to their public page and verification, and keep a running game secret.

Until a game is finished nobody sees its seed or its moves' actions (chance
can name a dealt card), nor a bot's request/reply excerpts (a seat's private
view): not in the admin's lists, change pages, inlines or search either.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from engines import CHANCE
from games.models import Game, Move
from tests.factories import BotFactory, UserFactory
from tests.tournaments.played import played_game

pytestmark = pytest.mark.django_db

SEED = "sealed-seed-4711"
CARD = "face-down-card-0815"
HAND = "private-hand-2342"


@pytest.fixture
def staff(client: Client) -> Client:
    client.force_login(UserFactory(admin=True, password=None))
    return client


def game_with_secrets(*, finished: bool) -> tuple[Game, Move, Move]:
    """A manila game (running or finished) whose seed, chance action and excerpts are marked."""
    bots = BotFactory.create_batch(3)
    game = played_game(
        "manila", [bot.competitor for bot in bots], seed=SEED, plies=None if finished else 12
    )
    chance = game.moves.filter(seat=CHANCE).first()
    Move.objects.filter(pk=chance.pk).update(action={"type": "deal", "card": CARD})
    player = game.moves.exclude(seat=CHANCE).first()
    Move.objects.filter(pk=player.pk).update(
        source=Move.Source.BOT,
        request_excerpt=f'{{"view": {{"hand": "{HAND}"}}}}',
        reply_excerpt=f'{{"action": "{HAND}-reply"}}',
        fault_detail=f"illegal action {HAND}-fault",
    )
    return game, chance, player


def admin_pages(client: Client, game: Game, chance: Move, player: Move) -> str:
    """Every admin page that shows something of the game, concatenated."""
    urls = [
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_move_changelist"),
        reverse("admin:games_move_change", args=[chance.pk]),
        reverse("admin:games_move_change", args=[player.pk]),
        reverse("admin:games_outcome_changelist"),
    ]
    pages = [client.get(url) for url in urls]
    assert [page.status_code for page in pages] == [200] * len(urls)
    return "".join(page.content.decode() for page in pages)


def test_a_running_games_seed_actions_and_excerpts_are_not_in_the_admin(staff) -> None:
    game, chance, player = game_with_secrets(finished=False)
    html = admin_pages(staff, game, chance, player)
    for secret in (SEED, CARD, HAND):
        assert secret not in html
    assert "hidden until the game is finished" in html


def test_an_aborted_game_keeps_its_secrets_in_the_admin(staff) -> None:
    game, chance, player = game_with_secrets(finished=False)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    html = admin_pages(staff, game, chance, player)
    for secret in (SEED, CARD, HAND):
        assert secret not in html


def test_a_finished_games_seed_actions_and_excerpts_are_shown(staff) -> None:
    game, chance, player = game_with_secrets(finished=True)
    html = admin_pages(staff, game, chance, player)
    for secret in (SEED, CARD, f"{HAND}-reply", f"{HAND}-fault"):
        assert secret in html


def test_searching_games_by_seed_finds_only_finished_ones(staff) -> None:
    running, _, _ = game_with_secrets(finished=False)
    url = reverse("admin:games_game_changelist")
    page = staff.get(url, {"q": SEED})
    assert list(page.context["cl"].result_list) == []
    Game.objects.filter(pk=running.pk).update(status=Game.Status.FINISHED)
    page = staff.get(url, {"q": SEED})
    assert list(page.context["cl"].result_list) == [running]


def test_each_admin_game_links_to_its_public_page_and_verification(staff) -> None:
    game = played_game("manila", [bot.competitor for bot in BotFactory.create_batch(3)])
    chance = game.moves.filter(seat=CHANCE).first()
    public = f'href="{reverse("tournaments:game", args=[game.pk])}"'
    verify = f'href="/api/v1/games/{game.pk}/verify/"'
    for url in (
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_move_change", args=[chance.pk]),
    ):
        html = staff.get(url).content.decode()
        assert public in html and verify in html, url
    assert staff.get(reverse("tournaments:game", args=[game.pk])).status_code == 200
    assert staff.get(f"/api/v1/games/{game.pk}/verify/").status_code == 200
