"""Reads of table chat: who reads, what they may see, and the checks the services make.

The one visibility rule lives in :func:`visible`: a message is shown unless
staff hid it, the reader muted its author, or -- while the game runs and its
players chose ``spectators_apart`` -- it is a spectator's and the reader holds
a seat. The same query answers the history a socket gets on connecting and
each new message it is told about, so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from games.models import Competitor, Game, Seat
from people.models import Profile

from .models import Message, Mute, TableChat

MAX_CHARS = 500
"""The longest message, in characters, after surrounding blanks are stripped."""

RATE_COUNT = 5
"""A person may send at most this many messages ..."""

RATE_WINDOW_S = 10
"""... in any this many seconds (counted over all tables)."""

HISTORY = 200
"""The newest messages a socket gets on connecting; older ones stay in the database."""


class ChatError(Exception):
    """A refused chat request; nothing was changed. ``code`` is stable for the page."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class Reader:
    """Who reads a game's chat: their person (None when signed out) and whether they play."""

    game_id: int
    person_id: int | None
    is_player: bool
    user_id: int | None = None


def person_of(user: Any) -> Competitor | None:
    """The user's person competitor, if they are signed in and have one yet."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    profile = Profile.objects.filter(user_id=user.pk).select_related("competitor").first()
    if profile is not None:
        return profile.competitor
    # An account made outside sign-up may hold seats through a person without a profile.
    return (
        Competitor.objects.filter(kind=Competitor.Kind.PERSON, user_id=user.pk)
        .order_by("pk")
        .first()
    )


def holds_seat(game_id: int, user: Any) -> bool:
    """Whether the user plays the game through a person of theirs (as the play socket decides)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return Seat.objects.filter(
        game_id=game_id, competitor__kind=Competitor.Kind.PERSON, competitor__user_id=user.pk
    ).exists()


def reader_for(game_id: int, user: Any) -> Reader:
    person = person_of(user)
    return Reader(
        game_id=game_id,
        person_id=person.pk if person is not None else None,
        is_player=holds_seat(game_id, user),
        user_id=user.pk if getattr(user, "is_authenticated", False) else None,
    )


def spectators_apart(game_id: int) -> bool:
    """The players' choice: spectators' messages shown to spectators only while the game runs."""
    return TableChat.objects.filter(game_id=game_id, spectators_apart=True).exists()


def may_set(game: Game, user: Any) -> bool:
    """Who chooses the setting: the game's players and the user who asked for the game."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return game.created_by_id == user.pk or holds_seat(game.pk, user)


def may_post(game: Game, reader: Reader) -> bool:
    """Anyone signed in while the game runs; after it, its players only (the chat stays theirs)."""
    if reader.person_id is None:
        return False
    if game.status in (Game.Status.SCHEDULED, Game.Status.RUNNING):
        return True
    return reader.is_player


def check_post(game: Game, reader: Reader) -> None:
    """Raise ChatError unless ``reader`` may write at this table now."""
    if reader.person_id is None:
        raise ChatError("sign_in", "sign in to write in the table chat")
    if not may_post(game, reader):
        raise ChatError("chat_closed", f"the game is {game.status}: only its players write now")


def visible(reader: Reader) -> QuerySet[Message]:
    """The game's messages ``reader`` may see (any order)."""
    messages = Message.objects.filter(game_id=reader.game_id, hidden_at__isnull=True)
    if reader.person_id is not None:
        muted = Mute.objects.filter(muter_id=reader.person_id).values("muted_id")
        messages = messages.exclude(author_id__in=muted)
    if reader.is_player and spectators_apart(reader.game_id):
        running = Game.objects.filter(pk=reader.game_id, status=Game.Status.RUNNING).exists()
        if running:
            messages = messages.exclude(from_player=False)
    return messages


def history(reader: Reader, limit: int = HISTORY) -> list[dict[str, Any]]:
    """The newest ``limit`` messages ``reader`` may see, oldest first, as the socket sends them."""
    newest = visible(reader).select_related("author").order_by("-id")[:limit]
    return [as_dict(m) for m in reversed(list(newest))]


def one(reader: Reader, message_id: int) -> dict[str, Any] | None:
    """Message ``message_id`` as ``reader`` is shown it, or None if they may not see it."""
    found = visible(reader).select_related("author").filter(pk=message_id).first()
    return as_dict(found) if found is not None else None


def muted_by(person_id: int | None) -> list[int]:
    if person_id is None:
        return []
    return sorted(Mute.objects.filter(muter_id=person_id).values_list("muted_id", flat=True))


def recent_count(person_id: int, since: Any) -> int:
    """How many messages the person wrote since ``since``, at any table (the rate limit's count)."""
    return Message.objects.filter(author_id=person_id, created_at__gte=since).count()


def as_dict(message: Message) -> dict[str, Any]:
    """A message as pages receive it: the text as typed (the page shows it as text, escaped)."""
    return {
        "id": message.pk,
        "author": message.author.name,
        "authorId": message.author_id,
        "player": message.from_player,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }
