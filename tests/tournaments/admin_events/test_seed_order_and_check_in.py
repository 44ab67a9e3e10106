"""The organiser's seed order page and check-in step in the admin (#31 points 3 and 7)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import BotFactory
from tests.tournaments.admin_form_data import tournament_form
from tournaments import events
from tournaments.events import seed_order
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser) -> Tournament:
    event = Tournament.objects.create(
        name="Harbour cup", engine="manila", format="swiss", table_size=3, min_table_size=3,
        rounds=2, organiser=organiser, check_in=True,
    )  # fmt: skip
    events.open_entries(event)
    for _ in range(4):
        bot = BotFactory(mode="pull", endpoint_url="")
        events.enter(event, bot.competitor, by=bot.owner)
    return event


def url(event: Tournament) -> str:
    return reverse("admin:tournaments_tournament_seed_order", args=[event.pk])


def entries(event: Tournament) -> list[Entrant]:
    return list(event.entrants.select_related("competitor").order_by("pk"))


def test_the_change_page_links_the_seed_order_and_offers_check_in(staff, event) -> None:
    page = staff.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))
    text = page.content.decode()
    assert url(event) in text and "Seed order…" in text
    assert text.count(">Check in</button>") == 4
    assert "Checked in" in text and "not yet" in text


def test_a_starting_point_fills_the_column_and_saves_nothing(staff, event) -> None:
    page = staff.post(url(event), {"start_from": "random"})
    assert page.status_code == 200
    form = page.context["form"]
    expected = sorted(entries(event), key=lambda e: seed_order.draw(event.seed, e.pk))
    for number, entry in enumerate(expected, start=1):
        assert form[f"seed_{entry.pk}"].value() == number
    assert {e.seed_order for e in entries(event)} == {0}, "nothing saved yet"


def test_the_column_is_saved(staff, event) -> None:
    rows = entries(event)
    data = {"start_from": ""} | {f"seed_{e.pk}": str(4 - i) for i, e in enumerate(rows)}
    response = staff.post(url(event), data)
    assert response.status_code == 302
    assert [e.seed_order for e in entries(event)] == [4, 3, 2, 1]


def test_a_number_given_twice_is_refused_with_a_sentence_and_nothing_saved(staff, event) -> None:
    rows = entries(event)
    data = {"start_from": ""} | {f"seed_{e.pk}": "1" for e in rows[:2]}
    page = staff.post(url(event), data, follow=True)
    text = page.content.decode()
    assert "Two entrants have the same seed order: 1 (" in text
    assert {e.seed_order for e in entries(event)} == {0}


def test_the_check_in_step_checks_an_entrant_in(staff, event) -> None:
    entry = entries(event)[0]
    step = reverse("admin:tournaments_tournament_entrant", args=[event.pk, entry.pk, "check_in"])
    staff.post(step)
    entry.refresh_from_db()
    assert entry.checked_in_at is not None


def test_an_unknown_tie_break_is_refused_by_the_form(staff) -> None:
    page = staff.post(
        reverse("admin:tournaments_tournament_add"), tournament_form(tie_breaks="wins, buchholz")
    )
    assert page.status_code == 200
    (message,) = page.context["adminform"].form.errors["tie_breaks"]
    assert message.startswith("unknown tie-break 'buchholz': choose from tablemates_points")
    assert not Tournament.objects.exists()


def test_chosen_tie_breaks_are_saved_in_order(staff) -> None:
    response = staff.post(
        reverse("admin:tournaments_tournament_add"),
        tournament_form(tie_breaks="wins, head_to_head", check_in="on", absence_grace_s=90),
    )
    assert response.status_code == 302
    saved = Tournament.objects.get()
    assert saved.tie_breaks == ["wins", "head_to_head"]
    assert saved.check_in and saved.absence_grace_s == 90
    assert not saved.allow_same_owner_tables, "owners kept apart by default"
