"""Shared utilities every layer may use: no models, no app imports.

JSON from strangers (``jsonparse``), CSV cells (``csv_text``), the client's
address as throttles count it (``client_address``), table names for raw SQL
(``sql_tables``). It imports none of the project's apps, so games, ratings
and everything above can use it without a cycle (checked by import-linter).
"""
