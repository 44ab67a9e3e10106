"""A signed-in page served from the page cache in two cache round trips (the session, then
one batch: ``web.cache.prefetch``, ``web.cache.signed_in``), with every check made as
before on what the batch read, and nothing of one request's batch left for another."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from people import services
from tests.factories import DEFAULT_PASSWORD, CompetitorFactory, UserFactory
from tests.foundation.test_pagecache import counting_cache_calls, hit
from tests.people.headers import header_of, signed_in
from web.cache import pagecache
from web.cache import prefetch as cache_prefetch

from .waiting_games import running_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("page_cache")]

PAGE = "/leaderboards/"
WARM = ["get", "get_many"]
"""A warm signed-in hit: Django's read of the session, then everything else at once."""


def warm(client: Client) -> None:
    """The page, the user, "may a game wait" and the header all in the cache."""
    for _ in range(2):
        client.get(PAGE)


def counted_get(client: Client, monkeypatch) -> tuple[object, list[str], int]:
    """``(response, cache operations, queries of the user table)`` of one request."""
    calls = counting_cache_calls(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(PAGE)
    monkeypatch.undo()
    return response, calls, sum('FROM "auth_user"' in q["sql"] for q in queries.captured_queries)


@pytest.fixture
def ann():
    return services.ensure_person(UserFactory(username="ann-pf", password=None)).user


def test_a_warm_signed_in_hit_is_two_round_trips_and_no_query(ann, monkeypatch) -> None:
    client = signed_in(ann)
    warm(client)
    calls = counting_cache_calls(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(PAGE)
    assert hit(page) and "ann-pf" in header_of(page) and "Sign out" in header_of(page)
    assert calls == WARM, "the session, then the user, seated, the header and the page at once"
    assert not queries.captured_queries


def test_a_page_a_visitor_stored_is_two_round_trips_too(ann, monkeypatch) -> None:
    Client().get(PAGE)  # stored by a visitor
    client = signed_in(ann)
    client.get(PAGE)  # the header kept
    page, calls, _ = counted_get(client, monkeypatch)
    assert hit(page) and "ann-pf" in header_of(page) and calls == WARM


def test_a_stale_user_is_read_again_then_batched(ann, monkeypatch) -> None:
    client = signed_in(ann)
    warm(client)
    ann.first_name = "Changed"
    ann.save()  # bumps the user's token
    page, calls, reads = counted_get(client, monkeypatch)
    assert hit(page) and reads == 1, "the stale user is never served from the batch"
    assert calls[:2] == WARM and "set" in calls  # read again and stored
    page, calls, reads = counted_get(client, monkeypatch)
    assert hit(page) and reads == 0 and calls == WARM


def test_a_new_name_or_staff_flag_gets_its_own_header_at_once(ann, monkeypatch) -> None:
    client = signed_in(ann)
    warm(client)
    ann.username = "ann-renamed-pf"
    ann.save()
    page = client.get(PAGE)
    assert "ann-renamed-pf" in header_of(page) and "ann-pf<" not in header_of(page)
    page, calls, _ = counted_get(client, monkeypatch)
    assert "ann-renamed-pf" in header_of(page) and calls == WARM  # kept again, new variant
    ann.is_staff = True
    ann.save()
    assert ">Admin<" in header_of(client.get(PAGE))
    page, calls, _ = counted_get(client, monkeypatch)
    assert ">Admin<" in header_of(page) and calls == WARM


def test_a_person_who_becomes_seated_gets_the_badge(ann, monkeypatch) -> None:
    client = signed_in(ann)
    warm(client)
    assert "Your move" not in header_of(client.get(PAGE))
    rivals = [CompetitorFactory(kind="person") for _ in range(2)]
    running_game([ann.profile.competitor, *rivals], mover=0, seed="prefetch")
    page = client.get(PAGE)
    assert hit(page) and "Your move" in header_of(page)
    page, calls, _ = counted_get(client, monkeypatch)
    assert "Your move" in header_of(page) and calls == WARM  # rendered, from the batch's answer


def test_a_deactivated_person_is_signed_out_even_when_their_row_is_in_the_batch(ann) -> None:
    client = signed_in(ann)
    warm(client)
    ann.is_active = False
    ann.save()
    client.get(PAGE)  # the inactive row read and stored under the new token
    with CaptureQueriesContext(connection) as queries:
        page = client.get(PAGE)
    assert not any('FROM "auth_user"' in q["sql"] for q in queries.captured_queries)
    assert "Sign in" in header_of(page) and "ann-pf" not in header_of(page)


def test_the_session_hash_is_checked_on_a_user_from_the_batch() -> None:
    UserFactory(username="pat-pf")
    before, after = Client(), Client()
    assert before.login(username="pat-pf", password=DEFAULT_PASSWORD)
    warm(before)
    user = get_user_model().objects.get(username="pat-pf")
    user.set_password("n3w-long-pass-phrase")
    user.save()
    assert after.login(username="pat-pf", password="n3w-long-pass-phrase")
    warm(after)  # the new row in the cache, current: the batch serves it
    with CaptureQueriesContext(connection) as queries:
        page = before.get(PAGE)
    assert not any('FROM "auth_user"' in q["sql"] for q in queries.captured_queries)
    assert "Sign in" in header_of(page), "signed out: the old session's hash no longer matches"
    assert "pat-pf" in header_of(after.get(PAGE))


def test_nothing_is_left_in_the_batch_after_a_request(ann, monkeypatch) -> None:
    client = signed_in(ann)
    warm(client)
    seen: list[object] = []
    real = pagecache._with_header

    def watching(request, stored):
        seen.append(cache_prefetch.current())
        return real(request, stored)

    monkeypatch.setattr(pagecache, "_with_header", watching)
    assert hit(client.get(PAGE))
    assert seen[0], "the header was composed from a batch"
    assert cache_prefetch.current() is None

    def failing(request, stored):
        raise RuntimeError("the header failed")

    monkeypatch.setattr(pagecache, "_with_header", failing)
    with pytest.raises(RuntimeError):
        client.get(PAGE)
    assert cache_prefetch.current() is None, "reset however the request ends"


def test_a_batch_is_this_context_s_alone_and_a_written_key_is_read_again() -> None:
    from django.core.cache import cache

    cache.set("prefetch-test", "old")
    with cache_prefetch.prefetched(["prefetch-test", "prefetch-missing"]):
        cache.set("prefetch-test", "new")
        assert cache_prefetch.get("prefetch-test") == "old"  # the snapshot
        assert cache_prefetch.get_many(["prefetch-missing"]) == {}
        other: list[object] = []
        thread = threading.Thread(target=lambda: other.append(cache_prefetch.current()))
        thread.start()
        thread.join()
        assert other == [None], "another thread never sees this batch"
        cache_prefetch.forget(["prefetch-test"])
        assert cache_prefetch.get("prefetch-test") == "new"
    assert cache_prefetch.current() is None
