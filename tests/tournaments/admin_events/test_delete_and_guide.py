"""A running event's delete is refused with a sentence; the organisers' guide is in the admin.

Issue #31, point 9: deleting a running tournament answered a bare 403, and
``docs/organising.md`` was named but not linked from the admin.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.pages.builders import make_event
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def errors(page) -> list[str]:
    return [str(m) for m in page.context["messages"] if m.level_tag == "error"]


@pytest.mark.parametrize("status", [Tournament.Status.RUNNING, Tournament.Status.PAUSED])
def test_deleting_an_event_under_way_is_refused_with_a_sentence(staff, status) -> None:
    event = make_event(entrants=3, played=1, rounds=3, status=status).tournament
    url = reverse("admin:tournaments_tournament_delete", args=[event.pk])
    page = staff.get(url, follow=True)
    assert page.status_code == 200
    [message] = errors(page)
    assert "cannot be deleted" in message and "Cancel the event" in message
    page = staff.post(url, {"post": "yes"}, follow=True)
    assert "cannot be deleted" in errors(page)[0]
    assert Tournament.objects.filter(pk=event.pk).exists()


def test_the_lists_delete_selected_deletes_nothing_when_one_is_under_way(staff) -> None:
    running = make_event(entrants=3, played=1, rounds=3, name="Running").tournament
    over = make_event(entrants=3, played=3, rounds=3, name="Over").tournament
    page = staff.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "delete_selected", "_selected_action": [running.pk, over.pk], "post": "yes"},
        follow=True,
    )
    assert any("Running is running, so it cannot be deleted" in m for m in errors(page))
    assert Tournament.objects.filter(pk__in=[running.pk, over.pk]).count() == 2


def test_the_admin_links_the_organisers_guide(staff) -> None:
    index = staff.get(reverse("admin:index")).content.decode()
    guide_url = reverse("admin:organising-guide")
    assert guide_url in index
    guide = staff.get(guide_url).content.decode()
    assert "Running an event" in guide and "duplicate" in guide.lower()
    event = make_event(entrants=3, played=0, rounds=3).tournament
    change = staff.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))
    assert guide_url in change.content.decode()
