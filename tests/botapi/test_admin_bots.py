"""A bot's engines in the admin: one checkbox per registered engine, saving the API's JSON list."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

import engines
from botapi.models import Bot
from tests.factories import BotFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    client.force_login(UserFactory(admin=True, password=None))
    return client


def bot_form(bot: Bot, engine_slugs: list[str]) -> dict[str, object]:
    return {
        "name": bot.name,
        "description": bot.description,
        "engines": engine_slugs,
        "mode": bot.mode,
        "visibility": bot.visibility,
        "endpoint_url": bot.endpoint_url,
        "max_concurrent_games": bot.max_concurrent_games,
        "status": bot.status,
        "status_reason": bot.status_reason,
    }


def checked_engines(html: str) -> list[str]:
    boxes = re.findall(r'<input type="checkbox" name="engines"[^>]*>', html)
    return [re.search(r'value="([^"]+)"', box).group(1) for box in boxes if "checked" in box]


def test_the_add_page_offers_a_checkbox_per_registered_engine(staff) -> None:
    html = staff.get(reverse("admin:botapi_bot_add")).content.decode()
    offered = re.findall(r'<input type="checkbox" name="engines" value="([^"]+)"', html)
    assert offered == [engine.slug for engine in engines.all_engines()]


def test_engines_ticked_in_the_admin_are_saved_as_the_api_saves_them_and_shown_ticked(
    staff,
) -> None:
    owner = UserFactory(password=None)
    form = bot_form(Bot(name="ticked", endpoint_url="http://127.0.0.1:9/"), ["batavia", "manila"])
    form["owner"] = owner.pk
    assert staff.post(reverse("admin:botapi_bot_add"), form).status_code == 302
    bot = Bot.objects.get(name="ticked")
    assert bot.engines == ["batavia", "manila"]
    change = reverse("admin:botapi_bot_change", args=[bot.pk])
    assert checked_engines(staff.get(change).content.decode()) == ["batavia", "manila"]
    assert staff.post(change, bot_form(bot, ["grog_island"])).status_code == 302
    bot.refresh_from_db()
    assert bot.engines == ["grog_island"]


def test_a_bot_registered_through_the_api_round_trips_through_the_admin(staff) -> None:
    bot = BotFactory(engines=["manila", "cargo_noir"])
    change = reverse("admin:botapi_bot_change", args=[bot.pk])
    ticked = checked_engines(staff.get(change).content.decode())
    assert sorted(ticked) == ["cargo_noir", "manila"]
    assert staff.post(change, bot_form(bot, ticked)).status_code == 302
    bot.refresh_from_db()
    assert sorted(bot.engines) == ["cargo_noir", "manila"]


@pytest.mark.parametrize(
    ("engine_slugs", "error"),
    [
        (["chess"], "Select a valid choice. chess is not one of the available choices."),
        (["manila", "chess"], "Select a valid choice. chess is not one of the available choices."),
        ([], "This field is required."),
    ],
)
def test_unknown_or_no_engines_are_refused_and_change_nothing(staff, engine_slugs, error) -> None:
    bot = BotFactory(engines=["manila"])
    form = bot_form(bot, engine_slugs) | {"description": "changed"}
    page = staff.post(reverse("admin:botapi_bot_change", args=[bot.pk]), form)
    assert page.status_code == 200
    assert page.context["adminform"].form.errors["engines"] == [error]
    bot.refresh_from_db()
    assert (bot.engines, bot.description) == (["manila"], "")
