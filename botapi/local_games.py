"""Local games between bots, refereed by the service's own code: ``manage.py play``.

A bot author's test bench before registering. Each bot is an HTTP endpoint
(``http://host:port/path``) or an example bot by name (``random``,
``greedy``), which is started in this process on a free loopback port with
:func:`harbormaster_bot.serve_in_background`. The games go through exactly what
the service runs: ``games.creation.create_game`` and the referee's
eager loop in ``games.referee.dispatch`` (the same ``advance``/``submit``,
HTTP client, signatures, deadlines and faults). They are stored unrated and
unlisted (``Game.listed`` false: off the home page, the API's game list and
the leaderboards' recent games; their own pages stay reachable by id), with
bots of the dedicated user ``local-play``. A URL bot is named after what it
answers to a ping (``my-bot``), or after its address when it does not answer
(``url-127-0-0-1-8001``). When the run ends its bots are suspended, since
their endpoints live only as long as the author's test session: the server's
periodic pings and every scheduler leave them alone.

Settings changed for the duration of :func:`play` only:

* ``CELERY_TASK_ALWAYS_EAGER = True``: the games play inline in this
  process, even where the service has a broker and workers;
* ``BOT_ENDPOINT_ALLOW`` gains loopback, so local bots may be called (the
  operator chose the URLs; other non-public addresses stay refused unless
  the setting allows them).

Secrets: an example bot gets a fresh random one. A URL bot uses the secret
in its fragment (``http://127.0.0.1:8001/#my-secret``, never sent over the
network), else ``--secret``, else ``$HARBORMASTER_SECRET`` (the SDK's
variable), else the command refuses to start.
"""

from __future__ import annotations

import math
import os
import re
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urldefrag

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test.utils import override_settings
from django.utils.text import slugify
from harbormaster_bot import RunningBot, serve_in_background
from harbormaster_bot.examples.greedy import greedy_bot
from harbormaster_bot.examples.random_bot import RandomBot
from harbormaster_bot.server import SECRET_ENV

import engines
from botapi import services
from botapi.client import CallResult, default_client
from botapi.models import Bot
from botapi.ssrf import AddressPolicy
from games.creation import create_game
from games.models import Game, Move
from games.referee.steps import FORFEITED

LOCAL_USER = "local-play"
EXAMPLE_BOTS = ("random", "greedy")
DEFAULT_TIME_MS = 2000
NAME_CHARS = 44  # leaves room for a "-2" suffix within Bot.name's 50
SUSPENDED_AFTER_RUN = (
    "a bot of manage.py play: its endpoint is only known to live while that command runs; "
    "the next run reactivates it"
)


class PlayError(Exception):
    """Bad input for a local game; the message says what to change."""


@dataclass(frozen=True)
class BotSpec:
    """One BOT argument: an example bot's name or an endpoint URL with its secret."""

    label: str
    example: str | None = None
    url: str = ""
    secret: str = ""


@dataclass
class SeatResult:
    bot: str
    rank: int
    score: Any
    forfeited: bool
    faults: int


@dataclass
class GameResult:
    game_id: int
    seed: str
    status: str
    plies: int
    seats: list[SeatResult]


@dataclass
class BotStats:
    """One bot over all games: its decision latencies and its faults by kind."""

    name: str
    latencies_ms: list[int] = field(default_factory=list)
    faults: Counter[str] = field(default_factory=Counter)
    forfeits: int = 0
    forfeit_defaults: int = 0
    wins: int = 0
    ping: str = ""

    def percentile(self, p: float) -> int | None:
        """Nearest-rank percentile of the latencies (None without any)."""
        if not self.latencies_ms:
            return None
        ordered = sorted(self.latencies_ms)
        return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@dataclass
class PlayReport:
    engine: str
    games: list[GameResult]
    bots: list[BotStats]
    warnings: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- input
def parse_bot(text: str, default_secret: str | None) -> BotSpec:
    """A BOT argument as a :class:`BotSpec`, or :class:`PlayError` saying what is wrong."""
    if text in EXAMPLE_BOTS:
        return BotSpec(label=text, example=text)
    if not text.startswith(("http://", "https://")):
        raise PlayError(
            f"unknown bot {text!r}: give an http:// or https:// URL, "
            f"or an example bot: {', '.join(EXAMPLE_BOTS)}"
        )
    url, fragment = urldefrag(text)
    secret = fragment or default_secret or os.environ.get(SECRET_ENV, "")
    if not secret:
        raise PlayError(
            f"no signing secret for {url}: append it as {url}#SECRET, pass --secret, "
            f"or set {SECRET_ENV}"
        )
    return BotSpec(label=url, url=url, secret=secret)


def check_table(engine: str, count: int) -> engines.Engine:
    """The engine, if it exists and seats ``count`` players."""
    try:
        rules = engines.get(engine)
    except engines.InvalidGame as exc:
        raise PlayError(str(exc)) from None
    if not rules.min_players <= count <= rules.max_players:
        raise PlayError(
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players; "
            f"you gave {count} bot(s)"
        )
    return rules


def _local_policy() -> AddressPolicy:
    """The configured endpoint policy plus loopback."""
    policy = AddressPolicy.coerce(settings.BOT_ENDPOINT_ALLOW)
    if policy.allow_private:
        return policy
    networks = (*policy.allowed_networks, *AddressPolicy.loopback().allowed_networks)
    return AddressPolicy(allowed_networks=tuple(dict.fromkeys(networks)))


# ----------------------------------------------------------------- bots
def _answered_name(result: CallResult) -> str:
    """The name a bot gave in its ping reply, as a bot name (slug), or "" if it gave none."""
    if not result.ok:
        return ""
    name = (result.reply or {}).get("name")
    return slugify(name) if isinstance(name, str) else ""


def _bot_names(specs: Sequence[BotSpec], answered: Sequence[str] = ()) -> list[str]:
    """Readable, distinct names: ``greedy``, ``random``, ``random-2``, ``my-bot``.

    ``answered[i]`` is the name URL bot ``i`` gave to a ping ("" if none); a
    URL bot that gave none is named after its address (``url-127-0-0-1-8001``).
    Example bots are named first, so a URL bot that calls itself ``random``
    becomes ``random-2`` and ``random`` stays the example bot.
    """
    names: dict[int, str] = {}
    examples_first = sorted(range(len(specs)), key=lambda i: specs[i].example is None)
    for index in examples_first:
        spec = specs[index]
        where = spec.url.split("://", 1)[-1]
        name_from_ping = answered[index] if index < len(answered) else ""
        address = "url-" + slugify(re.sub(r"[./:]+", "-", where))
        base = spec.example or name_from_ping or address
        base = base[:NAME_CHARS].strip("-") or "bot"
        name, n = base, 1
        while name in names.values():
            n += 1
            name = f"{base}-{n}"
        names[index] = name
    return [names[index] for index in range(len(specs))]


def _local_bot(owner: Any, name: str, engine: str, url: str, secret: str) -> Bot:
    """The local-play bot ``name``, created or brought up to date for this run."""
    bot = Bot.objects.filter(owner=owner, name=name).first()
    if bot is None:
        bot, _ = services.register_bot(
            owner,
            name=name,
            engines=[engine],
            endpoint_url=url,
            description="a bot of manage.py play (local games)",
        )
    bot.endpoint_url = url
    bot.signing_secret = secret
    bot.mode = Bot.Mode.PUSH
    bot.engines = sorted({*bot.engines, engine})
    bot.status, bot.status_reason, bot.consecutive_faulty_games = Bot.Status.ACTIVE, "", 0
    bot.save()
    return bot


def _start_example(spec: BotSpec, engine: str, index: int, secret: str) -> RunningBot:
    handler = greedy_bot(engine) if spec.example == "greedy" else RandomBot(seed=index)
    return serve_in_background(handler, host="127.0.0.1", port=0, secret=secret, name=spec.label)


# ---------------------------------------------------------------- games
def _game_result(game: Game, names: dict[int, str]) -> GameResult:
    """``names`` maps competitor id -> bot name."""
    outcome = getattr(game, "outcome", None)
    seats = []
    for seat in game.seats.order_by("position"):
        seats.append(
            SeatResult(
                bot=names[seat.competitor_id],
                rank=outcome.ranks[seat.position] if outcome else 0,
                score=outcome.scores[seat.position] if outcome else None,
                forfeited=seat.forfeited,
                faults=seat.fault_count,
            )
        )
    return GameResult(game.pk, game.seed, game.status, game.next_ply, seats)


def _collect(game: Game, stats: dict[int, BotStats]) -> None:
    """Add the game's latencies and faults to each bot's stats (``stats`` by competitor id)."""
    seat_of = dict(game.seats.values_list("position", "competitor_id"))
    moves = Move.objects.filter(game=game, seat__gte=0).values_list(
        "seat", "source", "latency_ms", "fault_kind"
    )
    for position, source, latency, fault in moves:
        bot = stats[seat_of[position]]
        if latency is not None and source in (Move.Source.BOT, Move.Source.DEFAULT):
            bot.latencies_ms.append(latency)
        if fault == FORFEITED:
            bot.forfeit_defaults += 1
        elif fault:
            bot.faults[fault] += 1
    outcome = getattr(game, "outcome", None)
    for seat in game.seats.all():
        bot = stats[seat.competitor_id]
        bot.forfeits += seat.forfeited
        bot.wins += bool(outcome and outcome.ranks[seat.position] == 1)


def _seed_for(seed: str | None, index: int, games: int) -> str:
    if seed is None:
        return secrets.token_hex(8)
    return seed if games == 1 else f"{seed}-{index + 1}"


def play(
    engine: str,
    bot_args: Sequence[str],
    *,
    seed: str | None = None,
    games: int = 1,
    time_ms: int = DEFAULT_TIME_MS,
    secret: str | None = None,
) -> PlayReport:
    """Play ``games`` unrated games of ``engine`` between the bots; the report.

    Seats rotate from game to game (game 2 seats the second bot first, ...),
    so over several games every bot plays every seat.
    """
    check_table(engine, len(bot_args))
    if games < 1:
        raise PlayError("--games must be at least 1")
    if time_ms < 1:
        raise PlayError("--time-ms must be positive")
    specs = [parse_bot(text, secret) for text in bot_args]
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True, BOT_ENDPOINT_ALLOW=_local_policy()):
        return _play(engine, specs, seed=seed, games=games, time_ms=time_ms)


def _play(
    engine: str, specs: list[BotSpec], *, seed: str | None, games: int, time_ms: int
) -> PlayReport:
    owner, _ = get_user_model().objects.get_or_create(username=LOCAL_USER)
    if owner.has_usable_password():
        owner.set_unusable_password()
        owner.save(update_fields=["password"])
    running: list[RunningBot] = []
    bots: list[Bot] = []
    report = PlayReport(engine=engine, games=[], bots=[])
    try:
        pings = _ping_endpoints(specs)
        answered = [_answered_name(pings[i]) if i in pings else "" for i in range(len(specs))]
        for index, (spec, name) in enumerate(zip(specs, _bot_names(specs, answered), strict=True)):
            url, key = spec.url, spec.secret
            if spec.example is not None:
                key = secrets.token_urlsafe(24)
                server = _start_example(spec, engine, index, key)
                running.append(server)
                url = server.url
            bots.append(_local_bot(owner, name, engine, url, key))
        stats = {bot.competitor_id: BotStats(name=bot.name) for bot in bots}
        for index, (bot, spec) in enumerate(zip(bots, specs, strict=True)):
            if index in pings:
                result = pings[index]
                services.record_ping(bot, result)
                stats[bot.competitor_id].ping = bot.last_ping_detail
                if not result.ok:
                    report.warnings.append(
                        f"{bot.name} ({spec.url}) did not answer a ping: {bot.last_ping_detail}. "
                        "The games still play: its seats get faults, default moves and forfeits."
                    )
        names = {bot.competitor_id: bot.name for bot in bots}
        for index in range(games):
            shift = index % len(bots)
            seated = bots[shift:] + bots[:shift]
            game = create_game(
                engine,
                [bot.competitor for bot in seated],
                seed=_seed_for(seed, index, games),
                rated=False,
                listed=False,
                move_time_ms=time_ms,
            )
            game = Game.objects.select_related("outcome").get(pk=game.pk)
            report.games.append(_game_result(game, names))
            _collect(game, stats)
        report.bots = list(stats.values())
    finally:
        for server in running:
            server.stop()
        _suspend_after_run(bots)
    return report


def _ping_endpoints(specs: Sequence[BotSpec]) -> dict[int, CallResult]:
    """Ping every URL bot once (by index), to learn its name and whether it answers."""
    client = default_client(services.endpoint_policy())
    return {
        index: client.ping(spec.url, spec.secret, timeout_ms=settings.BOT_PING_TIMEOUT_MS)
        for index, spec in enumerate(specs)
        if spec.example is None
    }


def _suspend_after_run(bots: Sequence[Bot]) -> None:
    """Suspend this run's bots: nothing is known to answer at their URLs once it ends."""
    for bot in bots:
        bot.refresh_from_db()
        if bot.status == Bot.Status.ACTIVE:
            services.suspend_bot(bot, SUSPENDED_AFTER_RUN)


# --------------------------------------------------------------- output
def format_report(report: PlayReport) -> str:
    """The report as text for a terminal."""
    lines = [f"{len(report.games)} game(s) of {report.engine}", ""]
    lines += [f"warning: {w}" for w in report.warnings]
    for game in report.games:
        state = "" if game.status == Game.Status.FINISHED else f"  ({game.status}, unfinished)"
        lines.append(f"game {game.game_id}  seed {game.seed}  {game.plies} moves{state}")
        for position, seat in enumerate(game.seats):
            notes = []
            if seat.forfeited:
                notes.append("forfeited")
            if seat.faults:
                notes.append(f"{seat.faults} fault(s)")
            rank = f"rank {seat.rank}" if seat.rank else "no rank"
            suffix = f"  ({', '.join(notes)})" if notes else ""
            lines.append(f"  seat {position}  {seat.bot:<24} {rank:<8} score {seat.score}{suffix}")
    heads = "  ".join(f"{h:>4}" for h in ("p50", "p90", "p99", "max"))
    lines += ["", f"{'bot':<24} {'wins':>4}  {'decisions':>9}  {heads}  (ms)  faults"]
    for bot in report.bots:
        cells = [bot.percentile(p) for p in (50, 90, 99, 100)]
        shown = "  ".join(f"{'-' if c is None else c:>4}" for c in cells)
        faults = ", ".join(f"{kind} {n}" for kind, n in sorted(bot.faults.items())) or "none"
        if bot.forfeits:
            faults += (
                f"; forfeited {bot.forfeits} game(s) "
                f"({bot.forfeit_defaults} default moves played after forfeiting)"
            )
        lines.append(
            f"{bot.name:<24} {bot.wins:>4}  {len(bot.latencies_ms):>9}  {shown}        {faults}"
        )
    return "\n".join(lines)
