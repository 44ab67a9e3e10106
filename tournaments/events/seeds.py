"""The event seed, its public commitment, and every game seed derived from it.

When entries open, a random *event seed* is drawn (``secrets``, 256 bits,
64 hex digits) and ``sha256(event seed)`` is published as the event's
commitment: from then on nothing about the seed changes. The seed itself is
secret until the event is finished or cancelled (:func:`revealed`).

Every game of the event is dealt from a seed derived from it::

    game_seed = HMAC-SHA256(key = event seed, message = "harbormaster/game/{round}/{table}/{deal}")

in lower-case hex, ``round`` and ``table`` 1-based, ``deal`` 0 for an ordinary
table (a duplicate table plays the same deal 0 in every seat rotation). The
pairings use the event seed too (it is the ``seed`` argument of the format's
``next_round``), so they are repeatable. To check an event at the end:

1. ``sha256(revealed seed)`` equals the commitment published before round 1;
2. each game's seed equals ``game_seed(revealed seed, round, table, deal)``
   (and, as for every game, its own ``seed_commitment`` is ``sha256`` of it);
3. optionally, the format run again on the same entrants and results gives
   the same tables.

Since the commitment was public before any table was known, neither the
organiser nor the service could have chosen deals to suit a pairing. HMAC
rather than a plain hash of seed and label: it is the standard keyed
construction, so a game seed revealed at a game's end says nothing about
another game's seed or about the event seed. :func:`verify` runs checks 1
and 2 on the stored games.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

import engines
from tournaments.models import Tournament

SEED_BYTES = 32


def new_event_seed() -> str:
    """A fresh random event seed (64 hex digits)."""
    return secrets.token_hex(SEED_BYTES)


def commitment(event_seed: str) -> str:
    """``sha256(event seed)`` in hex: what is published while the seed is secret."""
    return hashlib.sha256(event_seed.encode("utf-8")).hexdigest()


def game_seed(event_seed: str, round_number: int, table_number: int, deal: int = 0) -> str:
    """The seed of deal ``deal`` at table ``table_number`` of round ``round_number``."""
    message = f"harbormaster/game/{round_number}/{table_number}/{deal}".encode()
    return hmac.new(event_seed.encode("utf-8"), message, hashlib.sha256).hexdigest()


def is_revealed(tournament: Tournament) -> bool:
    """Whether the event seed may be shown: only once the event is finished or cancelled."""
    return tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def revealed(tournament: Tournament) -> str | None:
    """The event seed if it may be shown (event over and a seed was drawn), else None."""
    if not is_revealed(tournament) or not tournament.seed:
        return None
    return tournament.seed


def verify(tournament: Tournament) -> list[str]:
    """What does not check out in an ended event's seeds (empty: everything does).

    Checks the commitment against the revealed seed, and every game's seed
    and seed commitment against the derivation. Refuses (one line saying so)
    while the seed is still secret.
    """
    seed = revealed(tournament)
    if seed is None:
        return ["the event seed is secret until the event is finished or cancelled"]
    problems = []
    if commitment(seed) != tournament.seed_commitment:
        problems.append(
            f"sha256 of the revealed seed is {commitment(seed)}, "
            f"but {tournament.seed_commitment} was published"
        )
    games = tournament.games.filter(table__isnull=False).select_related("table__round")
    for game in games.order_by("id"):
        expected = game_seed(seed, game.table.round.number, game.table.number)
        if game.seed != expected:
            problems.append(f"game {game.pk}: its seed is not the one derived for its table")
        if engines.seed_commitment(game.seed) != game.seed_commitment:
            problems.append(f"game {game.pk}: its seed does not match its own commitment")
    return problems
