"""One object per live thread, for objects that must never be used by two threads.

:class:`botapi.client.BotClient` keeps its HTTP connection pool here
(decision 0029): httpcore's pool lets whichever thread runs its bookkeeping
close an idle connection that another thread has just been handed, so a pool
shared by a worker's threads can close a socket under a call in progress. A
pool that only ever one thread touches cannot.

Threads come and go (a test's threads, a web server's): the objects of threads
that have ended are closed when the next thread makes its own, so their
sockets do not wait for the garbage collector. Closing them from another
thread is safe because nothing uses them any more.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerThread(Generic[T]):
    """``make()`` once per thread, on the thread's first :meth:`get`; ``close(obj)`` at the end."""

    def __init__(self, make: Callable[[], T], close: Callable[[T], None]) -> None:
        self._make = make
        self._close = close
        self._objects: dict[threading.Thread, T] = {}
        self._lock = threading.Lock()

    def get(self) -> T:
        """The calling thread's object, made now if it has none."""
        thread = threading.current_thread()
        found = self._objects.get(thread)
        if found is not None:
            return found
        with self._lock:
            ended = [t for t in self._objects if t is not thread and not t.is_alive()]
            left_over = [self._objects.pop(t) for t in ended]
            made = self._objects[thread] = self._make()
        for obj in left_over:
            self._close(obj)
        return made

    def close_all(self) -> None:
        """Close every thread's object; a thread that uses this again gets a new one.

        For shutting down: an object still in use by its thread is closed under it.
        """
        with self._lock:
            objects = list(self._objects.values())
            self._objects.clear()
        for obj in objects:
            self._close(obj)

    def __len__(self) -> int:
        with self._lock:
            return len(self._objects)
