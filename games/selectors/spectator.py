"""What anyone may see of a game: the spectator's record, for the game API and the web pages.

The same rules as a bot owner's view of a game (``web/api/bots/visibility.py``),
for someone who holds no seat -- *show less when in doubt*:

* **While a game is not finished** (scheduled, running, aborted) no action is
  shown, neither chance's (a chance action can name a card dealt into a hand
  or a tile still face down) nor a player's (an engine may let a player choose
  something secret). Every ply is listed with who moved (a seat or chance)
  and the *public events* it produced: engines keep events secret-free, and
  the referee publishes exactly those to live pages during play. The seed is
  hidden; its commitment ``sha256(seed)`` is shown from creation.
* **Once finished** (and, for a game of a duplicate set, once its whole set
  is): every action with its ``engine.describe`` text, the seed and the
  outcome; the board replay (``games.records.replay``) may then show each
  seat's view, the actions it was offered, and a bot move's latency and fault
  kind (and which moves a substituted seat's house bot played). An aborted
  game keeps its secrets, seed included. (Before that, a seat's own holder
  may replay that one seat: ``games.selectors.seat_holders``.)
* **A finished game whose duplicate set is still open** is shown as it was
  before its last ply, to everyone (:func:`shown`): its end position and last
  events hold the outcome and the secrets engines reveal at the end.
* Never: fault details and request/reply excerpts (their bot's owner sees them
  through the bot API), nor any seat's private view while the game is on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from django.db.models import Exists, OuterRef, Q, QuerySet

import engines
from engines import CHANCE
from games.models import Game, Move, Seat
from games.records import stored as records


@dataclass(frozen=True)
class PublicPly:
    """One logged move as a spectator may see it."""

    ply: int
    seat: int
    action: dict[str, Any] | None
    description: str | None
    events: list[dict[str, Any]]
    default: str | None = None
    """``"timeout"`` or ``"fault"`` when the referee played the engine's default for the
    seat (:func:`default_mark`), else None: public, as a clock running out is."""

    @property
    def is_chance(self) -> bool:
        return self.seat == CHANCE

    def as_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "chance": self.is_chance,
            "action": self.action,
            "description": self.description,
            "events": self.events,
            "default": self.default,
        }


@dataclass(frozen=True)
class PublicSeat:
    """A seat with its player and, once finished, its result."""

    position: int
    competitor_id: int
    competitor: str
    kind: str
    forfeited: bool | None
    rank: int | None
    score: float | None
    substituted: bool = False

    @property
    def rank_note(self) -> str | None:
        """Why the seat's rank is not its score's, in words (:data:`LEFT_RANKED_LAST`)."""
        return LEFT_RANKED_LAST if self.forfeited else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "competitor_id": self.competitor_id,
            "competitor": self.competitor,
            "kind": self.kind,
            "forfeited": self.forfeited,
            "substituted": self.substituted,
            "rank": self.rank,
            "score": self.score,
            "rank_note": self.rank_note,
        }


LEFT_RANKED_LAST = "left the game: ranked last"
"""The words beside a forfeited seat's rank wherever a finished game is ranked: it resigned,
timed out or faulted too often, or withdrew, and ranks last whatever its score."""


SET_OPEN = "set_open"
"""Annotation name (see :func:`annotate_set_open`) saving a query per listed game."""


def is_public(game: Game) -> bool:
    """Whether the whole record (actions, seed, outcome) may be shown.

    Finished games only, and a game of a duplicate set only once every game of
    its set is over: the set's other games are still being played on the same
    deal, and the seed (or the actions, which show the hidden hands) would
    tell their players what is still secret to them.
    """
    if game.status != Game.Status.FINISHED:
        return False
    return game.table_id is None or not set_still_playing(game)


@dataclass(frozen=True)
class Shown:
    """What of a game may be shown now to anyone it is not public to (see :func:`shown`)."""

    public: bool
    """The whole record: actions, seed, outcome, every seat's view."""
    plies: int
    """How many logged plies (their positions, events and moves) may be shown."""


def shown(game: Game) -> Shown:
    """What of ``game`` every page, API, export and socket may show now: the one rule.

    A public record (:func:`is_public`) is shown whole. Otherwise every logged
    ply is shown as the spectator sees it during play -- except, for a finished
    game whose duplicate set still plays its deal, the last one: the position
    it ends in and its events carry the end (the outcome, the ``game_over``
    event, and what engines reveal at the end: every seat's objectives and
    treasures, shares or letters), which would tell the set's other tables
    their own deal. Such a game stays, for everyone, at the position before its
    end until its set is over; a seat's holder included, whose own view of that
    position they already had while playing.
    """
    public = is_public(game)
    plies = game.next_ply
    if not public and game.status == Game.Status.FINISHED and plies > 0:
        plies -= 1
    return Shown(public=public, plies=plies)


def set_still_playing(game: Game) -> bool:
    """Whether another game of ``game``'s tournament table is still running."""
    annotated = getattr(game, SET_OPEN, None)
    if annotated is not None:
        return bool(annotated)
    return (
        Game.objects.filter(table_id=game.table_id)
        .exclude(pk=game.pk)
        .filter(status__in=[Game.Status.SCHEDULED, Game.Status.RUNNING])
        .exists()
    )


def annotate_set_open(games: QuerySet[Game]) -> QuerySet[Game]:
    """``games`` with :data:`SET_OPEN` annotated, so :func:`is_public` needs no query per game."""
    others = Game.objects.filter(
        table_id=OuterRef("table_id"),
        status__in=[Game.Status.SCHEDULED, Game.Status.RUNNING],
    ).exclude(pk=OuterRef("pk"))
    return games.annotate(**{SET_OPEN: Exists(others)})


def is_public_q(path: str = "") -> Q:
    """:func:`is_public` as a query condition, for aggregates over many games at once.

    ``path`` leads from the queried model to the game (``""`` for games,
    ``"game__"`` for seats or rating changes). Finished, and no other game of
    its duplicate set still scheduled or running.
    """
    others = Game.objects.filter(
        table_id=OuterRef(f"{path}table_id"),
        status__in=[Game.Status.SCHEDULED, Game.Status.RUNNING],
    ).exclude(pk=OuterRef(f"{path}pk"))
    return Q(**{f"{path}status": Game.Status.FINISHED}) & ~Exists(others)


def visible_seed(game: Game) -> str | None:
    return game.seed if is_public(game) else None


def outcome_of(game: Game) -> dict[str, list] | None:
    """Scores and ranks of a finished game (ranks with forfeits last, as rated)."""
    if not is_public(game):
        return None
    outcome = getattr(game, "outcome", None)
    if outcome is None:
        return None
    return {"scores": outcome.scores, "ranks": outcome.ranks}


SEAT_ROWS = "public_seat_rows"
"""Attribute name (see :func:`attach_seat_rows`) of a game's seats read as plain rows."""

SeatRow = tuple[int, int, str, str, bool, bool]
"""A seat as :func:`attach_seat_rows` reads it: position, competitor id, name, kind, forfeited,
substituted."""


def attach_seat_rows(games: list[Game]) -> list[Game]:
    """``games`` (read), each with its seats as :data:`SeatRow` tuples: one query for them all.

    For lists of games (home, ``/games/``, the games API): the seats prefetched
    as ``Seat`` and ``Competitor`` objects were three of every four objects a
    50-game page built, and the largest part of a cold render left (cProfile);
    :func:`public_seats` reads the rows instead, and gives the same seats.
    """
    rows: dict[int, list[SeatRow]] = {game.pk: [] for game in games}
    if rows:
        found = (
            Seat.objects.filter(game_id__in=list(rows))
            .order_by("game_id", "position")
            .values_list("game_id", "position", "competitor_id", "competitor__name",
                         "competitor__kind", "forfeited", "substituted")
        )  # fmt: skip
        for game_id, *seat in found:
            rows[game_id].append(tuple(seat))
    for game in games:
        setattr(game, SEAT_ROWS, rows[game.pk])
    return games


def _seat_rows(game: Game) -> list[SeatRow]:
    """The game's seats in position order: attached rows, else its (prefetched) ``seats``."""
    attached = getattr(game, SEAT_ROWS, None)
    if attached is not None:
        return attached
    seats: list[Seat] = sorted(game.seats.all(), key=lambda seat: seat.position)
    return [
        (s.position, s.competitor_id, s.competitor.name, s.competitor.kind, s.forfeited,
         s.substituted)
        for s in seats
    ]  # fmt: skip


def public_seats(game: Game) -> list[PublicSeat]:
    """The seats in position order; forfeits, ranks and scores only once finished.

    ``substituted`` (a house bot plays a person's seat) is shown during the game
    too: every live page already shows it (``person_moves.frame``), and who
    is playing a seat is no secret.
    """
    outcome = outcome_of(game)
    return [
        PublicSeat(
            position=position,
            competitor_id=competitor_id,
            competitor=name,
            kind=kind,
            forfeited=forfeited if outcome is not None else None,
            rank=outcome["ranks"][position] if outcome is not None else None,
            score=outcome["scores"][position] if outcome is not None else None,
            substituted=substituted,
        )
        for position, competitor_id, name, kind, forfeited, substituted in _seat_rows(game)
    ]


def ranking(game: Game) -> dict[str, Any] | None:
    """The one ranking of a public finished game, for the board's final panel.

    ``{"ranks": [...], "scores": [...], "notes": {"<seat>": "left the game: ranked last"}}``:
    the recorded outcome's ranks (forfeited seats last, as rated, on the game
    page, in the API and in the record), not the engine's by score. None
    until :func:`outcome_of` shows an outcome.
    """
    outcome = outcome_of(game)
    if outcome is None:
        return None
    notes = {str(s.position): s.rank_note for s in public_seats(game) if s.rank_note}
    return {"ranks": outcome["ranks"], "scores": outcome["scores"], "notes": notes}


def public_plies(game: Game) -> list[PublicPly]:
    """Every logged ply with its public events; actions only once the record is public.

    Read from the game's public record (``games.records.stored``: stored once a
    game is finished, kept in memory and extended while it runs), which holds
    only the moves counted by ``game.next_ply``, so a move being written by a
    concurrent transaction never shows half-done. The record holds every action,
    and *this* is where they are hidden unless :func:`is_public`, and the plies
    past :func:`shown`'s left out. A game recorded
    under an older version of its engine's rules is replayed by the current
    rules as far as they accept its moves; past the first one they refuse, its
    plies are listed without events (verification names the version change).
    """
    plies, _ = public_plies_between(game, range)
    return plies


class Span(Protocol):
    """Plies ``start`` up to ``stop`` (excluded): a ``range``, a page's ``ply_window.Window``."""

    @property
    def start(self) -> int: ...

    @property
    def stop(self) -> int: ...


S = TypeVar("S", bound=Span)


def public_plies_between(game: Game, choose: Callable[[int], S]) -> tuple[list[PublicPly], S]:
    """The plies of the span ``choose(total)`` picks, made as :func:`public_plies` makes them,
    and that span: a page listing a window of a long game describes only the window's plies
    (a 1,581-ply game's page shows 500) from one read of the record."""
    now = shown(game)
    reveal = now.public
    rules = engines.get(game.engine)
    rows = records.public_record(game).rows[: now.plies]
    span = choose(len(rows))
    first, last = max(span.start, 0), min(span.stop, len(rows))
    marks = default_marks(game.pk, first, last) if first < last else {}
    plies = []
    for ply in range(first, last):
        seat, action, description, events = rows[ply]
        if reveal and description is None:
            description = rules.describe(action)
        plies.append(
            PublicPly(
                ply=ply,
                seat=seat,
                action=action if reveal else None,
                description=description if reveal else None,
                events=events,
                default=marks.get(ply),
            )
        )
    return plies, span


TIMEOUT = "timeout"
FAULT = "fault"


def default_mark(source: str, fault_kind: str) -> str | None:
    """How a move is marked for everyone: ``"timeout"`` (the seat's clock ran out),
    ``"fault"`` (any other default: a bot's bad answer, a forfeited seat's turn), or None.

    The one field the game page, the API, the record and the live event stream
    share (``default`` on each ply); the fault's detail stays with the bot's owner.
    """
    if source != Move.Source.DEFAULT:
        return None
    return TIMEOUT if fault_kind == TIMEOUT else FAULT


def default_marks(game_id: int, start: int, stop: int) -> dict[int, str]:
    """:func:`default_mark` of every default among plies ``start`` .. ``stop - 1``, by ply.

    One query on the partial index of faulty moves (a default always has a
    fault kind), so a page of plies costs the same however long the game.
    """
    rows = (
        Move.objects.filter(game_id=game_id, ply__gte=start, ply__lt=stop)
        .exclude(fault_kind="")
        .filter(source=Move.Source.DEFAULT)
        .order_by()  # no join to the game for Move's default ordering
        .values_list("ply", "fault_kind")
    )
    return {ply: TIMEOUT if kind == TIMEOUT else FAULT for ply, kind in rows}


def event_text(rules: engines.Engine, event: dict[str, Any]) -> str:
    """A public event as one sentence for people, written by its engine."""
    return rules.describe_event(event)


def game_record(game: Game, *, with_moves: bool = True) -> dict[str, Any]:
    """The spectator's JSON record of ``game`` (what the game API answers)."""
    record: dict[str, Any] = {
        "id": game.pk,
        "engine": game.engine,
        "engine_version": game.engine_version,
        "num_players": game.num_players,
        "options": game.options,
        "status": game.status,
        "rated": game.rated,
        "unrated_reason": game.unrated_reason or None,
        "move_time_ms": game.move_time_ms,
        "time_bank_ms": game.time_bank_ms,
        "next_ply": game.next_ply,
        "seed_commitment": game.seed_commitment,
        "seed": visible_seed(game),
        "seats": [seat.as_dict() for seat in public_seats(game)],
        "outcome": outcome_of(game),
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }
    if with_moves:
        record["moves"] = [ply.as_dict() for ply in public_plies(game)]
    return record
