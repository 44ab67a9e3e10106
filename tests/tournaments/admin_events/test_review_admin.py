"""Reviewing a round and adjudicating a game through the admin's real URLs (#31, point 5).

The change page of an event that reviews each round shows the proposed
tables with a swap form, Release and Re-pair; a game that is aborted or
broken has an "Adjudicate…" page. Each POST calls one service; a refusal is
its sentence as an error message, and nothing changes.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tournaments import events
from tournaments.models import Adjudication, Round, Table, Tournament

from .test_event_steps import change_url, manila_bots, post, snapshot

pytestmark = pytest.mark.django_db


def proposed_event(count: int = 6) -> Tournament:
    event = Tournament.objects.create(
        name="Review night", engine="manila", format="swiss", table_size=3, min_table_size=3,
        rounds=2, review_rounds=True,
    )  # fmt: skip
    events.open_entries(event)
    for bot in manila_bots(count):
        events.enter(event, bot.competitor, by=bot.owner)
    events.start(event)
    return event


def round_url(event: Tournament, step: str, number: int = 1) -> str:
    return reverse("admin:tournaments_tournament_round", args=[event.pk, number, step])


def adjudicate_url(game: Game) -> str:
    return reverse("admin:tournaments_tournament_adjudicate", args=[game.tournament_id, game.pk])


def tables(event: Tournament) -> list[list[int]]:
    return list(
        Table.objects.filter(round__tournament=event)
        .order_by("number")
        .values_list("seats", flat=True)
    )


def test_the_change_page_shows_the_proposed_round_and_a_swap_moves_two_entrants(
    staff: Client,
) -> None:
    event = proposed_event()
    page = staff.get(change_url(event))
    html = page.content.decode()
    assert "Review round 1" in html and "Release round 1" in html and "Re-pair round 1" in html
    (a, b, c), (d, e, f) = tables(event)
    assert f'value="{b}"' in html, "the swap form lists the round's entrants"
    _, shown = post(staff, round_url(event, "swap"), {"first": b, "second": e})
    assert shown == [("success", "Swapped in round 1.")]
    assert tables(event) == [[a, e, c], [d, b, f]]

    before = snapshot(event)
    _, shown = post(staff, round_url(event, "swap"), {"first": a, "second": c})
    assert (
        shown[0][0] == "error"
        and "a swap exchanges entrants of two different tables" in (shown[0][1])
    )
    assert snapshot(event) == before

    _, shown = post(staff, round_url(event, "release"))
    assert shown == [("success", "Round 1 is released: its games are under way.")]
    assert Round.objects.get(tournament=event).status == Round.Status.RUNNING
    assert Game.objects.filter(tournament=event).count() == 2
    assert "Review round 1" not in staff.get(change_url(event)).content.decode()


def test_re_pair_from_the_admin_and_a_refused_release_changes_nothing(staff: Client) -> None:
    event = proposed_event()
    _, shown = post(staff, round_url(event, "repair"))
    assert shown[0][0] == "success"
    assert Round.objects.get(tournament=event).repairs == 1
    events.release_round(event, 1)
    before = snapshot(event)
    _, shown = post(staff, round_url(event, "release"))
    assert shown[0] == (
        "error",
        "round 1 of Review night is running: only a proposed round (one not started yet) can "
        "be released",
    )
    assert snapshot(event) == before
    assert staff.get(round_url(event, "release")).status_code == 405, "only ever on POST"


def test_adjudicating_an_aborted_game_from_the_admin(staff: Client, organiser) -> None:
    event = proposed_event()
    events.release_round(event, 1)
    game = Game.objects.filter(tournament=event).order_by("pk").first()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    page = staff.get(change_url(event)).content.decode()
    assert adjudicate_url(game) in page, "the rounds list offers to adjudicate the aborted game"

    form = staff.get(adjudicate_url(game)).content.decode()
    assert f"Adjudicate game {game.pk}" in form and "seat 1: " in form

    before = snapshot(event)
    refused = staff.post(
        adjudicate_url(game), {"ranks": "1, 2", "scores": "", "reason": "froze"}, follow=True
    )
    messages = [str(m) for m in refused.context["messages"]]
    assert any("give one rank per seat: the game has 3 seats" in m for m in messages)
    assert snapshot(event) == before and not Adjudication.objects.exists()

    _, shown = post(
        staff, adjudicate_url(game), {"ranks": "2 1 3", "scores": "5, 9, 1", "reason": "froze"}
    )
    assert shown[0][0] == "success"
    row = Adjudication.objects.get(game=game)
    assert (row.ranks, row.scores, row.by) == ([2, 1, 3], [5.0, 9.0, 1.0], organiser)
    assert "adjudicated, ranks 2, 1, 3" in staff.get(change_url(event)).content.decode()


def test_a_finished_game_is_not_offered_and_its_adjudication_is_refused(staff: Client) -> None:
    event = proposed_event()
    events.release_round(event, 1)
    game = Game.objects.filter(tournament=event).order_by("pk").first()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    _, shown = post(staff, adjudicate_url(game), {"ranks": "1 2 3", "reason": "x"})
    assert shown[0][0] == "error" and "finished in play" in shown[0][1]
    assert not Adjudication.objects.exists()


def test_people_who_are_not_staff_cannot_review_or_adjudicate(client: Client) -> None:
    event = proposed_event()
    before = snapshot(event)
    response = client.post(round_url(event, "release"))
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert snapshot(event) == before
