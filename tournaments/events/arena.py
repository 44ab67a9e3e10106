"""A league's arena: entrants join, and beat seats the free ones at games, continuously.

Owners put bots in (and people themselves) with :func:`join`; every few
seconds the ``tournaments.arena_pass`` task runs :func:`arena_pass` for each
league whose arena is on. A pass reads who is free to play, hands them to
the pure matchmaking (``tournaments.formats.matchmaking.match``, where the rule is
written down) and creates one game per table through ``create_game``, rated
(``League.arena_rated``) in the league's scope and the engine's global one.
:func:`on_game_finished`, called by the referee when a game ends, counts the
game and puts its entrants back in the queue.

Who is free to play, each pass:

* an active entry of the league, in its pool (bots only, people only, mixed);
* a bot that is active and still plays the league's engine; a person whose
  account is active and who (in a rated arena where bots play) still accepts
  bot opponents in rated games (``people.seating``, the one gate);
* not in an arena game of the league already (``waiting_since`` set): one
  arena game at a time per entrant, so its other slots stay free for
  tournaments and challenges, and every table is drawn with the ratings of
  its last result;
* with a game to spare: a bot plays fewer unfinished games (all of them,
  arena or not) than its ``max_concurrent_games`` (``botapi.selectors.capacity``,
  which counts a house bot's events apart from its casual games), a person
  fewer than :data:`PERSON_GAMES`.

Two passes never double-book anyone: a pass locks its league's row (passes
of one league run one after another) and then, in primary-key order, the
rows of every bot it may seat before counting their games, so a pass of
another league sharing a bot waits for this one and then sees its games
(``create_game`` checks capacity again under the same locks).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Case, F, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

import engines
from botapi.models import Bot
from botapi.selectors.capacity import BotAtCapacity, counted_games, held_games
from botapi.selectors.seating import example_bots_username
from games.models import Competitor, Game, Seat
from games.services import GameSetupError, create_game
from people import seating as person_seating
from ratings.models import Rating, RatingScope
from ratings.systems import TRUESKILL_DEFAULTS
from tournaments.formats import FormatError
from tournaments.formats.matchmaking import Candidate, match
from tournaments.models import ArenaEntry, League

log = logging.getLogger(__name__)

PERSON_GAMES = 1
"""Arena games a person plays at once."""

UNFINISHED = (Game.Status.SCHEDULED, Game.Status.RUNNING)


class ArenaRefused(ValueError):
    """This competitor cannot join this arena (now); the message says why.

    ``code`` names the reason for the API: ``arena_closed``, ``not_eligible``
    or ``not_allowed``.
    """

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


# ------------------------------------------------------------------ joining


def join(
    league: League, competitor: Competitor, *, by: Any, share_tables_with_own_bots: bool = False
) -> ArenaEntry:
    """Put ``competitor`` in the league's arena (again), as asked by the user ``by``.

    A bot is entered by its owner, or by the staff (organisers) when its
    owner opened it to tournaments and the arena (visibility other than
    private); a person only by themselves. It must fit the league's pool,
    and a bot must be active and play the league's engine. Joining again
    updates ``share_tables_with_own_bots``; an entry that had left waits
    afresh. Raises :class:`ArenaRefused`, changing nothing.
    """
    if not league.arena_enabled:
        raise ArenaRefused(f"the arena of {league} is closed", "arena_closed")
    check_entry(league, competitor, by=by)
    with transaction.atomic():
        entry, created = ArenaEntry.objects.select_for_update().get_or_create(
            league=league,
            competitor=competitor,
            defaults={
                "share_tables_with_own_bots": share_tables_with_own_bots,
                "waiting_since": timezone.now(),
            },
        )
        if not created:
            if not entry.active:
                entry.active, entry.waiting_since = True, timezone.now()
            entry.share_tables_with_own_bots = share_tables_with_own_bots
            entry.save(update_fields=["active", "waiting_since", "share_tables_with_own_bots"])
    return entry


def check_entry(league: League, competitor: Competitor, *, by: Any) -> None:
    """Raise :class:`ArenaRefused` unless ``by`` may put ``competitor`` in the league's arena.

    :func:`join`'s checks (all but the arena being open), for the admin's
    arena rows too: the league's pool, who acts (a person only for
    themselves, with their consent where rated games may seat bots), and a
    bot's status and engine. Changes nothing.
    """
    _check_pool(league, competitor)
    _check_consent(league, competitor, by)
    if competitor.kind == Competitor.Kind.BOT:
        _check_bot(league, competitor.bot)


def leave(entry: ArenaEntry) -> ArenaEntry:
    """Take the entry out of matchmaking; games it is playing play on. Idempotent."""
    ArenaEntry.objects.filter(pk=entry.pk).update(active=False, waiting_since=None)
    entry.refresh_from_db()
    return entry


def _check_consent(league: League, competitor: Competitor, by: Any) -> None:
    """Who may put ``competitor`` in: the bot's owner (or staff, for an open bot); a person
    only themselves, with their consent where rated games may seat bots (``people.seating``)."""
    user_id = by.pk if by is not None and by.is_authenticated else None
    if competitor.kind == Competitor.Kind.PERSON:
        if user_id is None:  # nobody signed in (or the service): a person joins by themselves
            raise ArenaRefused("a person joins an arena only by themselves", "not_allowed")
        refusal = person_seating.entry_refusal(
            competitor,
            by=by,
            where=f"the arena of {league}",
            rated=league.arena_rated,
            bots_may_play=league.pool != League.Pool.PEOPLE,
        )
        if refusal:
            raise ArenaRefused(refusal, "not_allowed")
        return
    bot = getattr(competitor, "bot", None)
    if bot is None:
        raise ArenaRefused(f"{competitor.name} is not a registered bot", "not_eligible")
    if user_id is not None and bot.owner_id == user_id:
        return
    if by is not None and by.is_staff and bot.visibility != bot.Visibility.PRIVATE:
        return
    raise ArenaRefused(
        f"only its owner enters {competitor.name} (or the staff, once its owner opened it to "
        "tournaments and the arena)",
        "not_allowed",
    )


def _check_pool(league: League, competitor: Competitor) -> None:
    if not _in_pool(league, competitor.kind):
        raise ArenaRefused(
            f"{league} is for {league.get_pool_display()}; {competitor.name} is a "
            f"{competitor.kind}",
            "not_eligible",
        )


def _check_bot(league: League, bot: Any) -> None:
    if not bot.is_active:
        raise ArenaRefused(f"{bot.competitor.name} is {bot.status}", "not_eligible")
    if league.engine not in bot.engines:
        raise ArenaRefused(
            f"{bot.competitor.name} does not play {league.engine}, the game of {league}",
            "not_eligible",
        )


def _in_pool(league: League, kind: str) -> bool:
    if league.pool == League.Pool.BOTS:
        return kind == Competitor.Kind.BOT
    if league.pool == League.Pool.PEOPLE:
        return kind == Competitor.Kind.PERSON
    return True


# ------------------------------------------------------------------ passes


def arena_problem(league: League) -> str | None:
    """Why the league's arena settings cannot make games, or None (the organiser reads it)."""
    try:
        rules = engines.get(league.engine)
    except engines.InvalidGame as exc:
        return str(exc)
    low, high = league.arena_min_table_size, league.arena_table_size
    if not 2 <= low <= high:
        return f"arena tables of {low} to {high} seats: need 2 <= smallest <= table size"
    if low < rules.min_players or high > rules.max_players:
        return (
            f"{rules.name} seats {rules.min_players} to {rules.max_players} players; "
            f"the arena asks for {low} to {high}"
        )
    if league.arena_move_time_ms <= 0:
        return "the arena's time per move must be positive"
    return None


def arena_pass(
    league: League, *, now: datetime | None = None, seed: str | None = None
) -> list[Game]:
    """Seat the league's free arena entrants at new games; the games created.

    One transaction: the league's row is locked first, so a second pass of
    the same league waits and then finds these games (see the module
    docstring for the bots' locks). ``seed`` draws the tables (random unless
    given); ``now`` is the clock waiting times are measured against.
    """
    now = now or timezone.now()
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if not league.arena_enabled:
            return []
        problem = arena_problem(league)
        if problem is not None:
            log.warning("arena of league %s cannot pair: %s", league.slug, problem)
            return []
        free = _free_entries(league, now)
        candidates = [candidate for _entry, candidate in free.values()]
        try:
            tables = match(
                candidates,
                league.arena_table_size,
                league.arena_min_table_size,
                seed or secrets.token_hex(8),
            )
        except FormatError:
            log.exception("arena of league %s: matchmaking refused its input", league.slug)
            return []
        games = []
        for table in tables:
            game = _start(league, [free[key][0].competitor for key in table])
            if game is not None:
                games.append(game)
                ArenaEntry.objects.filter(pk__in=[free[key][0].pk for key in table]).update(
                    waiting_since=None
                )
    return games


def run_passes(now: datetime | None = None) -> int:
    """One pass for every league whose arena is on; the number of games created.

    A league whose pass fails is logged and skipped: the others still play.
    """
    created = 0
    for league in League.objects.filter(arena_enabled=True).order_by("pk"):
        try:
            created += len(arena_pass(league, now=now))
        except Exception:
            log.exception("arena pass of league %s failed", league.slug)
    return created


def _start(league: League, competitors: Sequence[Competitor]) -> Game | None:
    """Create one arena game; None (logged) when a last check refuses the table."""
    try:
        return create_game(
            league.engine,
            competitors,
            league=league,
            rated=league.arena_rated,
            move_time_ms=league.arena_move_time_ms,
            time_bank_ms=league.arena_time_bank_ms,
            purpose=Game.Purpose.EVENT,
            allow_same_owner_rated=True,  # the arena chose it, and every such entry allows it
        )
    except (BotAtCapacity, GameSetupError) as exc:
        log.warning("arena of league %s: table %s not started: %s", league.slug,
                    [c.name for c in competitors], exc)  # fmt: skip
        return None


def _free_entries(league: League, now: datetime) -> dict[int, tuple[ArenaEntry, Candidate]]:
    """Competitor id -> (entry, candidate) for every entrant that may be seated now."""
    entries = [
        entry
        for entry in ArenaEntry.objects.filter(league=league, active=True).select_related(
            "competitor__user"
        )
        if _in_pool(league, entry.competitor.kind)
    ]
    ids = [entry.competitor_id for entry in entries]
    bots = {  # locked in key order: see the module docstring
        bot.competitor_id: bot
        for bot in Bot.objects.filter(competitor_id__in=ids)
        .select_related("owner")
        .select_for_update(of=("self",))
        .order_by("pk")
    }
    held = held_games(ids)
    consent_needed = league.arena_rated and league.pool != League.Pool.PEOPLE
    agreed = person_seating.consenting([entry.competitor for entry in entries])
    _wake_the_stranded(league, entries, now)
    mu = _ratings(league, ids)
    house = example_bots_username()
    free = {}
    for entry in entries:
        competitor = entry.competitor
        if entry.waiting_since is None:  # in an arena game already
            continue
        if competitor.kind == Competitor.Kind.BOT:
            bot = bots.get(competitor.pk)
            if bot is None or not bot.is_active or league.engine not in bot.engines:
                continue
            games = counted_games(bot, held.get(competitor.pk, []), Game.Purpose.EVENT)
            spare = bot.max_concurrent_games - len(games)
        else:
            if competitor.user is None or not competitor.user.is_active:
                continue
            if consent_needed and competitor.pk not in agreed:  # taken back since joining
                continue
            spare = PERSON_GAMES - len(held.get(competitor.pk, []))
        if spare < 1:
            continue
        owner = competitor.user
        waiting = (now - entry.waiting_since).total_seconds()
        free[competitor.pk] = (
            entry,
            Candidate(
                key=competitor.pk,
                rating=mu.get(competitor.pk, TRUESKILL_DEFAULTS["mu"]),
                owner=None if owner is None or owner.get_username() == house else owner.pk,
                waiting=max(0.0, waiting),
                games_played=entry.games_played,
                capacity=spare,
                shares=entry.share_tables_with_own_bots,
            ),
        )
    return free


def _ratings(league: League, competitor_ids: list[int]) -> dict[int, float]:
    """TrueSkill mu of each competitor in the league's scope (absent: not rated yet)."""
    return dict(
        Rating.objects.filter(
            scope__kind=RatingScope.Kind.LEAGUE,
            scope__league=league,
            system="trueskill",
            competitor_id__in=competitor_ids,
        ).values_list("competitor_id", "value")
    )


def _wake_the_stranded(league: League, entries: list[ArenaEntry], now: datetime) -> None:
    """Entries marked playing whose arena games are all gone (aborted) wait again from now."""
    playing = [entry for entry in entries if entry.waiting_since is None]
    if not playing:
        return
    busy = set(
        Seat.objects.filter(
            competitor_id__in=[entry.competitor_id for entry in playing],
            game__league=league,
            game__tournament__isnull=True,
            game__purpose=Game.Purpose.EVENT,
            game__status__in=UNFINISHED,
        ).values_list("competitor_id", flat=True)
    )
    stranded = [entry for entry in playing if entry.competitor_id not in busy]
    for entry in stranded:
        entry.waiting_since = now
    ArenaEntry.objects.filter(pk__in=[entry.pk for entry in stranded]).update(waiting_since=now)


# ------------------------------------------------------------------ results


def on_game_finished(game: Game) -> None:
    """The referee's hook: an arena game is over; its entrants count it and wait again.

    Runs inside the transaction that records the outcome. An entry already
    waiting again (it left and rejoined meanwhile) keeps its place.
    """
    if game.league_id is None or game.tournament_id is not None:
        return
    if game.purpose != Game.Purpose.EVENT:
        return
    now = timezone.now()
    ArenaEntry.objects.filter(
        league_id=game.league_id,
        competitor_id__in=game.seats.values_list("competitor_id", flat=True),
    ).update(
        games_played=F("games_played") + 1,
        waiting_since=Case(
            When(active=True, then=Coalesce(F("waiting_since"), Value(now))),
            default=Value(None),
        ),
    )


# ------------------------------------------------------------------ anchors


def engine_arenas() -> list[League]:
    """An arena for every engine: the existing league ``<engine>-arena``, or a new one.

    A new one is a mixed league with its arena on, tables of 3 (or the
    engine's nearest) to 4 seats; an existing one is left as its organiser
    set it. Idempotent (``manage.py ensure_anchors --arenas``, the demo).
    """
    leagues = []
    for rules in engines.all_engines():
        high = max(rules.min_players, min(rules.max_players, 4))
        low = max(rules.min_players, min(high, 3))
        league, _ = League.objects.get_or_create(
            slug=f"{rules.slug.replace('_', '-')}-arena",
            defaults={
                "name": f"{rules.name} arena",
                "engine": rules.slug,
                "pool": League.Pool.MIXED,
                "arena_enabled": True,
                "arena_table_size": high,
                "arena_min_table_size": low,
                "description": f"Continuous rated {rules.name} games; the house anchors "
                "play here, so every rating in it reads against known strengths.",
            },
        )
        leagues.append(league)
    return leagues


def join_anchors(anchors: Sequence[Bot]) -> list[ArenaEntry]:
    """Enter each house anchor in every open arena that admits bots and plays its engine.

    Entered by its owner (the house account), as :func:`join` requires. An
    anchor that has an entry already is left as it is, so one an organiser
    took out (:func:`leave`) stays out. The entries created.
    """
    created = []
    leagues = League.objects.filter(arena_enabled=True).exclude(pool=League.Pool.PEOPLE)
    for league in leagues.order_by("pk"):
        for bot in anchors:
            if league.engine not in bot.engines or not bot.is_active:
                continue
            if ArenaEntry.objects.filter(league=league, competitor_id=bot.competitor_id).exists():
                continue
            created.append(
                join(league, bot.competitor, by=bot.owner, share_tables_with_own_bots=True)
            )
    return created
