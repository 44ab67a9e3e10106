"""A round's start mailed to the people seated in it (issue #31, point 1).

A bot is asked for its moves; a person must come to the play page, so each
person seated in a new event game gets one e-mail with its link and time
control, once the pairing commits (a pairing rolled back mails nobody).
Connected to ``games.signals.game_created`` in ``TournamentsConfig.ready``:
every event game is made by ``create_game``, whoever paired it. People
without an address are skipped (logged); a mail that fails to send is logged
and never undoes the round. In development the console backend prints it.

A duplicate table plays one game per seat rotation, so its people get one
mail per game: each is a game they must play.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.mail import send_mass_mail
from django.db import transaction
from django.urls import reverse

from games.models import Competitor, Game
from tournaments.models import Tournament

log = logging.getLogger(__name__)


def on_game_created(sender: Any, game: Game, competitor_ids: list[int], **kwargs: Any) -> None:
    """Queue the mails of an event game's people for after the commit."""
    if game.tournament_id is None:
        return
    people = list(
        Competitor.objects.filter(
            pk__in=competitor_ids, kind=Competitor.Kind.PERSON, user__isnull=False
        ).values_list("user__email", "user__username")
    )
    if not people:
        return
    event = Tournament.objects.only("name").get(pk=game.tournament_id)
    messages = [message(game, event.name, username, address) for address, username in people]
    transaction.on_commit(lambda: _send([m for m in messages if m is not None]))


def message(
    game: Game, event_name: str, username: str, address: str
) -> tuple[str, str, None, list[str]] | None:
    """(subject, body, sender, [address]) for ``send_mass_mail``, or None without an address."""
    if not address:
        log.info("no e-mail for %s: round %s of %s", username, game.round_number, event_name)
        return None
    link = f"{settings.SITE_URL}{reverse('tournaments:play', args=[game.pk])}"
    seconds = game.move_time_ms / 1000
    subject = f"[Harbormaster] Round {game.round_number} of {event_name}: your game is ready"
    body = (
        f"Hello {username},\n\n"
        f"Round {game.round_number} of {event_name} has started, and you are seated in game "
        f"#{game.pk}. Play it here: {link}\n\n"
        f"You have {seconds:g} s per move"
        + (f", plus a bank of {game.time_bank_ms / 1000:g} s" if game.time_bank_ms else "")
        + ". A move not made in time is played for you (the default action); after "
        f"{settings.BOT_MAX_FAULTS_PER_GAME} missed moves the house bot plays your seat to the "
        "end of the game.\n"
    )
    return subject, body, None, [address]


def _send(messages: list[tuple[str, str, None, list[str]]]) -> None:
    if not messages:
        return
    try:
        send_mass_mail(messages, fail_silently=False)
    except Exception:
        log.exception("the round-start mails could not be sent")
