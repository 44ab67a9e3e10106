"""What may be read of games and how it is shown: nothing here writes (that is ``games.services``,
the referee and the records).

* ``spectator`` — what anyone may see of a game (pages, API, sockets, admin);
* ``listings``, ``cursor`` — the public game lists, a page at a time;
* ``seat_holders`` — which seats a signed-in user holds, for what they may see;
* ``boards`` — the model a browser board is drawn from (one seat's view);
* ``rating_rules`` — whether a game is rated, and if not why (``create_game`` asks);
* ``ranks`` — an outcome's final ranks, forfeited seats last.
"""
