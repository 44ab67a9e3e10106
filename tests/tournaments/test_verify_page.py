"""``/games/<id>/verify/``: the audit as checks in words, passed or failed, and why not yet."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from engines import CHANCE
from games.models import Game, Move
from tests.factories import CompetitorFactory
from tests.tournaments.played import played_game
from tests.tournaments.test_verify import tamper_first_open_chance_move
from tournaments.models import Round, Table, Tournament

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def verdicts(page: str) -> dict[str, str]:
    """Each check's title and verdict, from the page."""
    found = {}
    for item in re.findall(r'<li class="check check-[^"]+">(.*?)</li>\s*(?=<li class="check|</ol>)',
                           page, flags=re.S):  # fmt: skip
        verdict = re.search(r'class="check-verdict">([^<]+)<', item).group(1)
        title = re.search(r"<strong>([^<]+)\.</strong>", item).group(1)
        found[title] = verdict
    return found


def game(seed: str = "verify-page", **fields) -> Game:
    return played_game("manila", CompetitorFactory.create_batch(3), seed=seed, **fields)


def test_a_real_game_passes_every_check(client: Client) -> None:
    honest = game()
    response = client.get(f"/games/{honest.pk}/verify/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Verified: every check passed." in page
    checks = verdicts(page)
    assert len(checks) == 6 and set(checks.values()) == {"Passed"}, checks
    assert "Every chance draw comes from the seed" in checks
    chance = Move.objects.filter(game=honest, seat=CHANCE).count()
    assert f"Each of the {chance} dice rolls, deals and draws" in text(page)
    assert honest.seed in page and honest.seed_commitment in page
    assert f"Replayed {honest.next_ply} plies" in text(page)
    assert f'href="/api/v1/games/{honest.pk}/verify/"' in page
    assert f'href="/api/v1/games/{honest.pk}/record/"' in page


def test_the_game_page_links_to_it_once_public(client: Client) -> None:
    honest = game()
    page = client.get(f"/games/{honest.pk}/").content.decode()
    assert f'href="/games/{honest.pk}/verify/"' in page
    assert f'href="/api/v1/games/{honest.pk}/record/"' in page
    assert "Download record (JSON)" in page


def test_a_tampered_chance_move_fails_its_check_at_its_ply(client: Client) -> None:
    tampered = game("tampered")
    ply = tamper_first_open_chance_move(tampered)
    page = client.get(f"/games/{tampered.pk}/verify/").content.decode()
    assert "Not verified" in page
    checks = verdicts(page)
    assert checks["Every chance draw comes from the seed"] == "Failed"
    assert checks["The seed is the one committed to"] == "Passed"
    assert f"Ply {ply}: recorded" in text(page) and "but the seed gives" in page


def test_an_illegal_move_stops_the_replay_and_later_checks_are_not_reached(client) -> None:
    tampered = game("illegal")
    move = Move.objects.filter(game=tampered).exclude(seat=CHANCE).order_by("ply")[5]
    Move.objects.filter(pk=move.pk).update(action={"type": "no such action"})
    page = client.get(f"/games/{tampered.pk}/verify/").content.decode()
    checks = verdicts(page)
    assert checks["Every player action is legal"] == "Failed"
    assert checks["The replay reproduces the recorded result"] == "Not checked"
    assert checks["Every chance draw comes from the seed"] == "Not checked"
    assert checks["The move log is complete and in turn"] == "Not checked"
    assert checks["The seed is the one committed to"] == "Passed"
    assert f"the replay stopped at ply {move.ply}" in text(page)


def test_a_running_game_cannot_be_verified_yet_and_leaks_nothing(client: Client) -> None:
    running = game("running-secret", plies=20)
    response = client.get(f"/games/{running.pk}/verify/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "This game cannot be verified yet." in page
    assert "is running: its record is published when it has finished" in page
    assert running.seed_commitment in page and "running-secret" not in page
    assert "/record/" not in page


def test_an_open_duplicate_set_cannot_be_verified_yet(client: Client) -> None:
    event = Tournament.objects.create(name="Duplicate", engine="manila", duplicate=True)
    table = Table.objects.create(
        round=Round.objects.create(tournament=event, number=1), number=1, seats=[1, 2, 3]
    )
    finished = game("dup-secret")
    running = game("dup-secret", plies=8)
    Game.objects.filter(pk__in=[finished.pk, running.pk]).update(tournament=event, table=table)
    page = client.get(f"/games/{finished.pk}/verify/").content.decode()
    assert "cannot be verified yet" in page and "duplicate set" in page
    assert "dup-secret" not in page


def test_a_missing_game_is_a_404(client: Client) -> None:
    assert client.get("/games/999999/verify/").status_code == 404
