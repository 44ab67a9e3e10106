"""Table talk: the chat of a game's players and spectators (issue #32, point 5)."""
