"""Who reaches the organiser's steps, what is locked once an event runs, and the seed's secrecy.

Anonymous visitors and logged-in people who are not staff are sent to the
admin's login by every step URL, GET or POST; staff without the permission to
change tournaments get 403. Nothing changes for any of them. Once an event
runs, the settings that shape pairing are read-only (a crafted POST cannot
change them), and the event seed appears on no admin page until it is over.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from tests.factories import BotFactory, UserFactory
from tests.tournaments.admin_form_data import tournament_form
from tournaments.models import Entrant, Tournament

from .test_event_steps import snapshot

pytestmark = pytest.mark.django_db

SEED = "event-seed-kept-secret-4711"


@pytest.fixture
def event() -> Tournament:
    tournament = Tournament.objects.create(
        name="Harbour cup", engine="manila", table_size=3, min_table_size=3, rounds=2
    )
    bot = BotFactory(engines=["manila"], visibility="tournament")
    Entrant.objects.create(
        tournament=tournament,
        competitor=bot.competitor,
        seed_order=1,
        status=Entrant.Status.PENDING,
    )
    return tournament


def step_urls(tournament: Tournament) -> list[str]:
    entrant = tournament.entrants.get()
    urls = [
        reverse("admin:tournaments_tournament_event", args=[tournament.pk, step])
        for step in ("open_entries", "start", "pause", "resume", "cancel")
    ]
    urls += [
        reverse("admin:tournaments_tournament_entrant", args=[tournament.pk, entrant.pk, step])
        for step in ("approve", "withdraw", "disqualify")
    ]
    urls += [
        reverse("admin:tournaments_tournament_add_entrants", args=[tournament.pk]),
        reverse("admin:tournaments_tournament_approve_all", args=[tournament.pk]),
    ]
    return urls


def test_visitors_and_people_who_are_not_staff_are_sent_to_the_login(event) -> None:
    bot = BotFactory(engines=["manila"], visibility="tournament")
    person = Client()
    person.force_login(UserFactory(password=None))
    before = snapshot(event)
    for client in (Client(), person):
        for url in step_urls(event):
            for response in (
                client.get(url),
                client.post(url, {"reason": "x", "competitors": [bot.competitor.pk]}),
            ):
                assert response.status_code == 302, url
                assert response.headers["Location"].startswith(reverse("admin:login")), url
    assert snapshot(event) == before


def test_staff_without_the_change_permission_get_403(event) -> None:
    viewer = UserFactory(is_staff=True, password=None)
    viewer.user_permissions.add(Permission.objects.get(codename="view_tournament"))
    client = Client()
    client.force_login(viewer)
    before = snapshot(event)
    for url in step_urls(event):
        assert client.post(url, {"reason": "x"}).status_code == 403, url
    page = client.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))
    assert page.status_code == 200
    assert b"Open entries" not in page.content, "a step is offered to who may not take it"
    listing = client.get(reverse("admin:tournaments_tournament_changelist"))
    assert b"start_action" not in listing.content
    assert snapshot(event) == before


PAIRING = ("engine", "format", "table_size", "min_table_size", "rounds", "move_time_ms", "rated")


@pytest.mark.parametrize("status", ["running", "paused", "finished", "cancelled"])
def test_pairing_settings_are_read_only_once_the_event_runs(staff, event, status) -> None:
    Tournament.objects.filter(pk=event.pk).update(status=status, seed=SEED)
    url = reverse("admin:tournaments_tournament_change", args=[event.pk])
    fields = staff.get(url).context["adminform"].form.fields
    assert not set(PAIRING) & set(fields)
    crafted = tournament_form(
        name="Renamed cup", table_size=5, min_table_size=4, rounds=7, move_time_ms=1, status="draft"
    ) | {"entrants-TOTAL_FORMS": "1", "entrants-INITIAL_FORMS": "1"}
    response = staff.post(url, crafted)
    assert response.status_code == 302, response.context["adminform"].form.errors
    event.refresh_from_db()
    assert event.name == "Renamed cup"
    assert (event.table_size, event.min_table_size, event.rounds) == (3, 3, 2)
    assert (event.move_time_ms, event.status) == (5000, status)


def test_a_draft_keeps_its_settings_open_but_its_engine_once_someone_entered(staff, event) -> None:
    url = reverse("admin:tournaments_tournament_change", args=[event.pk])
    fields = staff.get(url).context["adminform"].form.fields
    assert {"format", "table_size", "rounds", "move_time_ms"} <= set(fields)
    assert "engine" not in fields and "league" not in fields


@pytest.mark.parametrize("status", ["draft", "entries_open", "running", "paused"])
def test_the_event_seed_is_on_no_admin_page_before_the_end(staff, event, status) -> None:
    Tournament.objects.filter(pk=event.pk).update(status=status, seed=SEED)
    pages = [
        reverse("admin:tournaments_tournament_change", args=[event.pk]),
        reverse("admin:tournaments_tournament_changelist"),
        reverse("admin:tournaments_tournament_history", args=[event.pk]),
        reverse("admin:tournaments_tournament_event", args=[event.pk, "cancel"]),
    ]
    for url in pages:
        response = staff.get(url)
        assert response.status_code == 200, url
        assert SEED.encode() not in response.content, url
    page = staff.get(pages[0]).content.decode()
    assert "secret until the event ends" in page
    search = staff.get(reverse("admin:tournaments_tournament_changelist"), {"q": SEED})
    assert search.context["cl"].result_count == 0, "the seed finds its event"


def test_the_event_seed_is_shown_once_the_event_is_over(staff, event) -> None:
    Tournament.objects.filter(pk=event.pk).update(status="finished", seed=SEED)
    page = staff.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))
    assert SEED.encode() in page.content
