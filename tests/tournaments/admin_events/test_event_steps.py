"""Every step of an event through the admin's real URLs, as a logged-in staff user.

Each step is a POST to the admin that calls one ``tournaments.events``
service (the real one). A step the service refuses shows its sentence as an
error message and changes nothing: the tournament, its entrants and its
rounds are compared before and after. Games are created by ``start`` but do
not play here (their advance waits for a commit the test transaction never
makes), which keeps round 1 under way while the organiser pauses, resumes,
withdraws and cancels.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import BotFactory, CompetitorFactory, LeagueFactory
from tests.tournaments.admin_form_data import tournament_form
from tournaments.models import Entrant, League, Round, Table, Tournament

pytestmark = pytest.mark.django_db


def step_url(tournament: Tournament, step: str) -> str:
    return reverse("admin:tournaments_tournament_event", args=[tournament.pk, step])


def entrant_url(entrant: Entrant, step: str) -> str:
    return reverse(
        "admin:tournaments_tournament_entrant", args=[entrant.tournament_id, entrant.pk, step]
    )


def add_entrants_url(tournament: Tournament) -> str:
    return reverse("admin:tournaments_tournament_add_entrants", args=[tournament.pk])


def change_url(tournament: Tournament) -> str:
    return reverse("admin:tournaments_tournament_change", args=[tournament.pk])


def post(client: Client, url: str, data: dict | None = None) -> tuple[Any, list[tuple[str, str]]]:
    """POST and follow the redirect; the page and its messages as (level, text)."""
    page = client.post(url, data or {}, follow=True)
    assert page.status_code == 200
    shown = [(m.level_tag, str(m)) for m in page.context["messages"]] if page.context else []
    return page, shown


def snapshot(tournament: Tournament) -> dict[str, Any]:
    """The event's rows, to show that a refused step changed nothing."""
    return {
        "tournament": Tournament.objects.filter(pk=tournament.pk).values().get(),
        "entrants": list(Entrant.objects.filter(tournament=tournament).order_by("pk").values()),
        "rounds": list(Round.objects.filter(tournament=tournament).order_by("pk").values()),
        "tables": list(Table.objects.filter(round__tournament=tournament).values()),
        "games": list(Game.objects.filter(tournament=tournament).order_by("pk").values()),
    }


def manila_bots(count: int, **fields: Any) -> list:
    return BotFactory.create_batch(
        count, engines=["manila"], visibility="tournament", max_concurrent_games=4, **fields
    )


@pytest.fixture
def draft(staff, organiser) -> Tournament:
    """A draft manila Swiss of 2 rounds in tables of 3, created through the add form."""
    page = staff.post(reverse("admin:tournaments_tournament_add"), tournament_form(rounds=2))
    assert page.status_code == 302
    staff.get(page.headers["Location"])  # shows (and so uses up) the "was added" message
    tournament = Tournament.objects.get()
    assert tournament.organiser == organiser
    return tournament


def enter(staff: Client, tournament: Tournament, competitors: list, *, approved: bool = True):
    data: dict[str, Any] = {"competitors": [c.pk for c in competitors]}
    if approved:
        data["approved"] = "on"
    return post(staff, add_entrants_url(tournament), data)


def test_an_organiser_runs_an_event_from_draft_to_cancelled(staff, draft) -> None:
    bots = manila_bots(9)
    _, shown = post(staff, step_url(draft, "open_entries"))
    assert shown == [("success", f"Entries are open for {draft}.")]
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.ENTRIES_OPEN

    # Entered unapproved: they wait; one approved alone, the rest at once.
    _, shown = enter(staff, draft, [bot.competitor for bot in bots], approved=False)
    assert shown[0][0] == "success" and shown[0][1].startswith("Entered 9: ")
    entrants = list(draft.entrants.order_by("pk"))
    assert {e.status for e in entrants} == {Entrant.Status.PENDING}
    html = staff.get(change_url(draft)).content.decode()
    approve_button = f'form="event-entrant-step" formaction="{entrant_url(entrants[0], "approve")}"'
    assert approve_button in html, "no approve button for a waiting entrant"
    # Forms cannot nest: the button's form is the panel's, before the settings form opens.
    assert html.index('<form id="event-entrant-step"') < html.index('id="tournament_form"')
    _, shown = post(staff, entrant_url(entrants[0], "approve"))
    assert shown == [("success", f"{entrants[0].competitor.name} is approved.")]
    _, shown = post(staff, reverse("admin:tournaments_tournament_approve_all", args=[draft.pk]))
    assert shown == [("success", "8 entrant(s) approved.")]
    assert set(draft.entrants.values_list("status", flat=True)) == {Entrant.Status.ACTIVE}

    page, shown = post(staff, step_url(draft, "start"))
    assert shown[0][0] == "success", shown
    draft.refresh_from_db()
    assert (draft.status, draft.current_round) == (Tournament.Status.RUNNING, 1)
    round_one = Round.objects.get(tournament=draft, number=1)
    games = list(Game.objects.filter(tournament=draft))
    assert len(games) == 3 and round_one.tables.count() == 3
    html = page.content.decode()
    for game in games:
        assert reverse("tournaments:game", args=[game.pk]) in html, "a game is not linked"
    assert f'href="/tournaments/{draft.pk}/"' in html, "the public page is not linked"
    assert draft.seed and draft.seed not in html, "the running event's seed is on its page"
    assert draft.seed_commitment in html
    standings = html[html.index('id="event-standings"') : html.index('id="event-rounds"')]
    assert "Standings so far" in standings
    assert standings.count("<tr><td>1</td>") == 9, "not every entrant is listed, tied first"

    # Pause asks for an (optional) reason on a page of its own, then resume.
    assert staff.get(step_url(draft, "pause")).status_code == 200
    _, shown = post(staff, step_url(draft, "pause"), {"reason": "lunch break"})
    assert shown[0][0] == "success"
    draft.refresh_from_db()
    assert (draft.status, draft.status_reason) == (Tournament.Status.PAUSED, "lunch break")
    _, shown = post(staff, step_url(draft, "resume"))
    assert shown[0][0] == "success"
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.RUNNING

    # Withdraw and disqualify: a confirmation page asks the reason; none is refused.
    leaver, cheat = entrants[1], entrants[2]
    page = staff.get(entrant_url(leaver, "withdraw"))
    assert page.status_code == 200 and b'name="reason"' in page.content
    before = snapshot(draft)
    page = staff.post(entrant_url(leaver, "withdraw"), {"reason": "  "})
    assert page.status_code == 200 and page.context["form"].errors["reason"]
    assert snapshot(draft) == before
    _, shown = post(staff, entrant_url(leaver, "withdraw"), {"reason": "owner asked"})
    assert shown == [("success", f"{leaver.competitor.name} is withdrawn.")]
    _, shown = post(staff, entrant_url(cheat, "disqualify"), {"reason": "copied a bot"})
    assert shown == [("success", f"{cheat.competitor.name} is disqualified.")]
    leaver.refresh_from_db()
    cheat.refresh_from_db()
    assert (leaver.status, leaver.reason) == (Entrant.Status.WITHDRAWN, "owner asked")
    assert (cheat.status, cheat.reason) == (Entrant.Status.DISQUALIFIED, "copied a bot")

    # Cancel needs a reason too.
    before = snapshot(draft)
    page = staff.post(step_url(draft, "cancel"), {"reason": ""})
    assert page.status_code == 200 and page.context["form"].errors["reason"]
    assert snapshot(draft) == before
    _, shown = post(staff, step_url(draft, "cancel"), {"reason": "storm over the harbour"})
    assert shown[0][0] == "success"
    draft.refresh_from_db()
    assert (draft.status, draft.status_reason) == (
        Tournament.Status.CANCELLED,
        "storm over the harbour",
    )


def test_the_change_page_offers_the_steps_of_the_status(staff, draft) -> None:
    def steps() -> set[str]:
        html = staff.get(change_url(draft)).content.decode()
        return {step for step in EVENT_STEPS if step_url(draft, step) in html} | (
            {"add_entrants"} if add_entrants_url(draft) in html else set()
        )

    assert steps() == {"open_entries", "start", "cancel", "add_entrants"}
    post(staff, step_url(draft, "open_entries"))
    assert steps() == {"start", "cancel", "add_entrants"}


EVENT_STEPS = ("open_entries", "start", "pause", "resume", "cancel")


def test_refused_steps_show_the_services_sentence_and_change_nothing(staff, draft) -> None:
    post(staff, step_url(draft, "open_entries"))
    too_few = manila_bots(2)
    enter(staff, draft, [bot.competitor for bot in too_few])
    for step, data in [("start", {}), ("resume", {}), ("pause", {"reason": "why not"})]:
        before = snapshot(draft)
        _, shown = post(staff, step_url(draft, step), data)
        assert [level for level, _ in shown] == ["error"], (step, shown)
        assert shown[0][1], "an empty error message"
        assert snapshot(draft) == before, f"a refused {step} changed the event"
    pending = Entrant.objects.filter(tournament=draft).first()
    before = snapshot(draft)
    _, shown = post(staff, entrant_url(pending, "approve"))  # already active
    assert [level for level, _ in shown] == ["error"]
    assert snapshot(draft) == before


def test_a_bot_that_does_not_play_the_engine_is_refused_and_nobody_is_entered(staff, draft) -> None:
    good = manila_bots(2)
    wrong = BotFactory(engines=["batavia"], visibility="tournament")
    before = snapshot(draft)
    page = staff.post(
        add_entrants_url(draft),
        {"competitors": [good[0].competitor.pk, wrong.competitor.pk, good[1].competitor.pk]},
        follow=True,
    )
    shown = [(m.level_tag, str(m)) for m in page.context["messages"]]
    errors = [text for level, text in shown if level == "error"]
    assert len(errors) == 1 and errors[0].startswith(f"{wrong.competitor.name}: ")
    assert "does not play Manila" in errors[0]
    assert snapshot(draft) == before, "the good bots were entered although one was refused"


@pytest.mark.parametrize("pool", [League.Pool.BOTS, League.Pool.MIXED, League.Pool.PEOPLE])
def test_people_are_not_offered_and_a_forged_choice_is_refused(staff, organiser, pool) -> None:
    league = LeagueFactory(engine="manila", pool=pool)
    staff.post(reverse("admin:tournaments_tournament_add"), tournament_form(league=league.pk))
    tournament = Tournament.objects.get()
    person = CompetitorFactory(kind="person", user=organiser)
    bot = manila_bots(1)[0]
    page = staff.get(add_entrants_url(tournament))
    offered = set(page.context["form"].fields["competitors"].queryset)
    assert person not in offered, "a person only enters themselves: never offered here"
    assert (bot.competitor in offered) == (pool != League.Pool.PEOPLE)
    before = snapshot(tournament)
    page = staff.post(add_entrants_url(tournament), {"competitors": [person.pk]})
    assert page.status_code == 200
    assert page.context["form"].errors["competitors"], "the forged choice is named"
    assert snapshot(tournament) == before


def test_a_step_is_never_taken_on_get(staff, draft) -> None:
    before = snapshot(draft)
    for step in ("open_entries", "start", "resume"):
        response = staff.get(step_url(draft, step))
        assert response.status_code == 302
    assert snapshot(draft) == before


def test_an_unknown_step_or_entrant_is_not_found(staff, draft) -> None:
    assert staff.post(step_url(draft, "explode")).status_code == 404
    other = Tournament.objects.create(name="Other", engine="manila")
    bot = manila_bots(1)[0]
    entrant = Entrant.objects.create(tournament=other, competitor=bot.competitor, seed_order=1)
    url = reverse("admin:tournaments_tournament_entrant", args=[draft.pk, entrant.pk, "approve"])
    assert staff.post(url).status_code == 404


def test_list_actions_open_entries_and_report_each_refusal(staff, draft) -> None:
    running = Tournament.objects.create(
        name="Already running", engine="manila", status=Tournament.Status.RUNNING
    )
    page = staff.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "open_entries_action", "_selected_action": [draft.pk, running.pk]},
        follow=True,
    )
    shown = {(m.level_tag, str(m).split(":")[0]) for m in page.context["messages"]}
    assert ("success", draft.name) in shown and ("error", running.name) in shown
    draft.refresh_from_db()
    running.refresh_from_db()
    assert draft.status == Tournament.Status.ENTRIES_OPEN
    assert running.status == Tournament.Status.RUNNING


def test_the_change_page_puts_the_events_problems_first(staff, draft) -> None:
    """An aborted game and a game with no move for far too long, named with their reasons."""
    from datetime import timedelta

    from django.utils import timezone

    post(staff, step_url(draft, "open_entries"))
    enter(staff, draft, [bot.competitor for bot in manila_bots(6)])
    post(staff, step_url(draft, "start"))
    aborted, stuck = Game.objects.filter(tournament=draft).order_by("pk")
    Game.objects.filter(pk=aborted.pk).update(status=Game.Status.ABORTED)
    Game.objects.filter(pk=stuck.pk).update(last_progress_at=timezone.now() - timedelta(hours=1))
    html = staff.get(change_url(draft)).content.decode()
    panel = html[html.index('class="event-problems"') : html.index("</section>")]
    assert f"Game {aborted.pk} (round 1, table" in panel and "was aborted" in panel
    assert f"Game {stuck.pk} (round 1, table" in panel and "has made no move for 60 min" in panel
    assert html.index('class="event-problems"') < html.index('id="tournament_form"'), (
        "the problems are not above the settings"
    )


def test_list_actions_start_pause_and_resume(staff, draft) -> None:
    changelist = reverse("admin:tournaments_tournament_changelist")
    post(staff, step_url(draft, "open_entries"))
    enter(staff, draft, [bot.competitor for bot in manila_bots(3)])

    def act(action: str) -> list[tuple[str, str]]:
        page = staff.post(
            changelist, {"action": action, "_selected_action": [draft.pk]}, follow=True
        )
        return [(m.level_tag, str(m)) for m in page.context["messages"]]

    assert act("start_action") == [("success", f"{draft.name}: started")]
    assert Round.objects.filter(tournament=draft, number=1).exists()
    assert act("resume_action")[0][0] == "error", "resumed a running event"
    assert act("pause_action") == [("success", f"{draft.name}: paused")]
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.PAUSED
    assert act("resume_action") == [("success", f"{draft.name}: resumed")]
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.RUNNING
