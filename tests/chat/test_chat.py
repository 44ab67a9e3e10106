"""Table chat's services and selectors: text, limits, mutes, hiding and the spectators' rule."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from botapi.services.pull import pending_turns
from chat import selectors, services
from chat.models import Message
from chat.selectors import MAX_CHARS, RATE_COUNT, RATE_WINDOW_S, ChatError
from games.models import Competitor, Game
from games.referee import steps as referee
from games.services import create_game
from people.services import ensure_person
from tests.factories import BotFactory, UserFactory

pytestmark = pytest.mark.django_db


def person(name: str) -> Competitor:
    user = get_user_model().objects.create(username=name)
    return ensure_person(user).competitor


def table(status: str = Game.Status.RUNNING) -> tuple[Game, list[Competitor], Competitor]:
    """A Manila game of three people (status forced) and one spectator."""
    players = [person(f"p{i}") for i in range(3)]
    game = create_game("manila", players, seed="chat")
    Game.objects.filter(pk=game.pk).update(status=status)
    game.refresh_from_db()
    return game, players, person("watcher")


def reader(game: Game, who: Competitor) -> selectors.Reader:
    return selectors.reader_for(game.pk, who.user)


def texts(game: Game, who: Competitor | None) -> list[str]:
    r = selectors.reader_for(game.pk, who.user if who else None)
    return [m["text"] for m in selectors.history(r)]


def test_a_message_is_kept_as_typed_markup_included_and_every_reader_gets_the_same_text() -> None:
    game, players, watcher = table()
    typed = '  <script>alert("x")</script> & <b>bold</b>\r\nline two  '
    services.say(game, reader(game, players[0]), typed)
    kept = '<script>alert("x")</script> & <b>bold</b>\nline two'
    assert Message.objects.get().text == kept
    for who in (*players, watcher, None):
        assert texts(game, who) == [kept]  # text, never pre-escaped HTML: the page escapes it
    shown = selectors.history(reader(game, watcher))[0]
    assert shown["author"] == "p0" and shown["player"] is True


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("   \n ", "empty"),
        ("x" * (MAX_CHARS + 1), "too_long"),
        ("bell\x07", "bad_text"),
        ("turn \u202eit around", "bad_text"),
        (42, "bad_text"),
        (None, "bad_text"),
    ],
)
def test_bad_text_is_refused_and_nothing_is_kept(text, code) -> None:
    game, players, _ = table()
    with pytest.raises(ChatError) as refused:
        services.say(game, reader(game, players[0]), text)
    assert refused.value.code == code and refused.value.detail
    assert not Message.objects.exists()


def test_the_longest_message_is_accepted() -> None:
    game, players, _ = table()
    services.say(game, reader(game, players[0]), "é" * MAX_CHARS)
    assert len(Message.objects.get().text) == MAX_CHARS


def test_the_rate_limit_counts_a_persons_messages_at_every_table_over_the_window() -> None:
    game, players, _ = table()
    other, _, _ = table_for_same(players)
    me = players[0]
    for i in range(RATE_COUNT - 1):
        services.say(game, reader(game, me), f"m{i}")
    services.say(other, reader(other, me), "at another table")
    with pytest.raises(ChatError) as refused:
        services.say(game, reader(game, me), "one too many")
    assert refused.value.code == "chat_rate_limited"
    assert Message.objects.filter(author=me).count() == RATE_COUNT
    services.say(game, reader(game, players[1]), "someone else may still talk")
    # Once the window has passed, the person may write again.
    Message.objects.filter(author=me).update(
        created_at=Message.objects.get(text="m0").created_at - timedelta(seconds=RATE_WINDOW_S + 1)
    )
    services.say(game, reader(game, me), "later")


def table_for_same(players: list[Competitor]) -> tuple[Game, list[Competitor], None]:
    game = create_game("manila", players, seed="chat-2")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.RUNNING)
    game.refresh_from_db()
    return game, players, None


def test_a_mute_hides_an_author_from_the_muter_only_and_can_be_undone() -> None:
    game, players, watcher = table()
    services.say(game, reader(game, watcher), "spam")
    services.say(game, reader(game, players[1]), "hello")
    services.mute(players[0].pk, watcher.pk, True)
    assert texts(game, players[0]) == ["hello"]
    assert texts(game, players[1]) == ["spam", "hello"]
    assert selectors.one(reader(game, players[0]), Message.objects.get(text="spam").pk) is None
    services.mute(players[0].pk, watcher.pk, False)
    assert texts(game, players[0]) == ["spam", "hello"]


@pytest.mark.parametrize(
    ("muter", "muted", "flag", "code"),
    [(None, 1, True, "sign_in"), ("self", "self", True, "bad_mute"), ("me", "x", True, "bad_frame"),
     ("me", 999_999, True, "no_person"), ("me", "other", "yes", "bad_frame")],
)  # fmt: skip
def test_bad_mutes_are_refused(muter, muted, flag, code) -> None:
    _game, players, watcher = table()
    ids = {"self": players[0].pk, "me": players[0].pk, "other": watcher.pk}
    with pytest.raises(ChatError) as refused:
        services.mute(ids.get(muter, muter), ids.get(muted, muted), flag)
    assert refused.value.code == code


def test_staff_hide_a_message_from_everyone_recorded_with_who_and_when() -> None:
    game, players, watcher = table()
    services.say(game, reader(game, players[0]), "rude")
    services.say(game, reader(game, players[1]), "fine")
    message = Message.objects.get(text="rude")
    with pytest.raises(ChatError) as refused:
        services.hide(message.pk, players[1].user)
    assert refused.value.code == "not_staff"
    staff = get_user_model().objects.create(username="staff", is_staff=True)
    services.hide(message.pk, staff)
    message.refresh_from_db()
    assert message.hidden_by == staff and message.hidden_at is not None
    first = message.hidden_at
    for who in (*players, watcher, None):
        assert texts(game, who) == ["fine"]
    services.hide(message.pk, get_user_model().objects.create(username="s2", is_staff=True))
    message.refresh_from_db()
    assert message.hidden_by == staff and message.hidden_at == first


def test_spectators_apart_while_the_game_runs_and_everything_for_its_players_after() -> None:
    game, players, watcher = table()
    services.say(game, reader(game, watcher), "they will never find it")
    services.say(game, reader(game, players[0]), "good luck all")
    assert texts(game, players[1]) == ["they will never find it", "good luck all"]  # default

    with pytest.raises(ChatError):
        services.set_spectators_apart(game, watcher.user, True)  # not theirs to choose
    services.set_spectators_apart(game, players[2].user, True)
    assert texts(game, players[1]) == ["good luck all"]
    assert texts(game, watcher) == ["they will never find it", "good luck all"]
    assert texts(game, None) == ["they will never find it", "good luck all"]

    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    assert texts(game, players[1]) == ["they will never find it", "good luck all"]


def test_the_creator_may_choose_the_setting_without_a_seat() -> None:
    game, _, watcher = table()
    Game.objects.filter(pk=game.pk).update(created_by=watcher.user)
    game.refresh_from_db()
    services.set_spectators_apart(game, watcher.user, True)
    assert selectors.spectators_apart(game.pk)


def test_after_the_game_only_its_players_write_and_the_chat_stays_with_the_game() -> None:
    game, players, watcher = table()
    services.say(game, reader(game, players[0]), "gl")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    services.say(game, reader(game, players[1]), "gg")
    with pytest.raises(ChatError) as refused:
        services.say(game, reader(game, watcher), "nice game")
    assert refused.value.code == "chat_closed"
    with pytest.raises(ChatError) as anonymous:
        services.say(game, selectors.reader_for(game.pk, None), "hi")
    assert anonymous.value.code == "sign_in"
    assert texts(game, players[2]) == ["gl", "gg"]


@pytest.mark.usefixtures("eager_referee")
def test_bots_are_never_sent_the_chat() -> None:
    bot = BotFactory(mode="pull", endpoint_url="")
    people = [person("alice"), person("bob")]
    game = create_game("manila", [bot.competitor, *people], seed="chat-bots", rated=False)
    referee.advance(game.pk)  # the deal; then seat 0, the bot, opens the auction
    game.refresh_from_db()
    marker = "SECRET-TABLE-TALK-7f3a"
    services.say(game, reader(game, people[0]), marker)
    services.say(game, reader(game, person("fan")), marker + " from a spectator")
    turns = pending_turns(bot)
    assert turns, "the pull bot is to move at the start"
    assert marker not in json.dumps(turns)
    assert "chat" not in json.dumps(turns).lower()


def test_staff_hide_messages_from_the_admin_and_the_page_escapes_them() -> None:
    game, players, _ = table()
    services.say(game, reader(game, players[0]), "<script>rude()</script>")
    message = Message.objects.get()
    staff = UserFactory(username="staff", admin=True, password=None)
    client = Client()
    client.force_login(staff)
    listing = client.get("/admin/chat/message/").content.decode()
    assert "&lt;script&gt;rude()&lt;/script&gt;" in listing and "<script>rude()" not in listing
    assert client.get("/admin/chat/message/add/").status_code == 403
    answer = client.post(
        "/admin/chat/message/",
        {"action": "hide_messages", "_selected_action": [message.pk]},
        follow=True,
    )
    assert answer.status_code == 200 and "1 message(s) hidden" in answer.content.decode()
    message.refresh_from_db()
    assert message.hidden_by == staff and message.hidden_at is not None
    assert texts(game, players[1]) == []
