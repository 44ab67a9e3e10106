"""Leagues, tournaments, games, seats and moves, and the referee that plays them."""
