"""Games: who plays (competitors), what is played (games, seats, moves, outcomes, records).

The layer above the engines and below everything else: ratings, bots,
people, events, the lobby and the web. It imports none of them; it tells
them what happened through its signals and asks a seat for a decision
through the players registered with it.
"""
