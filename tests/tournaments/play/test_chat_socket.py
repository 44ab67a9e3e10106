"""Table chat on the play socket: frames in and out, who is told what, and bad frames refused."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from chat.models import Message, Mute, TableChat
from chat.selectors import MAX_CHARS, RATE_COUNT
from games.models import Game
from games.services import create_game
from web.sockets import chat as table_chat
from web.sockets.consumers import MAX_CHAT_FRAME_CHARS
from web.sockets.routing import websocket_urlpatterns

from .conftest import Socket, people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


class ChatSocket(Socket):
    """The chat panel's socket: ``?chat=only``, chat frames and errors only."""

    def __init__(self, game_id: int, user=None, query: str = "chat=only") -> None:
        super().__init__(game_id, user)
        path = f"/ws/games/{game_id}/?{query}"
        self.comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
        self.comm.scope["user"] = user if user is not None else AnonymousUser()

    async def open(self) -> dict:
        connected, _ = await self.comm.connect(timeout=5)
        assert connected
        return await self.next("chat")

    async def next(self, kind: str) -> dict:
        while True:
            message = await self.receive()
            if message["type"] == kind:
                return message


def chat_table():
    players = people(3)
    watcher = people(1, prefix="watcher")[0]
    game = create_game("manila", players, seed="chat-socket")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game, players, watcher


def test_a_message_reaches_every_chat_socket_as_text_and_board_sockets_get_no_chat() -> None:
    game, players, watcher = chat_table()
    typed = "<img src=x onerror=alert(1)> hi"

    async def scenario():
        mine, theirs, anonymous = (
            ChatSocket(game.pk, players[0].user),
            ChatSocket(game.pk, watcher.user),
            ChatSocket(game.pk),
        )
        board = Socket(game.pk, players[1].user)
        firsts = [await mine.open(), await theirs.open(), await anonymous.open()]
        await board.open()
        await mine.send_json({"type": "chat", "text": typed})
        got = [await s.next("chat") for s in (mine, theirs, anonymous)]
        board_quiet = await board.quiet()
        state_frames = [
            f for s in (mine, theirs, anonymous) for f in s.frames if f["type"] == "state"
        ]
        for s in (mine, theirs, anonymous, board):
            await s.close()
        return firsts, got, board_quiet, state_frames, board.frames

    firsts, got, board_quiet, state_frames, board_frames = async_to_sync(scenario)()
    assert all(f["history"] and f["messages"] == [] for f in firsts)
    assert firsts[0]["mayPost"] and firsts[1]["mayPost"] and not firsts[2]["mayPost"]
    assert firsts[0]["maySet"] and not firsts[1]["maySet"] and firsts[0]["maxChars"] == MAX_CHARS
    for frame in got:
        assert [m["text"] for m in frame["messages"]] == [typed]
        assert frame["messages"][0]["author"] == players[0].name
    assert board_quiet and not [f for f in board_frames if f["type"].startswith("chat")]
    assert state_frames == []


def test_spectators_messages_stay_with_spectators_while_the_players_keep_them_apart() -> None:
    game, players, watcher = chat_table()

    async def scenario():
        player, fan, anonymous = (
            ChatSocket(game.pk, players[0].user),
            ChatSocket(game.pk, watcher.user),
            ChatSocket(game.pk),
        )
        for s in (player, fan, anonymous):
            await s.open()
        await player.send_json({"type": "chat_setting", "spectatorsApart": True})
        settings = [await s.next("chat") for s in (player, fan, anonymous)]
        await fan.send_json({"type": "chat", "text": "seat 2 holds jade"})
        seen_by_fan = await fan.next("chat")
        seen_by_anonymous = await anonymous.next("chat")
        player_quiet = await player.quiet()
        await player.send_json({"type": "chat", "text": "hello watchers"})
        heard = [await s.next("chat") for s in (player, fan, anonymous)]
        for s in (player, fan, anonymous):
            await s.close()
        return settings, seen_by_fan, seen_by_anonymous, player_quiet, heard

    settings, by_fan, by_anonymous, player_quiet, heard = async_to_sync(scenario)()
    assert all(s["history"] and s["spectatorsApart"] for s in settings)
    assert (
        by_fan["messages"][0]["text"] == by_anonymous["messages"][0]["text"] == "seat 2 holds jade"
    )
    assert by_fan["messages"][0]["player"] is False
    assert player_quiet
    assert all(h["messages"][0]["text"] == "hello watchers" for h in heard)
    assert TableChat.objects.get(game=game).set_by == players[0]


def test_a_mute_over_the_socket_takes_the_authors_messages_away_for_the_muter_only() -> None:
    game, players, watcher = chat_table()

    async def scenario():
        player, other = ChatSocket(game.pk, players[0].user), ChatSocket(game.pk, players[1].user)
        fan = ChatSocket(game.pk, watcher.user)
        for s in (player, other, fan):
            await s.open()
        await fan.send_json({"type": "chat", "text": "spam"})
        for s in (player, other, fan):
            await s.next("chat")
        await player.send_json({"type": "chat_mute", "author": watcher.pk, "muted": True})
        after_mute = await player.next("chat")
        await fan.send_json({"type": "chat", "text": "more spam"})
        other_got = await other.next("chat")
        await fan.next("chat")
        player_quiet = await player.quiet()
        for s in (player, other, fan):
            await s.close()
        return after_mute, other_got, player_quiet

    after_mute, other_got, player_quiet = async_to_sync(scenario)()
    assert after_mute["history"] and after_mute["messages"] == []
    assert after_mute["muted"] == [watcher.pk]
    assert other_got["messages"][0]["text"] == "more spam"
    assert player_quiet
    assert Mute.objects.filter(muter=players[0], muted=watcher).exists()


def test_a_message_staff_hide_leaves_every_open_socket() -> None:
    game, players, watcher = chat_table()
    staff = get_user_model().objects.create(username="moderator", is_staff=True)

    async def scenario():
        player, fan = ChatSocket(game.pk, players[0].user), ChatSocket(game.pk, watcher.user)
        await player.open()
        await fan.open()
        await fan.send_json({"type": "chat", "text": "rude"})
        said = await player.next("chat")
        await fan.next("chat")
        message_id = said["messages"][0]["id"]
        await database_sync_to_async(table_chat.hide)(message_id, staff)
        gone = [await s.next("chat_hidden") for s in (player, fan)]
        late = ChatSocket(game.pk, watcher.user)
        history = await late.open()
        for s in (player, fan, late):
            await s.close()
        return message_id, gone, history

    message_id, gone, history = async_to_sync(scenario)()
    assert [g["id"] for g in gone] == [message_id, message_id]
    assert history["messages"] == []
    hidden = Message.objects.get(pk=message_id)
    assert hidden.hidden_by == staff and hidden.hidden_at is not None


BAD_CHAT_FRAMES = [
    ({"type": "chat"}, "bad_text"),
    ({"type": "chat", "text": 12}, "bad_text"),
    ({"type": "chat", "text": "   "}, "empty"),
    ({"type": "chat", "text": "x" * (MAX_CHARS + 1)}, "too_long"),
    ({"type": "chat", "text": "nul\x00"}, "bad_text"),
    ({"type": "chat_mute", "author": "someone", "muted": True}, "bad_frame"),
    ({"type": "chat_mute", "author": 1, "muted": 1}, "bad_frame"),
    ({"type": "chat_setting", "spectatorsApart": "yes"}, "bad_frame"),
]


def test_bad_chat_frames_are_refused_with_the_documented_error_and_change_nothing() -> None:
    game, players, watcher = chat_table()
    overlong = json.dumps({"type": "chat", "text": "\\" * MAX_CHAT_FRAME_CHARS})

    async def scenario():
        player, fan, anonymous = (
            ChatSocket(game.pk, players[0].user),
            ChatSocket(game.pk, watcher.user),
            ChatSocket(game.pk),
        )
        for s in (player, fan, anonymous):
            await s.open()
        errors = []
        for frame, _ in BAD_CHAT_FRAMES:
            await player.send_json(frame)
            errors.append(await player.next("error"))
        await player.comm.send_to(text_data=overlong)
        errors.append(await player.next("error"))
        await fan.send_json({"type": "chat_setting", "spectatorsApart": True})
        errors.append(await fan.next("error"))
        await anonymous.send_json({"type": "chat", "text": "hi"})
        errors.append(await anonymous.next("error"))
        await anonymous.send_json({"type": "chat_mute", "author": players[0].pk, "muted": True})
        errors.append(await anonymous.next("error"))
        for s in (player, fan, anonymous):
            await s.close()
        return errors

    errors = async_to_sync(scenario)()
    codes = [code for _, code in BAD_CHAT_FRAMES]
    assert [e["code"] for e in errors] == [
        *codes,
        "bad_frame",
        "not_a_player",
        "sign_in",
        "sign_in",
    ]
    assert all(set(e) == {"type", "code", "detail"} and e["detail"] for e in errors)
    assert not Message.objects.exists() and not Mute.objects.exists()
    assert not TableChat.objects.exists()


def test_a_chat_frame_may_be_longer_than_a_move_frame_but_a_move_frame_may_not() -> None:
    game, players, _ = chat_table()
    quoted = '"' * MAX_CHARS  # each escaped in JSON: about twice the move frames' limit
    padded_act = json.dumps({"type": "act", "ply": 0, "index": 0, "pad": "x" * 2000})

    async def scenario():
        player = ChatSocket(game.pk, players[0].user)
        await player.open()
        await player.send_json({"type": "chat", "text": quoted})
        said = await player.next("chat")
        await player.comm.send_to(text_data=padded_act)
        refused = await player.next("error")
        await player.close()
        return said, refused

    said, refused = async_to_sync(scenario)()
    assert said["messages"][0]["text"] == quoted
    assert refused["code"] == "bad_frame"


def test_the_rate_limit_refuses_the_message_too_many() -> None:
    game, players, _ = chat_table()

    async def scenario():
        player = ChatSocket(game.pk, players[0].user)
        await player.open()
        for i in range(RATE_COUNT):
            await player.send_json({"type": "chat", "text": f"m{i}"})
            await player.next("chat")
        await player.send_json({"type": "chat", "text": "one more"})
        refused = await player.next("error")
        await player.close()
        return refused

    refused = async_to_sync(scenario)()
    assert refused["code"] == "chat_rate_limited" and "10 seconds" in refused["detail"]
    assert Message.objects.count() == RATE_COUNT


def test_one_socket_may_carry_the_board_and_the_chat() -> None:
    game, players, _ = chat_table()

    async def scenario():
        both = ChatSocket(game.pk, players[0].user, query="chat=with")
        connected, _ = await both.comm.connect(timeout=5)
        assert connected
        first, second = await both.receive(), await both.receive()
        await both.send_json({"type": "chat", "text": "both ways"})
        said = await both.next("chat")
        await both.close()
        return first, second, said

    first, second, said = async_to_sync(scenario)()
    assert first["type"] == "state" and first["seat"] == 0
    assert second["type"] == "chat" and second["history"]
    assert said["messages"][0]["text"] == "both ways"


def test_the_play_page_includes_the_chat_panel_on_its_own_socket() -> None:
    game, _, _ = chat_table()
    page = Client().get(f"/games/{game.pk}/play/").content.decode()
    assert f'data-ws="/ws/games/{game.pk}/?chat=only"' in page
    assert "/static/chat/chat.js" in page and 'id="chat-log"' in page
