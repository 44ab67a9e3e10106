"""Creating a tournament or a league in the admin: unplayable settings are refused, nothing saved.

Each bad form must come back with the error on the field to change (or at
the top when that field is not on the form) and leave the database as it was;
the good form saves a draft whose organiser is the staff user and whose
event seed is not yet made (the services make it).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import BotFactory, CompetitorFactory, LeagueFactory
from tests.tournaments.admin_form_data import league_form, tournament_form
from tournaments.models import ArenaEntry, League, Tournament

pytestmark = pytest.mark.django_db

ADD = "admin:tournaments_tournament_add"


def refused(staff, form: dict, field: str | None) -> list[str]:
    """Post ``form`` to the add page; it must come back (200) with errors on ``field``."""
    page = staff.post(reverse(ADD), form)
    assert page.status_code == 200, "the bad form was accepted"
    errors = page.context["adminform"].form.errors
    assert not Tournament.objects.exists(), "a refused form saved a tournament"
    return errors[field or "__all__"]


def test_a_good_form_saves_a_draft_owned_by_the_organiser(staff, organiser) -> None:
    page = staff.post(reverse(ADD), tournament_form())
    assert page.status_code == 302, page.context and page.context["adminform"].form.errors
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.DRAFT
    assert tournament.organiser == organiser
    assert (tournament.table_size, tournament.min_table_size, tournament.rounds) == (3, 3, 3)
    assert tournament.seed == "" and tournament.current_round == 0


def test_a_time_control_of_zero_is_refused(staff) -> None:
    assert refused(staff, tournament_form(move_time_ms=0), "move_time_ms") == [
        "a move needs time: give at least 1 ms"
    ]


def test_a_smallest_table_above_the_table_size_is_refused(staff) -> None:
    assert refused(staff, tournament_form(table_size=3, min_table_size=4), "min_table_size") == [
        "the smallest table (4) cannot be larger than the table size (3)"
    ]


@pytest.mark.parametrize(
    ("engine", "size", "smallest", "field", "message"),
    [
        ("manila", 6, 3, "table_size", "Manila is played by 3 to 5 players, not 6"),
        ("manila", 4, 2, "min_table_size", "Manila is played by 3 to 5 players, not 2"),
        ("grog_island", 5, 4, "table_size", "Grog Island is played by 2 to 4 players, not 5"),
    ],
)
def test_table_sizes_the_engine_does_not_allow_are_refused(
    staff, engine, size, smallest, field, message
) -> None:
    form = tournament_form(engine=engine, table_size=size, min_table_size=smallest)
    assert refused(staff, form, field) == [message]


def test_options_the_engine_does_not_know_are_refused(staff) -> None:
    errors = refused(staff, tournament_form(options='{"speed": "fast"}'), "options")
    assert errors == ["unknown option(s) speed for manila; known: pirates_replace"]


def test_an_engine_other_than_the_leagues_is_refused(staff) -> None:
    league = LeagueFactory(engine="batavia")
    errors = refused(staff, tournament_form(league=league.pk), "engine")
    assert errors == [f"the league {league} plays batavia; its tournaments play the same engine"]


def test_a_knockout_that_would_send_everyone_through_is_refused(staff) -> None:
    form = tournament_form(format="knockout", advance_per_table=3)
    assert refused(staff, form, "advance_per_table") == [
        "a knockout table sends 1 to 2 players through (fewer than its smallest table, 3), not 3"
    ]


def test_zero_rounds_are_refused(staff) -> None:
    assert refused(staff, tournament_form(rounds=0), "rounds") == [
        "an event has at least one round (or leave it empty)"
    ]


def test_negative_bye_points_are_refused(staff) -> None:
    assert refused(staff, tournament_form(bye_points=-1), "bye_points") == [
        "a bye earns 0 points or more (or leave it empty)"
    ]


def test_the_add_form_has_no_field_the_services_own(staff) -> None:
    fields = staff.get(reverse(ADD)).context["adminform"].form.fields
    owned = {"seed", "seed_commitment", "status", "status_reason", "current_round"}
    assert not owned & set(fields)
    assert {"started_at", "finished_at", "organiser"}.isdisjoint(fields)


def test_posting_the_service_fields_changes_nothing(staff) -> None:
    form = tournament_form(status="running", seed="chosen", current_round=2, seed_commitment="x")
    assert staff.post(reverse(ADD), form).status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.status, tournament.seed, tournament.current_round) == ("draft", "", 0)
    assert tournament.seed_commitment == ""


# --- leagues ------------------------------------------------------------------------------

LEAGUE_ADD = "admin:tournaments_league_add"


def test_a_league_with_an_unplayable_arena_is_refused(staff) -> None:
    for bad, field, message in [
        ({"arena_move_time_ms": 0}, "arena_move_time_ms", "a move needs time: give at least 1 ms"),
        (
            {"arena_table_size": 6},
            "arena_table_size",
            "Manila is played by 3 to 5 players, not 6",
        ),
        (
            {"arena_table_size": 3, "arena_min_table_size": 4},
            "arena_min_table_size",
            "the smallest table (4) cannot be larger than the table size (3)",
        ),
    ]:
        page = staff.post(reverse(LEAGUE_ADD), league_form(**bad))
        assert page.status_code == 200
        assert page.context["adminform"].form.errors[field] == [message]
    assert not League.objects.exists()
    assert staff.post(reverse(LEAGUE_ADD), league_form(pool="bots")).status_code == 302
    assert League.objects.get().pool == "bots"


def arena_rows(*rows: dict) -> dict[str, str]:
    form = {"arena_entries-TOTAL_FORMS": str(len(rows)), "arena_entries-INITIAL_FORMS": "0"}
    for i, row in enumerate(rows):
        form |= {f"arena_entries-{i}-{key}": str(value) for key, value in row.items()}
    return form


def test_arena_entries_are_added_inline_and_the_ineligible_are_refused(staff) -> None:
    league = LeagueFactory(engine="manila", pool=League.Pool.BOTS)
    url = reverse("admin:tournaments_league_change", args=[league.pk])
    base = league_form(name=league.name, slug=league.slug, pool="bots", description="changed")
    plays_manila = BotFactory(engines=["manila"])
    plays_batavia = BotFactory(engines=["batavia"])
    person = CompetitorFactory(kind="person")
    for wrong, message in [
        (plays_batavia, f"{plays_batavia.competitor.name} does not play manila (it plays batavia)"),
        (person, f"{league} is for bots only; {person.name} is a person"),
    ]:
        competitor = getattr(wrong, "competitor", wrong)
        form = base | arena_rows(
            {"competitor": plays_manila.competitor.pk, "active": "on"},
            {"competitor": competitor.pk, "active": "on"},
        )
        page = staff.post(url, form)
        assert page.status_code == 200
        errors = page.context["inline_admin_formsets"][0].formset.errors
        assert errors[1] == {"competitor": [message]}
        assert not ArenaEntry.objects.exists(), "a refused row saved the others"
        league.refresh_from_db()
        assert league.description == "", "a refused inline saved the league's change"
    form = base | arena_rows({"competitor": plays_manila.competitor.pk, "active": "on"})
    assert staff.post(url, form).status_code == 302
    entry = ArenaEntry.objects.get()
    assert (entry.league, entry.competitor, entry.active) == (league, plays_manila.competitor, True)
