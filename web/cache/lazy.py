"""``lazy(read)``: a value read only when a template uses it, so a fragment found in the cache
costs no query.

A view gives its template everything a ``{% cache %}`` fragment shows as lazy
values; when the fragment is found, they are never read. Django's
``SimpleLazyObject`` proxies attributes, iteration, ``len``, comparison and
truth, which is what templates do with lists and objects; numbers also go
through ``int``/``float`` (``pluralize``, ``floatformat``), which it does not
proxy, so they are added here.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from django.utils.functional import SimpleLazyObject, empty, new_method_proxy


class LazyValue(SimpleLazyObject):
    """``SimpleLazyObject`` that is also a number when its value is one."""

    __int__ = new_method_proxy(int)
    __float__ = new_method_proxy(float)
    __index__ = new_method_proxy(operator.index)
    __le__ = new_method_proxy(operator.le)
    __ge__ = new_method_proxy(operator.ge)

    def resolve(self) -> Any:
        """The value itself (read now if it was not): for a Jinja2 partial, which then
        reads it without the proxy's step per attribute."""
        if self._wrapped is empty:  # LazyObject's protocol for subclasses (_setup, _wrapped)
            self._setup()
        return self._wrapped


def resolved(value: Any) -> Any:
    """``value``, or what it stands for if it is a :class:`LazyValue`."""
    return value.resolve() if isinstance(value, LazyValue) else value


def lazy(read: Callable[[], Any]) -> Any:
    """``read()``'s value, read on first use."""
    return LazyValue(read)
