"""The REST API under /api/v1/.

One toolkit, then the bots', the games' and the competitors' endpoints.
"""
