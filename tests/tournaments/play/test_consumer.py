"""The play socket: who joins as what, acting, every refusal, resigning and reconnecting."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.utils import timezone

from engines import CHANCE
from games.models import Game, Move, Seat
from games.referee.statecache import load_state
from games.services import create_game

from .conftest import Socket, people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


def manila_game(**kwargs) -> tuple[Game, list]:
    players = people(3)
    game = create_game("manila", players, seed="play-socket", **kwargs)
    game.refresh_from_db()
    return game, players


def to_move(game: Game) -> int:
    game.refresh_from_db()
    seat = load_state(game).to_move[0]
    assert seat != CHANCE
    return seat


def written(game: Game) -> tuple:
    game.refresh_from_db()
    seats = list(Seat.objects.filter(game=game).values_list("forfeited", "bank_left_ms"))
    return game.next_ply, Move.objects.filter(game=game).count(), game.status, seats


def test_a_seat_sees_its_own_view_and_legal_actions_and_a_spectator_the_public_one() -> None:
    game, players = manila_game()
    mover = to_move(game)
    other = (mover + 1) % 3
    state = load_state(game)

    async def scenario():
        seat, waiting, anonymous = (
            Socket(game.pk, players[mover].user),
            Socket(game.pk, players[other].user),
            Socket(game.pk),
        )
        frames = [await seat.open(), await waiting.open(), await anonymous.open()]
        for s in (seat, waiting, anonymous):
            await s.close()
        return frames

    mine, theirs, public = async_to_sync(scenario)()
    assert mine["seat"] == mover and mine["yourTurn"] and mine["ply"] == game.next_ply
    assert mine["model"]["view"] == json.loads(json.dumps(state.view(mover)))
    assert [e["index"] for e in mine["model"]["legal"]] == list(
        range(len(state.legal_actions(mover)))
    )
    assert theirs["seat"] == other and not theirs["yourTurn"] and theirs["model"]["legal"] == []
    assert theirs["model"]["view"] == json.loads(json.dumps(state.view(other)))
    assert public["seat"] is None and public["seats"] == [] and public["model"]["legal"] == []
    assert public["model"]["view"] == json.loads(json.dumps(state.view(None)))
    clocks = {c["seat"]: c for c in mine["clocks"]["seats"]}
    assert clocks[mover]["running"] and not clocks[other]["running"]
    assert 0 < clocks[mover]["moveMs"] <= game.move_time_ms
    assert clocks[other]["moveMs"] == game.move_time_ms


def test_a_socket_to_a_game_that_does_not_exist_is_refused() -> None:
    async def scenario():
        socket = Socket(999_999)
        connected, code = await socket.comm.connect(timeout=5)
        return connected, code

    connected, code = async_to_sync(scenario)()
    assert not connected and code == 4404


def test_an_action_is_played_by_the_referee_and_every_socket_sees_the_next_position() -> None:
    game, players = manila_game()
    mover = to_move(game)
    ply = game.next_ply

    async def scenario():
        seat, spectator = Socket(game.pk, players[mover].user), Socket(game.pk)
        first = await seat.open()
        await spectator.open()
        await seat.send_json({"type": "act", "ply": ply, "index": 0})
        after = await seat.until(ply + 1)
        seen = await spectator.until(ply + 1)
        await seat.close()
        await spectator.close()
        return first, after, seen

    first, after, seen = async_to_sync(scenario)()
    move = Move.objects.get(game=game, ply=ply)
    assert move.seat == mover and move.source == "person"
    assert move.action == first["model"]["legal"][0]["action"]
    game.refresh_from_db()
    assert after["ply"] == seen["ply"] == game.next_ply
    state = load_state(game)
    assert seen["model"]["view"] == json.loads(json.dumps(state.view(None)))


BAD_FRAMES = [
    ("not json {", "bad_frame"),
    (json.dumps([1, 2]), "bad_frame"),
    (json.dumps({"type": "fly"}), "bad_frame"),
    (json.dumps({"type": "act", "ply": "0", "index": 0}), "bad_frame"),
    (json.dumps({"type": "act", "ply": 0, "index": 1.5}), "bad_frame"),
    (json.dumps({"type": "act", "ply": 0, "index": True}), "bad_frame"),
    (json.dumps({"type": "act", "index": 0}), "bad_frame"),
    (json.dumps({"type": "act", "ply": 0, "index": 0, "pad": "x" * 2000}), "bad_frame"),
]


def test_garbage_frames_get_an_error_and_change_nothing() -> None:
    game, players = manila_game()
    mover = to_move(game)
    before = written(game)

    async def scenario():
        seat = Socket(game.pk, players[mover].user)
        await seat.open()
        errors = []
        for text, _ in BAD_FRAMES:
            await seat.comm.send_to(text_data=text)
            errors.append(await seat.error())
        await seat.comm.send_to(bytes_data=b"\x00\x01")
        errors.append(await seat.error())
        await seat.close()
        return errors

    errors = async_to_sync(scenario)()
    codes = [code for _, code in BAD_FRAMES] + ["bad_frame"]
    assert [e["code"] for e in errors] == codes
    assert all(e["detail"] for e in errors)
    assert written(game) == before


def test_refused_actions_say_why_and_change_nothing() -> None:
    game, players = manila_game()
    mover = to_move(game)
    other = (mover + 1) % 3
    ply = game.next_ply
    legal_count = len(load_state(game).legal_actions(mover))
    before = written(game)

    async def scenario():
        seat = Socket(game.pk, players[mover].user)
        waiting = Socket(game.pk, players[other].user)
        anonymous = Socket(game.pk)
        for s in (seat, waiting, anonymous):
            await s.open()
        cases = [
            (seat, {"type": "act", "ply": ply - 1, "index": 0}),
            (seat, {"type": "act", "ply": ply + 1, "index": 0}),
            (seat, {"type": "act", "ply": ply, "index": legal_count}),
            (seat, {"type": "act", "ply": ply, "index": -1}),
            (waiting, {"type": "act", "ply": ply, "index": 0}),
            (anonymous, {"type": "act", "ply": ply, "index": 0}),
            (anonymous, {"type": "resign"}),
        ]
        answers = []
        for socket, frame in cases:
            await socket.send_json(frame)
            answers.append(await socket.error())
            redrawn = await socket.state()  # the page is told what is true now
            assert redrawn["ply"] == ply
        for s in (seat, waiting, anonymous):
            await s.close()
        return answers

    answers = async_to_sync(scenario)()
    assert [a["code"] for a in answers] == [
        "stale_ply",
        "stale_ply",
        "bad_index",
        "bad_index",
        "not_your_turn",
        "not_a_player",
        "not_a_player",
    ]
    assert str(legal_count) in answers[2]["detail"]
    assert written(game) == before


def test_a_foreign_socket_holding_a_seat_in_another_game_cannot_act_here() -> None:
    game, _players = manila_game()
    elsewhere = create_game("manila", people(3, prefix="other"), seed="elsewhere")
    foreigner = elsewhere.seats.get(position=0).competitor.user
    before = written(game)

    async def scenario():
        socket = Socket(game.pk, foreigner)
        frame = await socket.open()
        await socket.send_json({"type": "act", "ply": game.next_ply, "index": 0})
        error = await socket.error()
        await socket.close()
        return frame, error

    frame, error = async_to_sync(scenario)()
    assert frame["seat"] is None and frame["model"]["legal"] == []
    assert error["code"] == "not_a_player"
    assert written(game) == before


def test_a_flood_of_frames_is_cut_off_by_the_rate_limit() -> None:
    game, players = manila_game()
    before = written(game)

    async def scenario():
        socket = Socket(game.pk, players[0].user)
        await socket.open()
        for _ in range(40):
            await socket.send_json({"type": "act", "ply": -5, "index": 0})
        codes = []
        while len(codes) < 40:
            message = await socket.receive()
            if message["type"] == "error":
                codes.append(message["code"])
        await socket.close()
        return codes

    codes = async_to_sync(scenario)()
    assert "rate_limited" in codes
    assert codes.count("stale_ply") <= 12  # the burst, and the few refilled meanwhile
    assert written(game) == before


def test_a_reconnecting_seat_gets_its_board_and_clock_back_unchanged() -> None:
    game, players = manila_game(time_bank_ms=60_000)
    mover = to_move(game)
    before = written(game)

    async def scenario():
        first = Socket(game.pk, players[mover].user)
        opened = await first.open()
        await first.close()
        again = Socket(game.pk, players[mover].user)
        reopened = await again.open()
        await again.send_json({"type": "act", "ply": reopened["ply"], "index": 0})
        after = await again.until(reopened["ply"] + 1)
        await again.close()
        return opened, reopened, after

    opened, reopened, after = async_to_sync(scenario)()
    assert reopened["seat"] == opened["seat"] == mover and reopened["yourTurn"]
    assert reopened["model"] == opened["model"]
    bank = {c["seat"]: c["bankMs"] for c in reopened["clocks"]["seats"]}
    assert bank[mover] == 60_000  # well within the move limit: the bank is untouched
    assert opened["ply"] == reopened["ply"] == before[0], "nothing moved meanwhile"
    assert after["ply"] > reopened["ply"]
    assert Move.objects.get(game=game, ply=reopened["ply"]).source == "person"


def test_resigning_forfeits_the_seat_and_a_house_bot_plays_it() -> None:
    game, players = manila_game()
    mover = to_move(game)
    ply = game.next_ply

    async def scenario():
        seat, spectator = Socket(game.pk, players[mover].user), Socket(game.pk)
        await seat.open()
        await spectator.open()
        await seat.send_json({"type": "resign"})
        after = await seat.until(ply + 1)
        seen = await spectator.until(ply + 1)
        await seat.send_json({"type": "resign"})
        again = await seat.error()
        await seat.close()
        await spectator.close()
        return after, seen, again

    after, seen, again = async_to_sync(scenario)()
    row = Seat.objects.get(game=game, position=mover)
    assert row.forfeited and row.substituted and row.fault_count == 0
    move = Move.objects.get(game=game, ply=ply)
    assert move.seat == mover and move.source == "house" and move.fault_kind == ""
    assert mover in after["forfeited"] and mover in seen["forfeited"]
    assert after["substituted"] == seen["substituted"] == [mover]
    assert after["substitutions"] == [{"seat": mover, "reason": "resigned"}]
    assert not after["yourTurn"] and after["model"]["legal"] == []
    assert again["code"] == "nothing_to_resign"


def test_the_session_user_is_who_the_socket_is_through_the_real_application() -> None:
    from harbormaster.asgi import application

    game, players = manila_game()
    mover = to_move(game)
    client = Client()
    client.force_login(players[mover].user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    async def scenario():
        from channels.testing import WebsocketCommunicator

        headers = [
            (b"cookie", cookie.encode()),
            (b"host", b"localhost"),  # the origin check compares Origin with it
            (b"origin", b"http://localhost"),
        ]
        comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
        connected, _ = await comm.connect(timeout=5)
        frame = await comm.receive_json_from(timeout=5)
        await comm.disconnect()
        foreign = WebsocketCommunicator(
            application, f"/ws/games/{game.pk}/", headers=[(b"origin", b"http://evil.example")]
        )
        refused, _ = await foreign.connect(timeout=5)
        return connected, frame, refused

    connected, frame, refused = async_to_sync(scenario)()
    assert connected and frame["seat"] == mover and frame["yourTurn"]
    assert not refused, "a page from another origin cannot open the socket"


def test_time_past_the_move_limit_comes_out_of_the_bank() -> None:
    game, players = manila_game(move_time_ms=1000, time_bank_ms=60_000)
    mover = to_move(game)
    Game.objects.filter(pk=game.pk).update(last_progress_at=timezone.now() - timedelta(seconds=4))
    ply = game.next_ply

    async def scenario():
        seat = Socket(game.pk, players[mover].user)
        opened = await seat.open()
        await seat.send_json({"type": "act", "ply": ply, "index": 0})
        await seat.until(ply + 1)
        await seat.close()
        return opened

    opened = async_to_sync(scenario)()
    clock = {c["seat"]: c for c in opened["clocks"]["seats"]}[mover]
    assert clock["moveMs"] == 0 and 50_000 < clock["bankMs"] <= 57_000
    bank = Seat.objects.get(game=game, position=mover).bank_left_ms
    assert 50_000 < bank <= 57_000
    assert Move.objects.get(game=game, ply=ply).source == "person"


def test_an_action_after_the_clock_ran_out_is_refused_and_the_default_is_played() -> None:
    game, players = manila_game(move_time_ms=1000)
    mover = to_move(game)
    Game.objects.filter(pk=game.pk).update(last_progress_at=timezone.now() - timedelta(minutes=1))
    ply = game.next_ply

    async def scenario():
        seat = Socket(game.pk, players[mover].user)
        await seat.open()
        await seat.send_json({"type": "act", "ply": ply, "index": 1})
        error = await seat.error()
        after = await seat.until(ply + 1)
        await seat.close()
        return error, after

    error, after = async_to_sync(scenario)()
    assert error["code"] == "deadline_passed"
    move = Move.objects.get(game=game, ply=ply)
    assert move.seat == mover and move.source == "default" and move.fault_kind == "timeout"
    assert after["ply"] > ply


def test_sync_sends_the_current_frame_again() -> None:
    game, players = manila_game()

    async def scenario():
        socket = Socket(game.pk, players[0].user)
        first = await socket.open()
        await socket.send_json({"type": "sync"})
        again = await socket.state()
        await socket.close()
        return first, again

    first, again = async_to_sync(scenario)()
    assert again["ply"] == first["ply"] and again["model"] == first["model"]


def test_the_game_log_comes_whole_first_then_continues_and_a_sync_sends_it_whole_again() -> None:
    game, players = manila_game()
    mover = to_move(game)
    start = game.next_ply  # the opening deal: chance's plies, each with its public events

    async def scenario():
        seat = Socket(game.pk, players[mover].user)
        first = await seat.open()
        await seat.send_json({"type": "act", "ply": first["ply"], "index": 0})
        after = await seat.until(first["ply"] + 1)
        await seat.send_json({"type": "sync"})
        again = await seat.state()
        await seat.close()
        return first, after, again

    first, after, again = async_to_sync(scenario)()
    assert first["log"]["from"] == 0 and first["log"]["to"] == start > 0
    assert [e["ply"] for e in first["log"]["entries"]] == list(range(start))
    assert all(e["seat"] == CHANCE and "mine" not in e for e in first["log"]["entries"])
    assert any(e["events"] for e in first["log"]["entries"])
    assert after["log"]["from"] == start and after["log"]["to"] == after["ply"]
    (own, *_rest) = after["log"]["entries"]
    assert own["ply"] == start and own["seat"] == mover and own["mine"]
    assert again["log"]["from"] == 0 and again["log"]["to"] == again["ply"]
    assert again["log"]["entries"][: start + 1] == first["log"]["entries"] + [own]
