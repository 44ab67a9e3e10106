"""The play page's websocket.

Its consumer, routes, limits, origin check, and what the referee broadcasts.
"""
