"""The game pages.

A game with its replay, the board preview, the play page, verification, and the
leaderboards.
"""
