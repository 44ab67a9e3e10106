"""Tournaments as the scheduler leaves them, built straight into rows for page and API tests.

``make_event`` pairs every round with the real Swiss format (so tables, byes
and repeat avoidance look like a real event), seats each table's game in the
table's seat order with the seed the event seed derives for it, and finishes
the games of the rounds already played with a made-up result: lower seeds
tend to score more, with some noise and the odd tie. The round under way, if
any, has running games without an outcome. No referee, no worker: fast, and
inside the test's transaction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from django.utils import timezone

from botapi.models import Bot
from games.models import Game, Seat
from tests.factories import BotFactory, GameFactory, UserFactory, finished_game
from tournaments import formats
from tournaments.events import seeds
from tournaments.events.history import settings_of
from tournaments.formats import swiss
from tournaments.models import Entrant, League, Round, Table, Tournament


@dataclass
class Event:
    tournament: Tournament
    bots: list[Bot]
    entrants: list[Entrant]
    games: list[Game] = field(default_factory=list)

    def entrant_of(self, bot: Bot) -> Entrant:
        return next(e for e in self.entrants if e.competitor_id == bot.competitor_id)


def make_event(
    *,
    entrants: int = 9,
    table_size: int = 3,
    min_table_size: int | None = None,
    rounds: int = 3,
    played: int | None = None,
    under_way: bool = False,
    status: str | None = None,
    status_reason: str = "",
    league: League | None = None,
    name: str = "Club night",
    event_seed: str = "a-secret-event-seed-0123456789",
    rated: bool = False,
    owner=None,
    bot_names: list[str] | None = None,
) -> Event:
    """A Swiss event of ``entrants`` bots: ``played`` rounds finished, then one running if
    ``under_way``. The status follows (finished when every round is played) unless given."""
    played = rounds if played is None else played
    if status is None:
        if under_way or 0 < played < rounds:
            status = Tournament.Status.RUNNING
        elif played == rounds and rounds:
            status = Tournament.Status.FINISHED
        else:
            status = Tournament.Status.ENTRIES_OPEN
    now = timezone.now()
    tournament = Tournament.objects.create(
        name=name,
        engine="manila",
        league=league,
        format=Tournament.Format.SWISS,
        table_size=table_size,
        min_table_size=min_table_size or table_size,
        rounds=rounds,
        rated=rated,
        status=status,
        status_reason=status_reason,
        seed=event_seed,
        seed_commitment=seeds.commitment(event_seed),
        current_round=played + (1 if under_way else 0),
        started_at=now if played or under_way else None,
        finished_at=now if status == Tournament.Status.FINISHED else None,
    )
    owner = owner or UserFactory(password=None)
    names = bot_names or [f"bot-{n:02d}" for n in range(1, entrants + 1)]
    bots = [BotFactory(owner=owner, name=name, engines=["manila"]) for name in names[:entrants]]
    rows = [
        Entrant.objects.create(tournament=tournament, competitor=bot.competitor, seed_order=n)
        for n, bot in enumerate(bots, start=1)
    ]
    event = Event(tournament, bots, rows)
    history = formats.History()
    settings = settings_of(tournament)
    keyed = [formats.Entrant(key=row.pk, seed=row.seed_order) for row in rows]
    competitor = {row.pk: row.competitor for row in rows}
    for number in range(1, played + (2 if under_way else 1)):
        paired = swiss.next_round(keyed, history, settings, number, event_seed)
        assert paired is not None
        finished = number <= played
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            status=Round.Status.FINISHED if finished else Round.Status.RUNNING,
            byes=list(paired.byes),
            finished_at=now if finished else None,
        )
        results = []
        for table_number, table in enumerate(paired.tables, start=1):
            row = Table.objects.create(round=round_, number=table_number, seats=list(table.seats))
            fields = {
                "tournament": tournament,
                "league": league,
                "table": row,
                "round_number": number,
                "purpose": Game.Purpose.EVENT,
                "seed": seeds.game_seed(event_seed, number, table_number),
                "rated": rated,
            }
            players = [competitor[key] for key in table.seats]
            if finished:
                scores, ranks = _result(table.seats, rows, f"{event_seed}:{number}:{table_number}")
                game = finished_game(players, ranks, scores=scores, **fields)
                results.append(formats.Result(number, table.seats, tuple(ranks), tuple(scores)))
            else:
                game = GameFactory(
                    num_players=len(players), status=Game.Status.RUNNING, started_at=now, **fields
                )
                for position, player in enumerate(players):
                    Seat.objects.create(game=game, position=position, competitor=player)
            event.games.append(game)
        history = formats.History(
            results=history.results + tuple(results),
            byes=history.byes + tuple(formats.Bye(number, key) for key in paired.byes),
        )
    return event


def _result(seats, rows, salt: str) -> tuple[list[float], list[int]]:
    """Scores (a lower seed tends to score more) and competition ranks, best score first."""
    rng = random.Random(salt)
    seed_of = {row.pk: row.seed_order for row in rows}
    scores = [float(60 - 3 * seed_of[key] + rng.randint(0, 12)) for key in seats]
    ranks = [1 + sum(other > score for other in scores) for score in scores]
    return scores, ranks


def withdraw(event: Event, index: int, reason: str) -> Entrant:
    """Mark the ``index``-th entrant withdrawn with ``reason``, as the services leave it."""
    entrant = event.entrants[index]
    entrant.status, entrant.reason = Entrant.Status.WITHDRAWN, reason
    entrant.save(update_fields=["status", "reason"])
    return entrant
