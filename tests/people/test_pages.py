"""The profile page (/me/) and the public person page (/people/<username>/)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from people import selectors, services
from ratings.models import Rating
from ratings.scopes import global_scope, league_scope
from tests.factories import BotFactory, CompetitorFactory, LeagueFactory, UserFactory, finished_game
from tournaments.models import League

pytestmark = pytest.mark.django_db


@pytest.fixture
def person():
    user = UserFactory(username="marta", email="marta-private@example.com", password=None)
    return services.ensure_person(user)


def rate(competitor, scope, elo: float, mu: float, sigma: float, games: int) -> None:
    Rating.objects.create(
        competitor=competitor, scope=scope, system="elo", value=elo, score=elo, games=games
    )
    Rating.objects.create(
        competitor=competitor,
        scope=scope,
        system="trueskill",
        value=mu,
        sigma=sigma,
        score=mu - 3 * sigma,
        games=games,
    )


def row_of(page: str, text: str) -> str:
    """The table row of the ratings table that contains ``text``."""
    rows = re.findall(r"<tr>.*?</tr>", page, flags=re.S)
    found = [row for row in rows if text in row]
    assert len(found) == 1, (text, found)
    return found[0]


def test_anonymous_visitor_is_sent_to_sign_in(client: Client) -> None:
    response = client.get(reverse("people:me"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next=/me/"


def test_accounts_profile_leads_to_me(client: Client, person) -> None:
    client.force_login(person.user)
    assert client.get("/accounts/profile/")["Location"] == reverse("people:me")


def test_profile_splits_ratings_by_scope_and_pool(client: Client, person) -> None:
    people_league = LeagueFactory(name="Ladies' night", engine="manila", pool=League.Pool.PEOPLE)
    mixed_league = LeagueFactory(name="Open table", engine="batavia", pool=League.Pool.MIXED)
    rate(person.competitor, global_scope("manila"), 1512, 27.0, 5.0, 7)
    rate(person.competitor, league_scope(people_league), 1533, 29.0, 6.0, 3)
    rate(person.competitor, league_scope(mixed_league), 1481, 24.0, 7.0, 2)
    someone_else = CompetitorFactory(kind="person", name="someone")
    rate(someone_else, global_scope("cargo_noir"), 1999, 40.0, 1.0, 50)
    client.force_login(person.user)
    page = client.get(reverse("people:me")).content.decode()

    ladder = row_of(page, "global ladder")
    assert "Manila" in ladder and "1512" in ladder and "12.0" in ladder  # 27 - 3*5
    assert ">mixed<" in ladder and ">7<" in ladder
    own_league = row_of(page, "league Ladies")
    assert "people only" in own_league and "1533" in own_league and "11.0" in own_league
    open_league = row_of(page, "league Open table")
    assert "Batavia" in open_league and ">mixed<" in open_league
    assert "1481" in open_league
    assert "1999" not in page  # another person's rating


def test_bots_only_league_says_so() -> None:
    user = UserFactory(password=None)
    bot = BotFactory(owner=user)
    league = LeagueFactory(pool=League.Pool.BOTS)
    rate(bot.competitor, league_scope(league), 1400, 20.0, 4.0, 1)
    [row] = selectors.ratings_by_scope(bot.competitor)
    assert (row.pool, row.pool_text, row.is_global) == ("bots", "bots only", False)


def test_consent_is_saved_and_shown(client: Client, person) -> None:
    client.force_login(person.user)
    assert person.accepts_bot_opponents is False
    response = client.post(reverse("people:me"), {"accepts_bot_opponents": "on"})
    assert response.status_code == 302
    person.refresh_from_db()
    assert person.accepts_bot_opponents is True
    page = client.get(response["Location"]).content.decode()
    assert "Saved: you accept bot opponents" in page
    assert re.search(r'name="accepts_bot_opponents"[^>]* checked', page)
    # An unticked box (the browser sends no field) withdraws it.
    client.post(reverse("people:me"), {})
    person.refresh_from_db()
    assert person.accepts_bot_opponents is False


def test_consent_cannot_be_set_without_signing_in(client: Client, person) -> None:
    response = client.post(reverse("people:me"), {"accepts_bot_opponents": "on"})
    assert response.status_code == 302
    person.refresh_from_db()
    assert person.accepts_bot_opponents is False


def test_profile_lists_recent_games_bots_and_token(client: Client, person) -> None:
    opponent = CompetitorFactory()
    game = finished_game([person.competitor, opponent], [1, 2])
    unlisted = finished_game([person.competitor, opponent], [2, 1], listed=False)
    bot = BotFactory(owner=person.user, name="my-lantern")
    token = Token.objects.create(user=person.user)
    client.force_login(person.user)
    page = client.get(reverse("people:me")).content.decode()
    assert f'href="/games/{game.pk}/"' in page
    assert f'href="/games/{unlisted.pk}/"' not in page
    assert bot.name in page and "Your bots" in page
    assert token.key[:6] in page and token.key not in page


def test_profile_without_bots_or_token_says_how_to_get_one(client: Client, person) -> None:
    client.force_login(person.user)
    page = client.get(reverse("people:me")).content.decode()
    assert "Your bots" not in page
    assert "No API token yet" in page


def test_public_page_shows_ratings_and_games_but_nothing_private(client: Client, person) -> None:
    services.set_consent(person.user, True)
    rate(person.competitor, global_scope("manila"), 1512, 27.0, 5.0, 7)
    game = finished_game([person.competitor, CompetitorFactory()], [1, 2])
    Token.objects.create(user=person.user)
    BotFactory(owner=person.user, name="hidden-bot")
    page = client.get(reverse("people:person", args=["marta"])).content.decode()
    assert "<h1>marta</h1>" in page
    assert "1512" in page and f'href="/games/{game.pk}/"' in page
    for private in ("marta-private@example.com", "accepts_bot_opponents", "bot opponents",
                    "API token", "hidden-bot"):  # fmt: skip
        assert private not in page, private


def test_public_page_of_nobody_is_404(client: Client) -> None:
    assert client.get(reverse("people:person", args=["nobody"])).status_code == 404


def test_public_page_of_an_inactive_account_is_404(client: Client, person) -> None:
    person.user.is_active = False
    person.user.save()
    assert client.get(reverse("people:person", args=["marta"])).status_code == 404


def test_ensure_person_is_idempotent(person) -> None:
    again = services.ensure_person(person.user)
    assert again.pk == person.pk
    assert person.user.competitors.filter(kind="person").count() == 1


def test_admin_lists_profiles_read_only_and_can_delete_the_user(client: Client, person) -> None:
    from django.contrib.auth import get_user_model

    client.force_login(UserFactory(admin=True, password=None))
    listing = client.get("/admin/people/profile/")
    assert listing.status_code == 200 and "marta" in listing.content.decode()
    page = client.get(f"/admin/people/profile/{person.pk}/change/").content.decode()
    assert 'name="accepts_bot_opponents"' not in page  # read-only
    response = client.post(f"/admin/auth/user/{person.user.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(username="marta").exists()


@pytest.mark.parametrize(
    "name", ["account_email", "account_change_password", "account_reset_password"]
)
def test_account_pages_linked_from_the_profile_render_in_the_site_layout(
    client: Client, person, name: str
) -> None:
    client.force_login(person.user)
    # (This account has no usable password: "change" leads on to "set a password".)
    response = client.get(reverse(name), follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="site-header"' in page and 'class="account-form"' in page
