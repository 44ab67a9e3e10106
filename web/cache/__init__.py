"""The page cache.

Whole public pages kept under generational version tokens, bumped by the domain's
signals.
"""
