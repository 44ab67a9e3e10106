"""Ratings: the rating systems, the stored ratings and their changes per game."""
