"""Template libraries of the pages (``{% load jinja_partials %}`` and the others)."""
