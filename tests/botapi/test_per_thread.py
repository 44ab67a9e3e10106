"""botapi.per_thread: one object per thread, and the objects of ended threads are closed."""

from __future__ import annotations

import itertools
import threading

from botapi.per_thread import PerThread


class _Made:
    def __init__(self, number: int) -> None:
        self.number = number
        self.closed = False


def _per_thread() -> PerThread[_Made]:
    numbers = itertools.count()

    def close(made: _Made) -> None:
        made.closed = True

    return PerThread(lambda: _Made(next(numbers)), close)


def _in_thread(per_thread: PerThread[_Made]) -> _Made:
    got: list[_Made] = []
    thread = threading.Thread(target=lambda: got.extend([per_thread.get(), per_thread.get()]))
    thread.start()
    thread.join()
    assert got[0] is got[1], "a thread keeps its object"
    return got[0]


def test_each_thread_has_its_own_object() -> None:
    per_thread = _per_thread()
    mine = per_thread.get()
    assert per_thread.get() is mine
    other = _in_thread(per_thread)
    assert other is not mine
    assert not mine.closed


def test_an_ended_threads_object_is_closed_when_another_thread_comes() -> None:
    per_thread = _per_thread()
    mine = per_thread.get()
    first = _in_thread(per_thread)
    assert not first.closed, "nothing is closed until another thread makes an object"
    second = _in_thread(per_thread)
    assert first.closed
    assert not second.closed
    assert not mine.closed, "a live thread's object is kept"
    assert len(per_thread) == 2


def test_close_all_closes_every_object_and_starts_afresh() -> None:
    per_thread = _per_thread()
    mine = per_thread.get()
    other = _in_thread(per_thread)
    per_thread.close_all()
    assert mine.closed and other.closed
    assert len(per_thread) == 0
    fresh = per_thread.get()
    assert fresh is not mine and not fresh.closed
