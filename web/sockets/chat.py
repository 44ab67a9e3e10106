"""Table chat on the play socket: the chat frames' handling and the cues to the game's sockets.

The consumer (``web/sockets/consumers.py``) relays chat frames here; the
decisions are the ``chat`` app's (``chat.services``, ``chat.selectors``).
After a write commits, the game's group gets a cue naming only the message's
id (``chat.message``), a hiding (``chat.hidden``) or a new setting
(``chat.setting``): each socket then reads what *its* reader may see, so a
spectator's message never reaches a player's socket while the players keep
spectators apart, nor a muted author's the muter's.

Bots never see any of it: the referee and the bot API live below the chat app
and never read it, and the socket is for people's pages only.

Frames in: ``{"type": "chat", "text"}``, ``{"type": "chat_mute", "author",
"muted"}``, ``{"type": "chat_setting", "spectatorsApart"}``. Frames out:
``{"type": "chat", "messages", ...}`` (with ``history: true`` and the reader's
rights when it is the whole visible chat), ``{"type": "chat_hidden", "id"}``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from chat import selectors as chat_selectors
from chat import services as chat_services
from chat.selectors import ChatError, Reader
from games.models import Game
from people.services import ensure_person
from web.sockets import broadcast


def reader_for(game_id: int, user: Any) -> Reader:
    return chat_selectors.reader_for(game_id, user)


def history_frame(game_id: int, user: Any) -> dict[str, Any]:
    """The whole chat the socket's user may see, with what they may do."""
    game = Game.objects.get(pk=game_id)
    reader = chat_selectors.reader_for(game_id, user)
    return {
        "type": "chat",
        "history": True,
        "messages": chat_selectors.history(reader),
        "you": reader.person_id,
        # Signed in without a person yet: ``say`` makes it, so they may write while it runs.
        "mayPost": chat_selectors.may_post(game, reader)
        or (reader.person_id is None and _signed_in(user) and game.status == Game.Status.RUNNING),
        "maySet": chat_selectors.may_set(game, user),
        "spectatorsApart": chat_selectors.spectators_apart(game_id),
        "muted": chat_selectors.muted_by(reader.person_id),
        "maxChars": chat_selectors.MAX_CHARS,
    }


def _signed_in(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def say(game_id: int, user: Any, text: Any) -> int:
    """Keep the user's message and cue the game's sockets; ChatError if refused."""
    if _signed_in(user) and chat_selectors.person_of(user) is None:
        ensure_person(user)  # an account made without sign-up gets its person here
    game = Game.objects.get(pk=game_id)
    reader = chat_selectors.reader_for(game_id, user)
    with transaction.atomic():
        message = chat_services.say(game, reader, text)
        cue = {"type": "chat.message", "game": game_id, "id": message.pk}
        transaction.on_commit(lambda: broadcast.publish(game_id, cue))
    return message.pk


def mute(game_id: int, user: Any, author: Any, muted: Any) -> None:
    reader = chat_selectors.reader_for(game_id, user)
    chat_services.mute(reader.person_id, author, muted)


def set_spectators_apart(game_id: int, user: Any, apart: Any) -> None:
    game = Game.objects.get(pk=game_id)
    with transaction.atomic():
        chat_services.set_spectators_apart(game, user, apart)
        cue = {"type": "chat.setting", "game": game_id}
        transaction.on_commit(lambda: broadcast.publish(game_id, cue))


def hide(message_id: int, by: Any) -> None:
    """Staff hide a message (``chat.services.hide``) and every open socket drops it."""
    with transaction.atomic():
        message = chat_services.hide(message_id, by)
        game_id = message.game_id
        cue = {"type": "chat.hidden", "game": game_id, "id": message_id}
        transaction.on_commit(lambda: broadcast.publish(game_id, cue))


def one(reader: Reader, message_id: Any) -> dict[str, Any] | None:
    if type(message_id) is not int:
        return None
    return chat_selectors.one(reader, message_id)


__all__ = ["ChatError", "hide", "history_frame", "mute", "one", "say", "set_spectators_apart"]
