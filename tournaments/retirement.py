"""The events' check before a competitor is deleted (registered in ``games.retirement``)."""

from __future__ import annotations

from games.retirement import Kept
from tournaments.models import ArenaEntry, Entrant


def keep_entrants(competitor_id: int) -> Kept | None:
    """An entrant stays on its events' record; an arena entry without games just goes."""
    entries = list(
        Entrant.objects.filter(competitor_id=competitor_id).values_list(
            "tournament__name", flat=True
        )
    )
    if entries:
        return Kept(
            "entered", f"entered in {', '.join(entries)}; entries stay on the event's record"
        )
    ArenaEntry.objects.filter(competitor_id=competitor_id).delete()  # it never played
    return None
