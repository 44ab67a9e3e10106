"""What the events tell the layers above them.

Most event writes save a model, and ``post_save`` reaches the web's
fragment receivers; these are the writes made with ``QuerySet.update`` (a
guarded state change in one statement), which Django sends no signal for.
"""

from django.dispatch import Signal

event_changed = Signal()
"""An event's public state changed outside ``Model.save``; ``tournament_id``."""


def send_event_changed(tournament_id: int) -> None:
    """Tell the receivers (the web's fragments) that the event's pages must be read again."""
    event_changed.send(sender=None, tournament_id=tournament_id)
