"""Bots: registration, the protocol the referee speaks to them, and the pull API."""
