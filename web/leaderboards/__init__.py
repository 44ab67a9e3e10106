"""Leaderboards as the pages and the API show them.

Ranked and paged in the database, exported as rows.
"""
