"""Template libraries of the pages (``{% load game_rows %}`` and the others)."""
