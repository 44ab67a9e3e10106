"""Writes of table chat: say, choose the spectators' setting, mute, and staff's hiding.

Each refuses with ``ChatError`` (a code and a sentence) and changes nothing.
The web layer calls these and then tells the game's sockets (a cue they turn
into what each reader may see); nothing here knows sockets.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Competitor, Game

from . import selectors
from .models import Message, Mute, TableChat
from .selectors import MAX_CHARS, RATE_COUNT, RATE_WINDOW_S, ChatError, Reader

ALLOWED_CONTROLS = frozenset("\n")


def clean_text(text: Any) -> str:
    """The message to keep: a string, blanks stripped, 1..MAX_CHARS characters, no control codes.

    Line feeds stay (a message may have lines; ``\\r\\n`` becomes ``\\n``); any
    other control or format character (NUL, escape, bidirectional overrides
    that would turn the next messages around) is refused, not silently dropped.
    Markup is not refused: it is text, and pages show it as text.
    """
    if not isinstance(text, str):
        raise ChatError("bad_text", "a message is a string")
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise ChatError("empty", "the message is empty")
    if len(text) > MAX_CHARS:
        raise ChatError("too_long", f"a message is at most {MAX_CHARS} characters")
    for ch in text:
        if ch not in ALLOWED_CONTROLS and unicodedata.category(ch) in ("Cc", "Cf", "Cs"):
            raise ChatError("bad_text", f"the message holds a control character U+{ord(ch):04X}")
    return text


def say(game: Game, reader: Reader, text: Any) -> Message:
    """Keep what ``reader`` says at ``game``'s table; ChatError if they may not or say too much.

    At most RATE_COUNT messages in RATE_WINDOW_S seconds per person, over all
    tables: the person's row is locked while counting, so two sockets of one
    person cannot both slip the fifth message in.
    """
    selectors.check_post(game, reader)
    text = clean_text(text)
    with transaction.atomic():
        Competitor.objects.select_for_update().filter(pk=reader.person_id).first()
        now = timezone.now()
        since = now - timedelta(seconds=RATE_WINDOW_S)
        if selectors.recent_count(reader.person_id, since) >= RATE_COUNT:
            raise ChatError(
                "chat_rate_limited",
                f"at most {RATE_COUNT} messages in {RATE_WINDOW_S} seconds; wait a moment",
            )
        return Message.objects.create(
            game=game,
            author_id=reader.person_id,
            from_player=reader.is_player,
            text=text,
            created_at=now,
        )


def set_spectators_apart(game: Game, user: Any, apart: Any) -> TableChat:
    """The players' (or the creator's) choice for spectators' messages while the game runs."""
    if type(apart) is not bool:
        raise ChatError("bad_frame", "spectatorsApart must be true or false")
    if not selectors.may_set(game, user):
        raise ChatError("not_a_player", "only the game's players or its creator choose this")
    person = selectors.person_of(user)
    setting, _ = TableChat.objects.update_or_create(
        game=game, defaults={"spectators_apart": apart, "set_by": person}
    )
    return setting


def mute(muter_id: int | None, muted_id: Any, muted: Any) -> None:
    """``muter`` stops (``muted`` true) or starts again (false) seeing what ``muted_id`` writes."""
    if muter_id is None:
        raise ChatError("sign_in", "sign in to mute someone")
    if type(muted_id) is not int or type(muted) is not bool:
        raise ChatError("bad_frame", "a mute names an author id and muted true or false")
    if muted_id == muter_id:
        raise ChatError("bad_mute", "you cannot mute yourself")
    if not Competitor.objects.filter(pk=muted_id, kind=Competitor.Kind.PERSON).exists():
        raise ChatError("no_person", f"there is no person {muted_id}")
    if muted:
        Mute.objects.get_or_create(muter_id=muter_id, muted_id=muted_id)
    else:
        Mute.objects.filter(muter_id=muter_id, muted_id=muted_id).delete()


def hide(message_id: int, by: Any) -> Message:
    """Staff hide a message from everyone, recorded with who and when (twice keeps the first).

    A hidden message stays in the database and in the admin; no page or socket shows it.
    """
    if not getattr(by, "is_staff", False):
        raise ChatError("not_staff", "only staff may hide a message")
    with transaction.atomic():
        message = Message.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise ChatError("no_message", f"there is no message {message_id}")
        if message.hidden_at is None:
            message.hidden_at = timezone.now()
            message.hidden_by = by
            message.save(update_fields=["hidden_at", "hidden_by"])
    return message
