"""Admin pages for ``ratings``: read-only, since ratings come only from game results.

Nothing here is added, edited or deleted: a wrong rating is fixed by fixing
the game log and running ``manage.py recompute_ratings``, never by editing a
number, and a deleted change or scope would leave ratings whose games no
longer count.
"""

from __future__ import annotations

from django.contrib import admin

from common.readonly_admin import ReadOnlyAdmin
from ratings.models import Rating, RatingChange, RatingScope


@admin.register(RatingScope)
class RatingScopeAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "engine", "league", "created_at")
    list_filter = ("kind", "engine")


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("competitor", "scope", "system", "score", "value", "sigma", "games")
    list_filter = ("system", "scope")
    search_fields = ("competitor__name",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("game", "competitor", "scope", "system", "rank", "before_value", "after_value")
    list_filter = ("system", "scope")
