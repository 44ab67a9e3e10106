"""The one error the event services raise: a sentence the organiser (or entrant) reads."""

from __future__ import annotations


class EventError(ValueError):
    """A refused event action; nothing was changed. The message says why and what to do.

    The admin shows it as a form error, the REST API as a 400 body, so it is
    written for a person: what was refused, and what would make it work.
    """
