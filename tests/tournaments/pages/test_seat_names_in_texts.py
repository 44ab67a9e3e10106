"""The engines' "seat N" (0-based) reads as the player's name on the game page (#31 point 9).

The live board's log already names seats (static/boards/log.js); the game
page's server-rendered ply list does the same through ``web.games.seat_texts``.
"""

from __future__ import annotations

from web.games.seat_texts import seat_label, with_names

NAMES = {0: "ana", 1: "bo", 2: "cy"}


def test_each_seat_of_the_game_reads_as_its_name() -> None:
    text = "Pirates plunder the boat: seat 2 takes 12 pesos; its crew (seat 1 and seat 0) go home."
    assert with_names(text, NAMES) == (
        "Pirates plunder the boat: cy takes 12 pesos; its crew (bo and ana) go home."
    )
    assert with_names("Seat 0 is dealt a share, face down.", NAMES) == (
        "ana is dealt a share, face down."
    )


def test_a_number_past_the_players_and_other_words_stay_as_written() -> None:
    assert with_names("Seat 7 is no seat of this game.", NAMES) == (
        "Seat 7 is no seat of this game."
    )
    assert with_names("Seats 0 and 1; the seat 10 is taken", NAMES) == (
        "Seats 0 and 1; the seat 10 is taken"
    )


def test_a_seat_without_a_name_is_counted_from_one() -> None:
    assert seat_label(0, {}) == "seat 1" and seat_label(2, NAMES) == "cy"
