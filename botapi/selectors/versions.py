"""A bot's versions: the chain of bots that replace one another, and how they compare.

An owner registers a new version of a bot as a new bot that names the one it
replaces (``Bot.previous_version``). A new bot rather than an edited one, so
that each version keeps its own competitor: its ratings and games stay its
own, and the versions can be compared side by side -- ratings per engine, and
the games where two versions met. Each bot has at most one newer version
(the field is one-to-one), so the versions of a bot form one chain.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count

from botapi.models import Bot
from games.models import Seat
from games.selectors import spectator
from ratings.models import Rating, RatingScope


class VersionRefused(ValueError):
    """``previous_version`` names a bot this one cannot be a new version of; says why."""


def check_previous_version(owner: Any, previous_id: int, engines: Iterable[str]) -> Bot:
    """The owner's bot ``previous_id`` if a bot playing ``engines`` may replace it.

    Another user's bot is refused with the same words as a missing one, as
    everywhere in the API. The new version must play at least one engine of
    the old one (else there is nothing to compare), and a bot that already
    has a newer version is refused: register a version of the newest.
    """
    previous = Bot.objects.filter(owner=owner, pk=previous_id).first()
    if previous is None:
        raise VersionRefused(f"you have no bot with id {previous_id}")
    if not set(engines) & set(previous.engines):
        raise VersionRefused(
            f"a new version must play at least one engine of {previous.name!r} "
            f"({', '.join(previous.engines)})"
        )
    newer = Bot.objects.filter(previous_version=previous).only("name").first()
    if newer is not None:
        raise VersionRefused(
            f"{previous.name!r} already has a newer version, {newer.name!r}; "
            "register a new version of that one"
        )
    return previous


def version_chain(bot: Bot) -> list[Bot]:
    """Every version of ``bot``, oldest first (just ``[bot]`` if it has none). One query.

    Versions are always among one owner's bots, so the owner's bots are read
    once and the links followed in memory.
    """
    bots = {
        other.pk: other
        for other in Bot.objects.filter(owner_id=bot.owner_id).only(
            "id", "name", "status", "engines", "competitor_id", "previous_version_id", "created_at"
        )
    }
    bots[bot.pk] = bot
    newer = {b.previous_version_id: b for b in bots.values() if b.previous_version_id}
    oldest = bot
    seen = {bot.pk}
    while oldest.previous_version_id in bots and oldest.previous_version_id not in seen:
        oldest = bots[oldest.previous_version_id]
        seen.add(oldest.pk)
    chain = [oldest]
    while chain[-1].pk in newer and newer[chain[-1].pk].pk not in {b.pk for b in chain}:
        chain.append(newer[chain[-1].pk])
    return chain


@dataclass
class EngineRating:
    """A version's ratings on one engine's global ladder."""

    engine: str
    games: int = 0
    elo: float | None = None
    trueskill: float | None = None
    """TrueSkill's conservative score, mu - 3 sigma (what the leaderboards sort by)."""


def ratings_by_version(chain: list[Bot]) -> dict[int, list[EngineRating]]:
    """Each version's global-ladder ratings per engine, by bot id. One query."""
    by_competitor = {bot.competitor_id: bot.pk for bot in chain}
    rows = Rating.objects.filter(
        competitor_id__in=by_competitor, scope__kind=RatingScope.Kind.GLOBAL
    ).values_list("competitor_id", "scope__engine", "system", "value", "score", "games")
    found: dict[int, dict[str, EngineRating]] = defaultdict(dict)
    for competitor_id, engine, system, value, score, games in rows:
        rating = found[by_competitor[competitor_id]].setdefault(engine, EngineRating(engine))
        rating.games = max(rating.games, games)
        if system == "elo":
            rating.elo = value
        elif system == "trueskill":
            rating.trueskill = score
    return {bot.pk: sorted(found[bot.pk].values(), key=lambda r: r.engine) for bot in chain}


@dataclass
class HeadToHead:
    """Finished games where two versions sat at the same table."""

    older: Bot
    newer: Bot
    older_number: int
    newer_number: int
    """Their places in the chain, 1 for the oldest (the owner page calls them v1, v2...)."""
    games: int = 0
    rank_sums: list[float] = field(default_factory=lambda: [0.0, 0.0])

    @property
    def older_average_rank(self) -> float | None:
        return self.rank_sums[0] / self.games if self.games else None

    @property
    def newer_average_rank(self) -> float | None:
        return self.rank_sums[1] / self.games if self.games else None


def head_to_head(chain: list[Bot]) -> list[HeadToHead]:
    """For each pair of versions that met: games together and each one's average rank.

    Rank 1 is best (ties share a rank; a forfeit ranks last, as in the
    outcome). A version holding several seats of a game counts the average of
    its seats' ranks for that game. One query: the seats of the versions in
    finished games where at least two versions sat, a game of a duplicate set
    once the set is over (``spectator.is_public_q``: its ranks would tell the
    set's other tables about their deal).
    """
    if len(chain) < 2:
        return []
    order = {bot.competitor_id: index for index, bot in enumerate(chain)}
    shared = (
        Seat.objects.filter(spectator.is_public_q("game__"), competitor_id__in=order)
        .values("game_id")
        .annotate(versions=Count("competitor_id", distinct=True))
        .filter(versions__gte=2)
        .values("game_id")
    )
    seats = Seat.objects.filter(game_id__in=shared, competitor_id__in=order).values_list(
        "game_id", "position", "competitor_id", "game__outcome__ranks"
    )
    ranks: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for game_id, position, competitor_id, outcome_ranks in seats:
        if outcome_ranks is not None and position < len(outcome_ranks):
            ranks[game_id][order[competitor_id]].append(outcome_ranks[position])
    pairs: dict[tuple[int, int], HeadToHead] = {}
    for by_version in ranks.values():
        present = sorted(by_version)
        for i, older in enumerate(present):
            for newer in present[i + 1 :]:
                pair = pairs.setdefault(
                    (older, newer),
                    HeadToHead(chain[older], chain[newer], older + 1, newer + 1),
                )
                pair.games += 1
                pair.rank_sums[0] += _mean(by_version[older])
                pair.rank_sums[1] += _mean(by_version[newer])
    return [pairs[key] for key in sorted(pairs)]


def _mean(values: list[int]) -> float:
    return sum(values) / len(values)
