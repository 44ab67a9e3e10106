"""Everything that writes ratings: a finished game applied once, a scope rebuilt.

* ``apply`` — a finished game (or a closed duplicate set) applied to every
  rating it counts for, exactly once, inside the finish's transaction;
* ``recompute`` — a scope's ratings rebuilt from the finished-game log
  (``manage.py recompute_ratings``), written in bulk by ``bulk``;
* ``scopes`` — which scopes a game counts for, created on first use.

The reads are in ``ratings.selectors``; the maths in ``ratings.systems`` and
``ratings.ledger`` (pure, shared by ``apply`` and ``recompute``).
"""
