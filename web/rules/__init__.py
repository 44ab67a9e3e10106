"""The rules pages: how to play each game, for people, at ``/rules/`` and ``/rules/<engine>/``."""
