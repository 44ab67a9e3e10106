"""``manage.py demo_setup``: prepare the demo data ``make demo`` serves.

The demo admin account, then a few games of every engine between the example
bots (served over loopback HTTP from this process while it runs), with
progress printed as they finish, then the club event: a Swiss tournament of
the example bots in the league "Harbour club", run to its end by the round
scheduler, with its rounds, standings and page printed; then the house
anchors, entered in every engine's arena, with one arena game each played. On the embedded
defaults the games are played by Celery's worker and beat in threads of this
process while it runs (:mod:`harbormaster.embedded_celery`). The logic is in
:mod:`harbormaster.demo`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.selectors.listings import engine_name
from harbormaster import embedded_celery
from harbormaster.demo import (
    CLUB_ROUNDS,
    CLUB_TABLE_SIZE,
    DEMO_GAMES_PER_ENGINE,
    DemoProgress,
    ensure_demo_admin,
    ensure_demo_person,
    open_club_night,
    play_anchor_arenas,
    play_demo_games,
    run_club_event,
)
from tournaments import events
from tournaments.models import Table, Tournament


class Command(BaseCommand):
    help = (
        "Create (or reset) the demo admin account, print its credentials, and play a few "
        "games of each engine between the example bots, then a Swiss club event of them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000",
            help="where the demo will be served, for the printed links",
        )
        parser.add_argument(
            "--games-per-engine",
            type=int,
            default=DEMO_GAMES_PER_ENGINE,
            help=f"games to play per engine (default {DEMO_GAMES_PER_ENGINE}; 0: none)",
        )
        parser.add_argument(
            "--event-rounds",
            type=int,
            default=CLUB_ROUNDS,
            help=f"rounds of the Swiss club event (default {CLUB_ROUNDS}; 0: no event)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "demo_setup creates an admin with a published password; it runs only with DEBUG on"
            )
        if options["games_per_engine"] < 0:
            raise CommandError("--games-per-engine must be 0 or more")
        if options["event_rounds"] < 0:
            raise CommandError("--event-rounds must be 0 or more")
        admin = ensure_demo_admin()
        url = options["url"].rstrip("/")
        verb = "Created" if admin.created else "Reset"
        self.stdout.write(self.style.SUCCESS(f"{verb} the demo admin account."))
        self.stdout.write(f"  site:     {url}/")
        self.stdout.write(f"  admin:    {url}/admin/")
        self.stdout.write(f"  username: {admin.username}")
        self.stdout.write(f"  password: {admin.password}")
        person = ensure_demo_person()
        verb = "Created" if person.created else "Reset"
        self.stdout.write(self.style.SUCCESS(f"{verb} the demo person account (a player)."))
        self.stdout.write(f"  sign in:  {url}/accounts/login/")
        self.stdout.write(f"  username: {person.username}")
        self.stdout.write(f"  password: {person.password}")
        per_engine = options["games_per_engine"]
        # Embedded mode: this process's own Celery worker and beat play the games
        # while it runs (with servers: the workers); nothing is played inline.
        with embedded_celery.serving():
            if per_engine > 0:
                self._play_games(per_engine, url)
            organiser = get_user_model().objects.get(username=admin.username)
            if options["event_rounds"] > 0:
                self._club_event(organiser, options["event_rounds"], url)
            self._anchors(url, play=per_engine > 0)
        night = open_club_night(organiser)
        self.stdout.write(
            self.style.SUCCESS(f"Club night: {night.name} (league {night.league}, bots and people)")
        )
        self.stdout.write(
            f"  {person.username} has entered it; demo_serve enters the example bots and starts "
            f"it, and {person.username} plays round 1 in the browser: {url}/tournaments/{night.pk}/"
        )

    def _anchors(self, url: str, *, play: bool) -> None:
        if not play:
            play_anchor_arenas(play=False)
            self.stdout.write(f"House anchors ready in every engine's arena: {url}/anchors/")
            return
        self.stdout.write(
            "Playing the house anchors (random, greedy, search-8, search-32) in every "
            "engine's arena..."
        )
        self.stdout.flush()
        games = play_anchor_arenas()
        finished = sum(game.status == Game.Status.FINISHED for game in games)
        style = self.style.SUCCESS if finished == len(games) else self.style.WARNING
        self.stdout.write(style(f"Arena games of the anchors: {finished}/{len(games)} finished."))
        self.stdout.write(f"  what they are: {url}/anchors/")

    def _play_games(self, per_engine: int, url: str) -> None:
        self.stdout.write(
            f"Playing {per_engine} game(s) of each engine between the example bots "
            "(greedy and random, served on 127.0.0.1 by this process)..."
        )
        results = play_demo_games(per_engine, self._progress, on_start=self._starting)
        finished = sum(len(progress.finished) for progress in results)
        total = sum(progress.total for progress in results)
        style = self.style.SUCCESS if finished == total else self.style.WARNING
        self.stdout.write(style(f"Demo games: {finished}/{total} finished."))
        self.stdout.write(f"  recent games: {url}/")
        self.stdout.write(f"  leaderboards: {url}/leaderboards/")
        self.stdout.write(f"  game API:     {url}/api/v1/games/  (docs: {url}/api/v1/docs/)")

    def _club_event(self, organiser: Any, rounds: int, url: str) -> None:
        def starting(tournament: Tournament) -> None:
            self.stdout.write(
                f"Playing the club event {tournament.name} (league {tournament.league}): "
                f"Swiss, {rounds} round(s) of {engine_name(tournament.engine)} in tables of "
                f"{CLUB_TABLE_SIZE}, {tournament.entrants.count()} example bots..."
            )
            self.stdout.write(f"  seed commitment: {tournament.seed_commitment}")
            self.stdout.flush()

        tournament = run_club_event(organiser, rounds, on_start=starting)
        for number in range(1, tournament.current_round + 1):
            self.stdout.write(f"  round {number}: {self._round_line(tournament, number)}")
        if tournament.status == Tournament.Status.FINISHED:
            self.stdout.write(self.style.SUCCESS(f"Club event: {tournament.name} finished."))
            self.stdout.write(f"  final standings: {self._standings_line(tournament)}")
        else:
            self.stdout.write(
                self.style.WARNING(f"Club event: {tournament.name} {tournament.status}: "
                                   f"{tournament.status_reason}")
            )  # fmt: skip
        self.stdout.write(f"  event seed (revealed): {events.event_seed_revealed(tournament)}")
        self.stdout.write(f"  tournament page: {url}/tournaments/{tournament.pk}/")

    def _round_line(self, tournament: Tournament, number: int) -> str:
        parts = []
        tables = Table.objects.filter(round__tournament=tournament, round__number=number)
        for table in tables.prefetch_related("games__seats__competitor", "games__outcome"):
            for game in table.games.all():
                names = [seat.competitor.name.split("/")[-1] for seat in game.seats.all()]
                result = ""
                if game.status == Game.Status.FINISHED:
                    won = [n for n, r in zip(names, game.outcome.ranks, strict=True) if r == 1]
                    result = f", won by {' and '.join(won)}"
                parts.append(f"table {table.number} ({', '.join(names)}{result}; #{game.pk})")
        return "; ".join(parts) or "no tables"

    def _standings_line(self, tournament: Tournament) -> str:
        names = {
            entrant.pk: entrant.competitor.name.split("/")[-1]
            for entrant in tournament.entrants.select_related("competitor")
        }
        rows = events.standings_of(tournament)
        return ", ".join(f"{row.rank}. {names[row.key]} {row.points:g} pts" for row in rows)

    def _starting(self, progress: DemoProgress, players: list[Any]) -> None:
        number = len(progress.finished) + len(progress.unfinished) + 1
        self.stdout.write(
            f"  {engine_name(progress.engine)}: playing game {number} of {progress.total} "
            f"({', '.join(bot.name for bot in players)})..."
        )
        self.stdout.flush()

    def _progress(self, progress: DemoProgress) -> None:
        done = len(progress.finished) + len(progress.unfinished)
        game = (progress.finished + progress.unfinished)[-1]
        line = (
            f"  {engine_name(progress.engine)}: {len(progress.finished)}/{progress.total} "
            f"finished — game #{game.pk} {game.status}"
        )
        if done and game.status == game.Status.FINISHED:
            winners = [seat.competitor.name for seat in game.seats.all() if _rank(game, seat) == 1]
            line += f", won by {' and '.join(winners)}"
        self.stdout.write(line)
        self.stdout.flush()


def _rank(game: Any, seat: Any) -> int:
    return game.outcome.ranks[seat.position]
