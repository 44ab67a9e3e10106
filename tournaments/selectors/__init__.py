"""What the tournament and league pages (and the events API) read: nothing here writes.

* ``listings`` — public tournaments, entrants, rounds and tables, a league's arena games;
* ``standings_table`` — standings and crosstable from the rows (the database
  side of ``tournaments.formats.standings``, through ``events.history``).

The writes are the event services, ``tournaments.events``.
"""
