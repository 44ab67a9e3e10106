"""The REST API under /api/v1/: bots for their owners (register, manage, inspect games)."""
