"""Page-number pagination for every list (``?page=2&page_size=100``)."""

from __future__ import annotations

from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class MoveLogPagination(PageNumberPagination):
    """Move logs are long (chance moves count); bigger pages by default."""

    page_size = 200
    max_page_size = 1000
