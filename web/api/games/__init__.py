"""The game API under /api/v1/.

Create games, read their public records, leaderboards, events and the arena.
"""
