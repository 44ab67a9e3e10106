"""Whether any game could wait for a person: their seats in unfinished games, cached.

The "game waiting" badge (:mod:`web.people.waiting`) is on every page a signed-in
person sees, and most of them, most of the time, play no game: for them its
query for running seats found nothing, at about half the cost of a signed-in
page served from the page cache. So the badge first asks :func:`may_wait`,
which answers from Django's cache (:mod:`web.cache.versioned`) whether the
person's competitor holds a seat in a game that is not over (scheduled or
running); only then does it run its query.

Why a cached False is never wrong: the answer is about seats in games that
are not over, and a game over (finished, aborted) never comes back, so the
set of such seats grows only when a person's competitor is seated in a new
game, or a seat or a competitor changes hands. Each bumps the person's token
(at once and after the commit):

- a game created (``games.creation.create_game``, the one way games are
  made, which writes its seats with ``bulk_create`` and so no signal per seat):
  after its commit, one query finds the people seated in it;
- a seat saved one at a time (its competitor's user);
- a competitor saved (a person's competitor given to a user).

A True is kept too (it only means "ask the database"): the seats' games may
end meanwhile, which changes nothing here until the timeout, the safety net
for any write no signal sees. Moves never touch this: a person with a game
not over always gets the badge's query, which reads whose turn it is.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save

from games.models import Competitor, Game, Seat
from web.cache import versioned

NAME = "seated"
DEFAULT_SECONDS = 300
NOT_OVER = (Game.Status.SCHEDULED, Game.Status.RUNNING)


def seconds() -> int:
    """How long an answer is kept at most (``WAITING_SEATED_CACHE_SECONDS``; 0: off)."""
    return int(getattr(settings, "WAITING_SEATED_CACHE_SECONDS", DEFAULT_SECONDS))


def _seated(user_id: int) -> bool:
    return Seat.objects.filter(
        competitor__kind=Competitor.Kind.PERSON,
        competitor__user_id=user_id,
        game__status__in=NOT_OVER,
    ).exists()


def may_wait(user: Any) -> bool:
    """False only if no game can be waiting for ``user``: no seat of theirs in a game not over."""
    if seconds() <= 0:
        return True
    seated = versioned.read(NAME, user.pk, lambda: _seated(user.pk), seconds())
    return seated is not False


def bump(user_id: int | None) -> None:
    """``user_id``'s person may have a new seat: ask the database next time."""
    if user_id is not None:
        versioned.bump(NAME, user_id)


def _game_saved(sender: Any, instance: Game, created: bool = False, **kwargs: Any) -> None:
    if not created:
        return
    game_id = instance.pk

    def seated_people() -> None:
        users = Seat.objects.filter(
            game_id=game_id, competitor__kind=Competitor.Kind.PERSON
        ).values_list("competitor__user_id", flat=True)
        for user_id in set(users):
            bump(user_id)

    transaction.on_commit(seated_people)


def _seat_saved(sender: Any, instance: Seat, **kwargs: Any) -> None:
    if Seat.competitor.is_cached(instance):
        competitor = instance.competitor
        if competitor.kind == Competitor.Kind.PERSON:
            bump(competitor.user_id)
        return
    holder = Competitor.objects.filter(pk=instance.competitor_id, kind=Competitor.Kind.PERSON)
    bump(holder.values_list("user_id", flat=True).first())


def _competitor_saved(sender: Any, instance: Competitor, **kwargs: Any) -> None:
    if instance.kind == Competitor.Kind.PERSON:
        bump(instance.user_id)


def connect() -> None:
    """Connect the receivers (``PeopleConfig.ready``)."""
    post_save.connect(_game_saved, sender=Game, dispatch_uid="seated-game-save")
    post_save.connect(_seat_saved, sender=Seat, dispatch_uid="seated-seat-save")
    post_save.connect(_competitor_saved, sender=Competitor, dispatch_uid="seated-competitor-save")
