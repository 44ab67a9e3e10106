"""What the bot side reads, and the checks made from it: nothing here writes.

* ``seating`` — who may seat which bot, and when a game is a challenge;
* ``capacity`` — how many games a bot plays at once, and who may take them
  (``check_capacity`` locks the bots' rows, inside the creating transaction);
* ``versions`` — a bot's chain of versions and how they compare;
* ``owner_log``, ``owner_stats`` — the owner's move log and latency chart.

The writes are in ``botapi.services``.
"""
