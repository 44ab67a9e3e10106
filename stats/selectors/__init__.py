"""What a competitor's pages read: nothing here writes (the tallies are ``stats.services``).

* ``pages`` — the competitor sections of a bot's or a person's page, gathered once;
* ``competitor`` — rating history, results by seat, head-to-head, the games list;
* ``history`` — the latest changes of a rating history, per ladder;
* ``filters`` — which of a competitor's games to list;
* ``export`` — a competitor's games as JSON records and CSV rows.
"""
