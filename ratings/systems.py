"""Rating math for one finished game: multiplayer Elo, TrueSkill and OpenSkill.

Pure functions, no database: each takes the players' current ratings and their
ranks in one game (1 = best, equal ranks tie) and returns the new ratings in the
same order. Persistence (``ratings.models``/services) stores a scope's system
names, parameters and library versions from :data:`SYSTEMS` so that a recompute
from the game log reproduces the incremental ratings exactly.

TrueSkill and OpenSkill numbers change between library releases, so both are
pinned in pyproject.toml and the installed version is part of each
:class:`RatingSystem`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import version
from types import MappingProxyType
from typing import Any

import trueskill
from openskill.models import PlackettLuce

MuSigma = tuple[float, float]
"""A Bayesian rating: mean skill and its standard deviation."""

ELO_INITIAL = 1500.0
ELO_DEFAULT_K = 32.0
ELO_VERSION = "1"
"""Version of our own Elo formula; bump it if :func:`elo_rate` ever changes."""

TRUESKILL_DEFAULTS: Mapping[str, float] = MappingProxyType(
    {
        "mu": 25.0,
        "sigma": 25.0 / 3.0,
        "beta": 25.0 / 6.0,
        "tau": 25.0 / 300.0,
        "draw_probability": 0.10,
    }
)
OPENSKILL_DEFAULTS: Mapping[str, float] = MappingProxyType(
    {
        "mu": 25.0,
        "sigma": 25.0 / 3.0,
        "beta": 25.0 / 6.0,
        "kappa": 0.0001,
        "tau": 25.0 / 300.0,
    }
)

# Elo's expected score 1/(1+10^d) overflows for |d| > ~308; beyond 300 the
# expectation is 0 or 1 to double precision anyway, so the exponent is clamped.
_MAX_ELO_EXPONENT = 300.0


def _check_ranks(count: int, ranks: Sequence[int]) -> None:
    """Reject results no system can rate, with a message naming the fault."""
    if count != len(ranks):
        raise ValueError(f"{count} ratings but {len(ranks)} ranks: one rank per player needed")
    if count < 2:
        raise ValueError(f"a rated game needs at least 2 players, got {count}")
    for rank in ranks:
        if type(rank) is not int or rank < 1:
            raise ValueError(f"ranks must be positive integers (1 = best), got {rank!r}")


def _check_mu_sigma(ratings: Sequence[MuSigma]) -> None:
    """Each rating must be a (finite mu, positive finite sigma) pair."""
    for rating in ratings:
        try:
            mu, sigma = rating
            valid = math.isfinite(mu) and math.isfinite(sigma) and sigma > 0
        except (TypeError, ValueError):
            valid = False
        if not valid:
            raise ValueError(f"a rating must be a (finite mu, sigma > 0) pair, got {rating!r}")


def _resolve_params(
    system: str, defaults: Mapping[str, float], given: Mapping[str, Any]
) -> dict[str, float]:
    """Defaults overlaid with ``given``; unknown names and non-numbers are refused."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise ValueError(f"unknown {system} parameter(s) {unknown}; known: {sorted(defaults)}")
    resolved = dict(defaults)
    for name, value in given.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{system} parameter {name!r} must be a number, got {value!r}")
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"{system} parameter {name!r} must be finite and >= 0, got {value}")
        resolved[name] = float(value)
    return resolved


def _require_positive(system: str, params: Mapping[str, float], names: Sequence[str]) -> None:
    """Parameters that divide or scale must not be zero."""
    for name in names:
        if params[name] <= 0:
            raise ValueError(f"{system} parameter {name!r} must be > 0, got {params[name]}")


# --- Elo -------------------------------------------------------------------


def elo_rate(
    ratings: Sequence[float], ranks: Sequence[int], k: float = ELO_DEFAULT_K
) -> list[float]:
    """Multiplayer Elo by pairwise decomposition.

    Every pair of players is an Elo game: expected score
    ``1 / (1 + 10^((R_j - R_i) / 400))``, actual 1 if ranked above, ½ on equal
    ranks, 0 below. Each player's summed surprise is scaled by ``K / (N - 1)``
    so a game moves a rating about as much as one two-player game whatever N
    is. The two halves of every pair cancel, so the sum of ratings is kept.
    """
    count = len(ratings)
    _check_ranks(count, ranks)
    if not (math.isfinite(k) and k > 0):
        raise ValueError(f"Elo K must be finite and > 0, got {k!r}")
    for rating in ratings:
        if not math.isfinite(rating):
            raise ValueError(f"Elo ratings must be finite numbers, got {rating!r}")
    surprise = [0.0] * count
    for i in range(count - 1):
        rating_i = ratings[i]
        rank_i = ranks[i]
        for j in range(i + 1, count):
            exponent = (ratings[j] - rating_i) / 400.0
            if exponent > _MAX_ELO_EXPONENT:
                exponent = _MAX_ELO_EXPONENT
            elif exponent < -_MAX_ELO_EXPONENT:
                exponent = -_MAX_ELO_EXPONENT
            expected = 1.0 / (1.0 + 10.0**exponent)
            rank_j = ranks[j]
            actual = 1.0 if rank_i < rank_j else (0.5 if rank_i == rank_j else 0.0)
            change = actual - expected
            surprise[i] += change
            surprise[j] -= change
    scale = k / (count - 1)
    return [rating + scale * s for rating, s in zip(ratings, surprise, strict=True)]


# --- TrueSkill -------------------------------------------------------------


@lru_cache(maxsize=64)
def _trueskill_env(param_items: tuple[tuple[str, Any], ...]) -> trueskill.TrueSkill:
    """One TrueSkill environment per parameter set: building one is not free."""
    params = _resolve_params("trueskill", TRUESKILL_DEFAULTS, dict(param_items))
    _require_positive("trueskill", params, ("sigma", "beta"))
    if params["draw_probability"] >= 1.0:
        raise ValueError("trueskill draw_probability must be below 1")
    # backend=None: the package's own pure-Python Gaussian functions, so the
    # numbers do not depend on whether scipy or mpmath happens to be installed.
    return trueskill.TrueSkill(backend=None, **params)


def trueskill_rate(
    ratings: Sequence[MuSigma], ranks: Sequence[int], **params: float
) -> list[MuSigma]:
    """Free-for-all TrueSkill (every player a one-person team), ties as equal ranks.

    ``params`` override :data:`TRUESKILL_DEFAULTS` (mu, sigma, beta, tau,
    draw_probability); mu and sigma only matter for new players' ratings.
    """
    _check_ranks(len(ratings), ranks)
    _check_mu_sigma(ratings)
    env = _trueskill_env(tuple(sorted(params.items())))
    rating_cls = trueskill.Rating
    groups = [(rating_cls(mu, sigma),) for mu, sigma in ratings]
    rated = env.rate(groups, ranks=list(ranks))
    return [(group[0].mu, group[0].sigma) for group in rated]


# --- OpenSkill -------------------------------------------------------------


@lru_cache(maxsize=64)
def _openskill_model(param_items: tuple[tuple[str, Any], ...]) -> PlackettLuce:
    """One Plackett-Luce model per parameter set, reused across games."""
    params = _resolve_params("openskill", OPENSKILL_DEFAULTS, dict(param_items))
    # tau too: openskill 6.2.0 reads tau=0 as "use the model default", never as zero.
    _require_positive("openskill", params, ("sigma", "beta", "kappa", "tau"))
    return PlackettLuce(**params)


def openskill_rate(
    ratings: Sequence[MuSigma], ranks: Sequence[int], **params: float
) -> list[MuSigma]:
    """OpenSkill Weng-Lin Plackett-Luce, one player per team, ties as equal ranks.

    ``params`` override :data:`OPENSKILL_DEFAULTS` (mu, sigma, beta, kappa, tau).
    """
    _check_ranks(len(ratings), ranks)
    _check_mu_sigma(ratings)
    model = _openskill_model(tuple(sorted(params.items())))
    make = model.rating
    teams = [[make(mu, sigma)] for mu, sigma in ratings]
    rated = model.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


# --- Leaderboard scores ----------------------------------------------------


def elo_score(rating: float) -> float:
    """An Elo leaderboard ranks by the rating itself."""
    return rating


def conservative_score(rating: MuSigma) -> float:
    """mu - 3 sigma: a skill the player is ~99% likely to exceed.

    Ranking by it keeps a lucky newcomer with a wide sigma below established
    players until enough games have narrowed the estimate.
    """
    mu, sigma = rating
    return mu - 3.0 * sigma


# --- Registry --------------------------------------------------------------


@dataclass(frozen=True)
class RatingSystem:
    """Everything persistence needs to apply, store and reproduce one system."""

    name: str
    default_initial: float | MuSigma
    rate: Callable[..., list[Any]]
    score: Callable[[Any], float]
    default_params: Mapping[str, float]
    library_version: str

    def params(self, overrides: Mapping[str, Any] | None = None) -> dict[str, float]:
        """The full, validated parameter set to store with a scope."""
        return _resolve_params(self.name, self.default_params, overrides or {})

    def initial_rating(self, params: Mapping[str, Any] | None = None) -> float | MuSigma:
        """A new player's rating under ``params`` (mu/sigma where the system has them)."""
        if "mu" not in self.default_params:
            return self.default_initial
        resolved = self.params(params)
        return (resolved["mu"], resolved["sigma"])


SYSTEMS: Mapping[str, RatingSystem] = MappingProxyType(
    {
        "elo": RatingSystem(
            name="elo",
            default_initial=ELO_INITIAL,
            rate=elo_rate,
            score=elo_score,
            default_params=MappingProxyType({"k": ELO_DEFAULT_K}),
            library_version=f"harbormaster-elo=={ELO_VERSION}",
        ),
        "trueskill": RatingSystem(
            name="trueskill",
            default_initial=(TRUESKILL_DEFAULTS["mu"], TRUESKILL_DEFAULTS["sigma"]),
            rate=trueskill_rate,
            score=conservative_score,
            default_params=TRUESKILL_DEFAULTS,
            library_version=f"trueskill=={version('trueskill')}",
        ),
        "openskill": RatingSystem(
            name="openskill",
            default_initial=(OPENSKILL_DEFAULTS["mu"], OPENSKILL_DEFAULTS["sigma"]),
            rate=openskill_rate,
            score=conservative_score,
            default_params=OPENSKILL_DEFAULTS,
            library_version=f"openskill=={version('openskill')}",
        ),
    }
)


def get_system(name: str) -> RatingSystem:
    """The registered system called ``name``, or a ValueError listing the known ones."""
    try:
        return SYSTEMS[name]
    except KeyError:
        raise ValueError(f"unknown rating system {name!r}; known: {sorted(SYSTEMS)}") from None
