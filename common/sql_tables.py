"""Quoted table names for the few statements written as SQL rather than through the ORM.

Where a hot read is written by hand (the rating chart's, the game page's rows),
its tables are still named by the models, so a renamed table or a changed
``db_table`` cannot leave a statement behind, and quoted for the connection's
database (PostgreSQL and SQLite alike).
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Model


def quoted_tables(**models: type[Model]) -> dict[str, str]:
    """``{name: quoted table of the model}``, for ``str.format`` into a statement."""
    quote = connection.ops.quote_name
    return {name: quote(model._meta.db_table) for name, model in models.items()}
