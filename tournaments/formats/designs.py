"""Resolvable designs: schedules where every pair of entrants meets exactly once.

Two families are built here, both as rounds of tables over the points
``0..n-1`` (the round robin maps its entrants onto the points):

* the affine plane AG(2, q) for ``n = q*q`` entrants in tables of ``q``
  (q a prime or a prime power: 2, 3, 4, 5, 7, 8, 9, ...): the ``q + 1``
  parallel classes are the rounds, the lines of a class its tables, and any
  two points lie on exactly one line;
* the circle method (Berger tables) for tables of two: ``n - 1`` rounds for
  an even ``n``, ``n`` rounds with one bye each for an odd ``n``.

Both come with their seat orders already balanced: over one cycle of rounds
every point sits in every seat once, plus one seat a second time for the
plane (it has ``q + 1`` rounds of ``q`` seats), and the two colours of the
circle differ by at most one per entrant. A design's seats therefore beat
what :mod:`.seats` can do one round at a time, which cannot see the rounds
to come.

The finite fields GF(q) needed for the prime-power planes (4, 8, 9, 16, ...)
are built by brute force here: elements are the integers ``0..q-1`` read as
polynomials over GF(p) in base ``p``, multiplied modulo the first monic
irreducible polynomial of degree ``e``. The tables are tiny (q <= 32).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import product

MAX_PLANE_ORDER = 32
"""Largest q whose plane is built (1,024 entrants); a larger club uses the local search."""


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, e)`` with ``q == p**e`` and p prime, or None when q is no prime power."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)  # the smallest factor is prime
    e = 0
    while q % p == 0:
        q //= p
        e += 1
    return (p, e) if q == 1 else None


@dataclass(frozen=True)
class Field:
    """GF(q) with elements ``0..q-1``: addition and multiplication tables."""

    q: int
    add: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]


@cache
def field(q: int) -> Field:
    """The finite field of order ``q`` (a prime power); ValueError otherwise."""
    pe = prime_power(q)
    if pe is None:
        raise ValueError(f"there is no finite field of order {q}: {q} is not a prime power")
    p, e = pe

    def digits(a: int) -> list[int]:
        return [(a // p**i) % p for i in range(e)]

    def number(coefficients: list[int]) -> int:
        return sum(c * p**i for i, c in enumerate(coefficients))

    add = tuple(
        tuple(
            number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)])
            for b in range(q)
        )
        for a in range(q)
    )
    for modulus in product(range(p), repeat=e):  # the low coefficients of a monic polynomial
        mul = tuple(
            tuple(_poly_mul(digits(a), digits(b), list(modulus), p, number) for b in range(q))
            for a in range(q)
        )
        if all(mul[a][b] != 0 for a in range(1, q) for b in range(1, q)):  # no zero divisors
            return Field(q, add, mul)
    raise AssertionError(
        f"no irreducible polynomial of degree {e} over GF({p})"
    )  # pragma: no cover


def _poly_mul(
    a: list[int], b: list[int], modulus: list[int], p: int, number: Callable[[list[int]], int]
) -> int:
    """(a * b) mod (x**e + modulus) over GF(p), as a field element."""
    e = len(a)
    product_ = [0] * (2 * e - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            product_[i + j] = (product_[i + j] + x * y) % p
    for degree in range(2 * e - 2, e - 1, -1):  # x**e == -modulus
        c = product_[degree]
        if c:
            product_[degree] = 0
            for i, m in enumerate(modulus):
                product_[degree - e + i] = (product_[degree - e + i] - c * m) % p
    return number(product_[:e])


def plane_order(entrant_count: int, table_size: int) -> int | None:
    """q when ``entrant_count == q*q`` entrants in tables of ``q`` form an affine plane."""
    q = table_size
    if q * q != entrant_count or q > MAX_PLANE_ORDER or prime_power(q) is None:
        return None
    return q


@cache
def affine_plane(q: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The q + 1 parallel classes of AG(2, q): rounds of q tables of q points.

    Point ``x*q + y`` is (x, y). Class m < q holds the lines y = m*x + b (one
    per b), class q the vertical lines x = c. Each line is listed in seat
    order: point (x, y) sits in seat x + m (field addition) of its class-m
    line and in seat y of its vertical line, so over the q + 1 classes every
    point sits in every seat once and in seat y twice.
    """
    f = field(q)
    classes = []
    for m in range(q):
        lines = []
        for b in range(q):
            line = [0] * q
            for x in range(q):
                y = f.add[f.mul[m][x]][b]
                line[f.add[x][m]] = x * q + y
            lines.append(tuple(line))
        classes.append(tuple(lines))
    classes.append(tuple(tuple(c * q + y for y in range(q)) for c in range(q)))
    return tuple(classes)


def plane_round(q: int, round_index: int) -> tuple[tuple[int, ...], ...]:
    """Round ``round_index`` (0-based) of a plane schedule that may run past q + 1 rounds.

    Cycle c (rounds c*(q+1) .. c*(q+1)+q) replays the classes with every
    seat moved c places on, so the seat a point sits in twice is a different
    one each cycle and the per-seat counts stay within one for up to q
    cycles (every pair meets c or c + 1 times).
    """
    cycle, index = divmod(round_index, q + 1)
    shift = cycle % q
    return tuple(
        line[-shift:] + line[:-shift] if shift else line for line in affine_plane(q)[index]
    )


def circle_round(n: int, round_index: int) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """Round ``round_index`` (0-based) of the circle method for ``n`` points: (pairs, byes).

    Point ``m-1`` (m = n rounded up to even) stays put while the others turn
    one place per round; with an odd ``n`` the point drawn against the
    missing one sits out. Colours (who sits first) follow Berger's rule:
    the fixed point alternates, and every other pair has its first seat on
    the side that alternates with the round, so every point's seats differ
    by at most one over a cycle. Odd cycles swap all colours, so further
    cycles keep the balance.
    """
    m = n + n % 2
    cycle, r = divmod(round_index, m - 1)
    circle = [(r + i) % (m - 1) for i in range(m - 1)]
    pairs: list[tuple[int, int]] = []
    fixed = m - 1
    pairs.append((fixed, circle[0]) if r % 2 else (circle[0], fixed))
    for i in range(1, m // 2):
        a, b = circle[i], circle[m - 1 - i]
        pairs.append((a, b) if i % 2 else (b, a))
    if cycle % 2:
        pairs = [(b, a) for a, b in pairs]
    byes = tuple(a if b >= n else b for a, b in pairs if max(a, b) >= n)
    return tuple(pair for pair in pairs if max(pair) < n), byes


def circle_length(n: int) -> int:
    """Rounds in one cycle of the circle method: every pair once."""
    return n - 1 if n % 2 == 0 else n
