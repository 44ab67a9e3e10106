"""The game page's board replay: per-ply board models, as much as the viewer may see.

Position ``p`` is the state *before* ply ``p`` (``p`` moves applied), so the
model at ``p`` shows what the mover was offered and the move block says what it
took; the last position (after every replayable move) has no move. Models come
from :func:`games.selectors.boards.board_model` only, so the "a board sees
only its seat's view" rule lives in one spot.

Who sees what follows :mod:`games.selectors.spectator`:

* a **public** record (finished, and its duplicate set over): any seat's view or
  the spectator's, every action with its ``describe`` text, the actions offered,
  and for a bot's move its latency and fault kind (never the fault detail nor
  the request/reply excerpts: those stay with the bot's owner), and which
  moves of a substituted person's seat the house bot played;
* otherwise (running, aborted, or its duplicate set still open): the
  spectator's view, up to the current ply (a finished game of an open set up
  to the position before its end: ``spectator.shown``), each move saying who moved and its
  public events -- no action; and for a seat's **holder** (the person in it or
  the owner of the bot in it, :mod:`games.selectors.seat_holders`) that seat's
  view, with its own moves as above (description, actions offered, a bot's
  latency and fault kind), every other move as bare as the spectator's. That
  is what the play page and the bot API already showed them; another seat's
  view is refused with a 403. The current position shows the seat's legal
  actions only as the play page would: while the game runs and the seat has
  not forfeited.

A request covers at most :data:`MAX_PAGE` positions (each costs a ``view`` and
the legal actions) and starts from the nearest checkpoint state at or before
them (a finished game's stored ones, ``games.records.stored``; a running game's
in memory, ``games.records.live``), so it replays at most its own plies
and costs the same queries wherever it is in however long a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engines
from engines import CHANCE
from games.models import Game, Move
from games.records import live as live_record
from games.records import stored as records
from games.selectors import spectator
from games.selectors.boards import board_model, legal_entries

MAX_PAGE = 100
"""Positions per request: bounds the work of one request on a long game."""


class ReplayError(ValueError):
    """A request the replay cannot answer; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class ReplayPage:
    """Positions ``start`` .. ``start + len(positions) - 1`` of ``total`` for one viewer."""

    seat: int | None
    public: bool
    total: int
    start: int
    positions: list[dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "public": self.public,
            "total": self.total,
            "start": self.start,
            "positions": self.positions,
        }


def parse_seat(raw: str, num_players: int) -> int | None:
    """``""``/``spectator``: ``None``; else a seat number of this game, or :class:`ReplayError`."""
    if raw in ("", "spectator"):
        return None
    try:
        seat = int(raw)
    except ValueError:
        raise ReplayError(f"seat must be 'spectator' or a seat number, not {raw!r}") from None
    if not 0 <= seat < num_players:
        raise ReplayError(f"seat must be between 0 and {num_players - 1}, not {seat}")
    return seat


def parse_int(raw: str, name: str, default: int, low: int, high: int) -> int:
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ReplayError(f"{name} must be a whole number, not {raw!r}") from None
    if not low <= value <= high:
        raise ReplayError(f"{name} must be between {low} and {high}, not {value}")
    return value


def _move_block(
    move: Move,
    state: engines.State,
    rules: engines.Engine,
    revealed: bool,
    bot_seats: set[int],
) -> dict[str, Any]:
    """What the viewer may know of the move played from ``state`` (before it is applied).

    ``revealed``: the whole block (a public record, or the viewer's own seat's move).
    """
    block: dict[str, Any] = {"ply": move.ply, "seat": move.seat, "chance": move.seat == CHANCE}
    block["default"] = spectator.default_mark(move.source, move.fault_kind)
    if not revealed:
        return block
    block["description"] = rules.describe(move.action)
    if move.seat != CHANCE:
        block["offered"] = [entry["text"] for entry in legal_entries(state, move.seat)]
    if move.seat in bot_seats:
        block["latencyMs"] = move.latency_ms
        block["fault"] = move.fault_kind or None
        block["source"] = move.source
    elif move.source == Move.Source.HOUSE:
        block["source"] = move.source  # a substituted person's seat: the house bot chose
    return block


def replay_page(
    game: Game,
    raw_seat: str = "",
    raw_start: str = "",
    raw_count: str = "",
    *,
    held: frozenset[int] = frozenset(),
) -> ReplayPage:
    """The models of one page of ``game``'s replay for the viewer the parameters name.

    ``game`` should come with its seats and competitors prefetched; ``held`` are
    the seats the requesting user holds (``seat_holders.seats_held_by``). Before
    the record is public, a seat's view is refused with a 403 unless the seat is
    one of ``held``. The replay starts from the nearest checkpoint at or before
    the page (:func:`start_state`), so a page costs the same anywhere in any game.
    """
    now = spectator.shown(game)
    public = now.public
    seat = parse_seat(raw_seat, game.num_players)
    if seat is not None and not public and seat not in held:
        raise ReplayError(
            "a seat's view is shown only to its holder until the game's record is public", 403
        )
    start = parse_int(raw_start, "start", 0, 0, now.plies)
    count = parse_int(raw_count, "count", MAX_PAGE, 1, MAX_PAGE)
    total = replayable_positions(game)
    if start >= total:
        raise ReplayError(f"start must be at most {total - 1}, the last position that replays")
    end = min(start + count, total)
    first, state = start_state(game, start)
    moves = list(
        Move.objects.filter(game=game, ply__gte=first, ply__lt=min(end, now.plies)).order_by("ply")
    )
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    forfeited = {s.position for s in seats if s.forfeited}
    positions = page_positions(
        state,
        moves,
        seat,
        start,
        end,
        logged=now.plies,
        public=public,
        names={s.position: s.competitor.name for s in seats},
        bot_seats={s.position for s in seats if s.competitor.kind == "bot"},
        may_act_now=game.status == Game.Status.RUNNING and seat not in forfeited,
    )
    if public and positions and positions[-1]["move"] is None and end == total:
        # The end position's final panel ranks as the record does (forfeits last, in words).
        positions[-1]["model"]["ranking"] = spectator.ranking(game)
    return ReplayPage(seat, public, total, start, positions)


def start_state(game: Game, ply: int) -> tuple[int, engines.State]:
    """``(p, the state after p moves)`` for the nearest checkpoint ``p <= ply``; yours to change.

    A finished game's come from its stored checkpoints (built and stored now if
    missing); any other game's from its in-process record (``live_record``),
    which reads only the moves logged since its last use.
    """
    if game.status == Game.Status.FINISHED:
        found = records.checkpoint(game, ply)
        if found is not None:
            return found
        record, checkpoints = records.build(game)
        records.store_quietly(game, record, checkpoints)
    else:
        checkpoints = live_record.follow(game).checkpoints
    best = max(p for p in checkpoints if p <= ply)
    return best, checkpoints[best].clone()


def state_at(game: Game, ply: int) -> engines.State:
    """The state after ``ply`` moves of ``game``, from the nearest checkpoint before it; yours.

    For a socket's frame of a game shown before its end (``spectator.shown``):
    the referee's state cache keeps only the state after every move.
    """
    first, state = start_state(game, ply)
    later = Move.objects.filter(game=game, ply__gte=first, ply__lt=ply).order_by("ply")
    for seat, action in later.values_list("seat", "action"):
        state.apply(seat, action)
    return state


def replayable_positions(game: Game) -> int:
    """How many positions of ``game`` the board can show (no query when its rules are current).

    The game page starts at the last one; a game of older rules may stop early
    (its record knows where), and a finished game of an open duplicate set
    before its end (``spectator.shown``).
    """
    rules = engines.get(game.engine)
    plies = spectator.shown(game).plies
    if game.engine_version == rules.version:
        return plies + 1
    return min(records.public_record(game).replayable, plies) + 1


def page_positions(
    state: engines.State,
    moves: list[Move],
    seat: int | None,
    start: int,
    end: int,
    *,
    logged: int,
    public: bool,
    names: dict[int, str],
    bot_seats: set[int],
    may_act_now: bool = False,
) -> list[dict[str, Any]]:
    """The entries of positions ``start`` .. ``end - 1``, all of which replay.

    ``state`` is the position before ``moves[0]`` (it is spent); ``moves`` run
    from there up to ply ``min(end, logged) - 1``, ``logged`` being the moves in
    the whole log. No database: the bench and the view share it. Unless
    ``public``, only ``seat``'s own moves are told in full (its holder's replay),
    and the last position keeps its legal actions only if ``may_act_now`` (the
    game runs and the seat has not forfeited: as the play page shows them).
    """
    rules = state.engine
    positions: list[dict[str, Any]] = []
    for move in moves:
        if move.ply >= start:
            revealed = public or (seat is not None and move.seat == seat)
            positions.append(
                {
                    "position": move.ply,
                    "model": board_model(state, seat, names),
                    "move": _move_block(move, state, rules, revealed, bot_seats),
                }
            )
        if move.ply + 1 < end:
            state.apply(move.seat, move.action)  # replays: ``end`` says so
    if end > logged:
        model = board_model(state, seat, names)
        if not public and not may_act_now:
            model["legal"] = []
        positions.append({"position": logged, "model": model, "move": None})
    return positions
