"""A versioned cache of the public result pages, for anonymous visitors only (issue #17).

Once the database work made every public page cost the same at any size, what
was left was the ORM building 20-50 rows and the templates rendering them on
every request. Most requests are anonymous and see the same bytes, so the
whole response is kept in Django's cache and served again until something it
shows changes.

*Keys.* A page's key is a hash of the method, the absolute URL (the API's
``next`` links are absolute) with its canonical query (:func:`canonical_query`)
and the request headers the page varies by (``Accept`` for the API); it is
stored with the *version* it was rendered at, a digest of the current tokens of
the page, and served only while those tokens are unchanged (tokens and page
read with one ``get_many``: one round trip to Redis). A write that changes what
pages show replaces a token (:func:`bump`, after the commit): every page stored
at the old version is never served again and is replaced by the next render or
expires after ``PAGECACHE_SECONDS`` (60 s by default), which is also the safety
net for a change that bumps nothing.

*Tokens.* A page names the tokens it depends on: :data:`RESULTS` (the game
lists), :data:`PEOPLE` (names and visibility, every page) and narrower ones, per
ladder, competitor and game, so a finished game empties only the pages that
show it. Which page reads which, and which write bumps which, is
:mod:`web.cache.tokens` (the names) and
``web.cache.bumps`` (the writes); this module knows no model.
All the bumps of one transaction are sent as one ``set_many`` after its commit
(:func:`bump_on_commit`).

*Who.* An anonymous GET/HEAD request is served the whole stored response. A
signed-in person's header shows their name, a sign-out form with a CSRF token
and the games waiting for them, so for them (on the pages that opt in:
``signed_in=True``, every ``@cached_page`` HTML page) only the page *around* the
site header is stored -- the bytes before ``<header class="site-header">`` and
after its ``</header>``, which on these pages are the same for everyone -- and
the header is rendered afresh for each request (:func:`site_header`). The
content outside the header is the same for a visitor too, so a signed-in
request is also served from the page a visitor stored (cut at the same marks);
a visitor is never served a page a signed-in request stored. The header
itself is kept too where the people app names it (:func:`site_header`), with
a fresh CSRF token per response. A signed-in hit costs two cache round trips:
the session, then one ``get_many`` of the user, the header and the page with
its tokens (:func:`_serve_signed_in`). A
response is stored only if rendering it left nothing session-dependent behind:
a 200, no cookie, no session change, no message read or added, no
``Cache-Control: private/no-store``, and no CSRF token: for an anonymous page
none used at all (``CSRF_COOKIE_NEEDS_UPDATE``); for a signed-in one none
outside the header (no ``csrfmiddlewaretoken`` in the stored parts). Requests
with an ``Authorization`` header (API tokens) are never cached.

*Fragments.* A page whose content is one person's (the bot owner's log) can
still keep its costly, person-independent sections with :func:`fragment`: a
string stored under the caller's key parts and the tokens it depends on.

*Where.* In Django's default cache: with ``REDIS_URL`` set that is Redis, shared
by every web process, so a bump in one process (or a worker finishing a
game) invalidates the pages of all; in the embedded mode (LocMemCache) tokens
and pages live in the one process's memory, which is also where every write
happens.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import logging
import re
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import get_script_prefix

from web.cache import prefetch as cache_prefetch

log = logging.getLogger(__name__)

RESULTS = "results"
PEOPLE = "people"
PUBLIC = (RESULTS, PEOPLE)
EVERYTHING = "everything"
"""Read with every key's tokens, bumped only by :func:`clear`."""
DEFAULT_SECONDS = 60
_TOKEN_PREFIX = "pagecache:token:"
_PAGE_PREFIX = "pagecache:page:"
_FRAGMENT_PREFIX = "pagecache:fragment:"
_HIT_HEADER = "X-Page-Cache"
HEADER_OPEN = b'<header class="site-header">'
HEADER_CLOSE = b"</header>"
_CSRF_FIELD = b"csrfmiddlewaretoken"
HEADER_TEMPLATE = "pagecache/header.html"
MAX_STREAMED_BYTES = 4 * 1024 * 1024
"""A streamed answer (a CSV export) longer than this is streamed on, not stored."""

QUERY_PARAMETERS = frozenset(
    {
        # Pages: a game's ``plies``; the lists' ``before`` cursor; ladders' and boards'
        # ``system``/``by``, ``kind``, ``page``; a competitor's filters (stats.filters).
        "plies", "before", "system", "by", "kind", "page",
        "engine", "tournament", "opponent", "rated",
        # The API's lists: their filters (``status``), DRF's format override and
        # the paginators' page size and cursor.
        "status", "format", "page_size", "cursor",
    }
)  # fmt: skip
"""Every query parameter that a cached page reads.

A request with any other parameter is rendered and not stored: each distinct
query string would otherwise be a page of its own in Redis (``?junk=1``,
``?junk=2`` ...), and the page cache cannot tell whether the view reads it. A
parameter a page starts to read and this set lacks costs that page its cache
hits, never a wrong page.
"""


def seconds() -> int:
    """How long a stored page lives at most (``settings.PAGECACHE_SECONDS``; 0: no cache)."""
    return int(getattr(settings, "PAGECACHE_SECONDS", DEFAULT_SECONDS))


def _new_token() -> str:
    return uuid.uuid4().hex


def tokens(names: Sequence[str]) -> list[str]:
    """The current tokens of ``names``, in order; a missing one is made (never reused).

    A token can disappear (the cache restarted or culled it): a fresh random
    one then replaces it, so pages stored under the lost one are never served.
    """
    keys = [_TOKEN_PREFIX + name for name in names]
    found = cache.get_many(keys)
    missing = [key for key in keys if key not in found]
    for key in missing:
        cache.add(key, _new_token(), timeout=None)
    if missing:
        found.update(cache.get_many(missing))
        cache_prefetch.forget(missing)
    return [str(found.get(key, "")) for key in keys]


def bump(*names: str) -> None:
    """Replace the tokens ``names`` now: every page depending on one is rendered afresh."""
    replaced = {_TOKEN_PREFIX + name: _new_token() for name in names}
    cache.set_many(replaced, timeout=None)
    cache_prefetch.forget(replaced)


Resolver = Callable[[], Iterable[str]]
"""Gives token names once the transaction committed (names that need a query to find)."""


class _Pending(threading.local):
    """The names (and resolvers) asked for by this thread's writes, not yet bumped."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.later: dict[Resolver, None] = {}


_pending = _Pending()


def bump_on_commit(*names: str, later: Resolver | None = None) -> None:
    """Bump ``names`` (and what ``later()`` gives) once the current transaction commits.

    After the commit, so no request can render and store the old data under
    the new token; at once outside a transaction. Every call of one
    transaction adds to one pending set, and the first callback to run after
    the commit bumps all of it with one ``set_many`` (the others find it
    empty): a finishing game's several writers cost one cache round trip.
    ``later`` runs then too (deduplicated by identity), for names that need a
    query (whose seats, whose bots). Names of a rolled-back transaction stay
    pending and go with the next commit's: a needless bump, never a missed one.
    """
    _pending.names.update(names)
    if later is not None:
        _pending.later[later] = None
    transaction.on_commit(_flush)


def _flush() -> None:
    if not _pending.names and not _pending.later:
        return
    names, later = _pending.names, list(_pending.later)
    _pending.names, _pending.later = set(), {}
    for resolve in later:
        try:
            names.update(resolve())
        except Exception:  # which pages it shows is unknown: empty them all (stale is worse)
            log.exception("page cache: could not find the tokens to bump; emptying every page")
            names.add(EVERYTHING)
    if names:
        bump(*sorted(names))


def discard_pending() -> None:
    """Forget bumps waiting for a commit that will never come (tests whose callbacks never run)."""
    _pending.names, _pending.later = set(), {}


def is_anonymous(request: HttpRequest) -> bool:
    """No signed-in user (session) and no API credentials on this request."""
    if request.META.get("HTTP_AUTHORIZATION"):
        return False
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


def cacheable_request(request: HttpRequest) -> bool:
    return request.method in ("GET", "HEAD") and is_anonymous(request)


def signed_in_request(request: HttpRequest) -> bool:
    """A GET/HEAD of a person signed in by their session (no ``Authorization`` header)."""
    if request.method not in ("GET", "HEAD") or request.META.get("HTTP_AUTHORIZATION"):
        return False
    user = getattr(request, "user", None)
    return user is not None and user.is_authenticated


def _digest(parts: Iterable[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _lookup(
    request: HttpRequest, names: Sequence[str], vary: Iterable[str], variants: Sequence[str]
) -> tuple[list[str], str, dict[str, Any]]:
    """``(keys, version, entries)`` of this request's page in each of ``variants``, in one
    cache round trip.

    A page is stored under its URL (and the headers it varies by, and the
    variant: "" the whole anonymous page, "signed-in" the parts around the
    header) with the *version* it was rendered at: a digest of the current
    tokens of ``names``. Tokens and pages are read with one ``get_many``, and a
    page is served only if its version is the tokens' now, so a bump retires it
    as a new key did, at the cost of one round trip to Redis instead of two
    (each about 0.2 ms of this process's CPU). ``entries`` maps each key to its
    stored value when that is current.
    """
    keys = _page_keys(request, vary, variants)
    version, entries = _read_versioned(keys, names)
    return keys, version, entries


def canonical_query(query_string: str) -> str | None:
    """The query as a page's key has it, or None when the page must not be stored.

    Decoded as Django's ``QueryDict`` decodes it and encoded again one way, its
    parameters in the order of their names (a name's repeated values keep their
    order, which ``getlist`` and ``get`` see), so ``?b=2&a=1``, ``?a=1&b=2`` and
    ``?a=%31&b=2`` are one page. None when it names a parameter outside
    :data:`QUERY_PARAMETERS`.
    """
    pairs = parse_qsl(query_string, keep_blank_values=True)
    if any(name not in QUERY_PARAMETERS for name, _ in pairs):
        return None
    return urlencode(sorted(pairs, key=lambda pair: pair[0]))


def _keyed_url(request: HttpRequest) -> str:
    """The absolute URL with the canonical query (the caller checked that there is one)."""
    base = request.build_absolute_uri().split("?", 1)[0]
    query = canonical_query(request.META.get("QUERY_STRING", "")) or ""
    return f"{base}?{query}" if query else base


def _page_keys(request: HttpRequest, vary: Iterable[str], variants: Sequence[str]) -> list[str]:
    parts = [request.method or "", _keyed_url(request)]
    parts += [f"{header}={request.headers.get(header, '')}" for header in vary]
    return [_PAGE_PREFIX + _digest([*parts, variant] if variant else parts) for variant in variants]


def _token_keys(names: Sequence[str]) -> list[str]:
    return [_TOKEN_PREFIX + name for name in [*names, EVERYTHING]]


def _read_versioned(keys: Sequence[str], names: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """``(version, entries)``: the current version of ``names``' tokens (and
    :data:`EVERYTHING`'s) and, of the values stored under ``keys`` as ``(version,
    value)``, those stored at that version; all read with one ``get_many`` (or
    from a signed-in request's batch, :mod:`web.cache.prefetch`)."""
    token_keys = _token_keys(names)
    found = cache_prefetch.get_many([*token_keys, *keys])
    if all(key in found for key in token_keys):
        current = [str(found[key]) for key in token_keys]
    else:  # a token lost or never made: made now (a second round trip, rarely)
        current = tokens([*names, EVERYTHING])
    version = _digest(current)
    entries = {}
    for key in keys:
        entry = found.get(key)
        if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == version:
            entries[key] = entry[1]
    return version, entries


def storable(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether ``response`` is the same for every anonymous visitor of this URL.

    Anything the session or the CSRF machinery put into it, or will add to it
    on the way out, makes it one visitor's.
    """
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    cache_control = response.get("Cache-Control", "")
    if "private" in cache_control or "no-store" in cache_control:
        return False
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):  # a CSRF token was put in the page
        return False
    session = getattr(request, "session", None)
    if session is not None and session.modified:
        return False
    messages = getattr(request, "_messages", None)
    return messages is None or not (messages.used or messages._queued_messages)


def _freeze(response: HttpResponseBase) -> tuple[int, list[tuple[str, str]], bytes]:
    headers = [(k, v) for k, v in response.items() if k.lower() != _HIT_HEADER.lower()]
    return response.status_code, headers, response.content


def _thaw(stored: tuple[int, list[tuple[str, str]], bytes]) -> HttpResponse:
    status, headers, content = stored
    response = HttpResponse(content, status=status)
    for name, value in headers:
        response[name] = value
    response[_HIT_HEADER] = "hit"
    return response


def _buffered(response: HttpResponseBase) -> HttpResponseBase:
    """A streamed answer read into an ordinary one (so it can be stored), if it is short.

    One longer than :data:`MAX_STREAMED_BYTES` is streamed on: what was read first,
    then the rest, never stored.
    """
    if not response.streaming:
        return response
    chunks: list[bytes] = []
    size = 0
    stream = iter(response.streaming_content)
    for chunk in stream:
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_STREAMED_BYTES:
            streamed = StreamingHttpResponse(
                itertools.chain(chunks, stream), status=response.status_code
            )
            for name, value in response.items():
                streamed[name] = value
            return streamed
    whole = HttpResponse(b"".join(chunks), status=response.status_code)
    for name, value in response.items():
        whole[name] = value
    return whole


HeaderVariant = Callable[[HttpRequest], "tuple[str, str] | None"]
"""``(owner, variant)`` of a signed-in request's header, or None when it must be rendered:
whose header it is (kept under :func:`header_key` of it) and everything it shows."""

SignedInKeys = Callable[[HttpRequest], Sequence[str]]
"""The cache keys a signed-in request will read besides its page, named before its user
is read (from the session alone); empty when the session holds no one."""

_header_variant: HeaderVariant | None = None
_signed_in_keys: SignedInKeys | None = None
_HEADER_PREFIX = "pagecache:header:"
_CSRF_VALUE = re.compile(rb'(name="csrfmiddlewaretoken" value=")([^"]*)(")')
_CSRF_PLACEHOLDER = b"\x00csrf-token\x00"  # no template can write a NUL byte


def register_header_variant(variant: HeaderVariant) -> None:
    """Let :func:`site_header` keep headers under what ``variant`` names (``people``'s ready).

    ``variant(request)`` gives ``(owner, variant)``: whose header it is (one kept
    header per owner) and a name of *everything* the header shows for this
    request except its CSRF token (the person, their name and staff flag, that
    no game can be waiting for them); or None to have it rendered. This module
    knows no model, so the app that knows the person says it.
    """
    global _header_variant
    _header_variant = variant


def register_signed_in_keys(keys: SignedInKeys) -> None:
    """Let a signed-in request read ``keys(request)`` with its page, in one round trip.

    Called once the session is read (``people``'s ready names the user's, "may a
    game wait"'s and the kept header's entries, by the session's user id): the
    page cache reads them with the page and its tokens in one ``get_many``
    (:mod:`web.cache.prefetch`) before the user is read, and every
    reader of those keys answers from that batch.
    """
    global _signed_in_keys
    _signed_in_keys = keys


def signed_in_keys(request: HttpRequest) -> list[str]:
    """The registered :data:`SignedInKeys` of this request (none registered: none), for a view
    that reads them in a batch of its own (``web.cache.prefetch``)."""
    return list(_signed_in_keys(request)) if _signed_in_keys is not None else []


def header_key(owner: str) -> str:
    """The cache key of ``owner``'s kept header (see :func:`site_header`)."""
    return _HEADER_PREFIX + _digest([owner, get_script_prefix()])


def site_header(request: HttpRequest) -> bytes:
    """The site header as ``base.html`` renders it for this request (name, badge, CSRF).

    A signed-in person's header is the same on every page but for its sign-out
    form's masked CSRF token, and rendering it was most of a cached signed-in
    page's cost (the header template's tags and lookups). So where the
    registered variant names it, it is kept with the token's value left out
    and served with a freshly masked token for this request (``get_token``,
    which is what ``{% csrf_token %}`` writes), byte for byte the render's
    otherwise. It is kept under its owner (so it can be read with the page
    before the person is: :data:`SignedInKeys`) beside the variant it was
    rendered for, and served only to a request of that same variant; a new
    name or staff flag renders it again.
    """
    named = _header_variant(request) if _header_variant is not None else None
    if named is None or seconds() <= 0:
        return _render_header(request)
    owner, variant = named
    key = header_key(owner)
    stored = cache_prefetch.get(key)
    if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == variant:
        return stored[1].replace(_CSRF_PLACEHOLDER, get_token(request).encode())
    header = _render_header(request)
    kept, slots = _CSRF_VALUE.subn(lambda m: m[1] + _CSRF_PLACEHOLDER + m[3], header)
    if slots != 1:  # not the one sign-out form this expects: never keep it
        return header
    cache.set(key, (variant, kept), timeout=seconds())
    cache_prefetch.forget([key])
    return header


def _render_header(request: HttpRequest) -> bytes:
    page = render_to_string(HEADER_TEMPLATE, request=request).encode()
    start = page.find(HEADER_OPEN)
    end = page.find(HEADER_CLOSE, start)
    return page[start : end + len(HEADER_CLOSE)]


def around_header(request: HttpRequest, response: HttpResponseBase) -> tuple | None:
    """``(status, headers, before, after)``: a signed-in page without its header, to store.

    None when any of it may be this person's: a CSRF token outside the header,
    anything :func:`storable` refuses (but the CSRF flag, which the header's
    sign-out form always raises), or no site header to cut out.
    """
    cache_control = response.get("Cache-Control", "")
    if "private" in cache_control or "no-store" in cache_control:
        return None
    parts = _cut_response(request, response)
    if parts is None or _CSRF_FIELD in parts[2] or _CSRF_FIELD in parts[3]:
        return None
    return parts


def _cut_response(request: HttpRequest, response: HttpResponseBase) -> tuple | None:
    """``(status, headers, before, after)`` of a rendered page around its site header; None
    if the response is not a plain 200 or set anything of this request's alone (a cookie,
    the session, a message used or added), or has no site header."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return None
    session = getattr(request, "session", None)
    if session is not None and session.modified:
        return None
    messages = getattr(request, "_messages", None)
    if messages is not None and (messages.used or messages._queued_messages):
        return None
    content = response.content
    start = content.find(HEADER_OPEN)
    end = content.find(HEADER_CLOSE, start) if start >= 0 else -1
    if end < 0:
        return None
    status, headers, _ = _freeze(response)
    return status, headers, content[:start], content[end + len(HEADER_CLOSE) :]


def _with_header(request: HttpRequest, stored: tuple) -> HttpResponse:
    status, headers, before, after = stored
    return _thaw((status, headers, before + site_header(request) + after))


_MADE_OF_PREFIX = "pagecache:made-of:"


def made_of(
    request: HttpRequest, inputs: Sequence[str], render: Callable[[], HttpResponseBase]
) -> HttpResponseBase:
    """A signed-in person's own page, stored under a digest of everything it is made of.

    For a page only its viewer may see (a bot's owner's log), whose view has
    already checked that they may, and which is rendered from values the view
    has at hand anyway (rendered fragments, rows kept in the cache): ``inputs``
    must hold every value the page shows outside the site header, its CSRF
    tokens and its messages -- the viewer's id among them. The same inputs
    make the same bytes, so no token is needed: any change is a new key. The
    page is kept around its header (spliced per request, :func:`site_header`)
    with its CSRF tokens' values left out (a freshly masked token put back in
    each response); a request with a message to show is rendered, never served
    from or stored in the cache.
    """
    if seconds() <= 0 or _messages_pending(request):
        return render()
    framed = b"".join(b"%d:%s" % (len(data), data) for data in (i.encode() for i in inputs))
    key = _MADE_OF_PREFIX + hashlib.sha256(framed).hexdigest()
    stored = cache.get(key)
    if isinstance(stored, tuple) and len(stored) == 4:
        status, headers, before, after = stored
        token = get_token(request).encode()
        before, after = (
            before.replace(_CSRF_PLACEHOLDER, token),
            after.replace(_CSRF_PLACEHOLDER, token),
        )
        return _with_header(request, (status, headers, before, after))
    response = render()
    parts = _own_page_parts(request, response)
    if parts is not None:
        cache.set(key, parts, timeout=seconds())
    response[_HIT_HEADER] = "miss"
    return response


def _messages_pending(request: HttpRequest) -> bool:
    storage = getattr(request, "_messages", None)
    return storage is not None and len(storage) > 0


def _own_page_parts(request: HttpRequest, response: HttpResponseBase) -> tuple | None:
    """:func:`_cut_response`'s parts of a person's own page for :func:`made_of`, its CSRF
    tokens' values left out."""
    parts = _cut_response(request, response)
    if parts is None:
        return None
    status, headers, before, after = parts

    def kept(part: bytes) -> bytes:
        return _CSRF_VALUE.sub(lambda m: m[1] + _CSRF_PLACEHOLDER + m[3], part)

    return status, headers, kept(before), kept(after)


def _after_render(response: HttpResponseBase, store: Callable[[HttpResponseBase], None]) -> None:
    """Call ``store`` with the rendered response: now, or once a lazy response renders."""
    response[_HIT_HEADER] = "miss"
    if callable(getattr(response, "add_post_render_callback", None)) and not getattr(
        response, "is_rendered", True
    ):
        response.add_post_render_callback(store)  # a TemplateResponse or DRF's Response
    else:
        store(response)


def serve(
    request: HttpRequest,
    render: Callable[[], HttpResponseBase],
    names: Sequence[str] = PUBLIC,
    vary: Iterable[str] = (),
    signed_in: bool = False,
) -> HttpResponseBase:
    """The stored page for an anonymous request, else ``render()``'s, stored if storable.

    ``signed_in``: the page is the same for every signed-in person but for the site
    header, so theirs is served from the parts around it (:func:`around_header`).
    """
    if seconds() <= 0 or canonical_query(request.META.get("QUERY_STRING", "")) is None:
        return render()
    vary = tuple(vary)
    if signed_in and _by_session(request):
        served = _serve_signed_in(request, render, names, vary)
        if served is not None:
            return served
    if not cacheable_request(request):
        return render()
    [key], version, entries = _lookup(request, names, vary, [""])
    if key in entries:
        return _thaw(entries[key])
    csrf_before = request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    response = _buffered(render())

    def store(rendered: HttpResponseBase) -> None:
        if not csrf_before and storable(request, rendered):
            cache.set(key, (version, _freeze(rendered)), timeout=seconds())

    _after_render(response, store)
    return response


def _by_session(request: HttpRequest) -> bool:
    """A GET/HEAD that only a session can sign in (no ``Authorization`` header)."""
    return request.method in ("GET", "HEAD") and not request.META.get("HTTP_AUTHORIZATION")


def _serve_signed_in(
    request: HttpRequest,
    render: Callable[[], HttpResponseBase],
    names: Sequence[str],
    vary: tuple[str, ...],
) -> HttpResponseBase | None:
    """The signed-in parts, else the anonymous page cut around its header, else a render;
    None when the request is not signed in after all (served as an anonymous one).

    The content outside the header is the same for a visitor and for anyone signed
    in (module docstring; a test compares the two renders of every cached page),
    so a page an anonymous request stored serves signed-in people too: on a busy
    site most pages are stored by visitors first.

    Two cache round trips in all when it is served: Django's read of the
    session, then one ``get_many`` of everything else the request reads -- the
    user, "may a game wait", the kept header (the registered
    :data:`SignedInKeys`, named by the session's user id), the page in both
    variants and its tokens -- made before the user is read, so that Django's
    user read (and its checks: the session's hash, ``is_active``), the
    versioned reads and the header answer from it
    (:mod:`web.cache.prefetch`). The batch ends before the view is
    called (a miss renders without it).
    """
    person = signed_in_keys(request)
    page_keys = _page_keys(request, vary, ["signed-in", ""])
    batch = [*person, *_token_keys(names), *page_keys] if person else []
    with cache_prefetch.prefetched(batch):
        if not signed_in_request(request):
            return None
        key, anonymous_key = page_keys
        version, entries = _read_versioned(page_keys, names)
        stored = entries.get(key)
        if stored is None and anonymous_key in entries:
            stored = _cut(entries[anonymous_key])
        if stored is not None:
            return _with_header(request, stored)
    response = render()

    def store(rendered: HttpResponseBase) -> None:
        parts = around_header(request, rendered)
        if parts is not None:
            cache.set(key, (version, parts), timeout=seconds())

    _after_render(response, store)
    return response


def _cut(stored: tuple[int, list[tuple[str, str]], bytes]) -> tuple | None:
    """A stored anonymous page as the signed-in parts ``(status, headers, before, after)``."""
    status, headers, content = stored
    start = content.find(HEADER_OPEN)
    end = content.find(HEADER_CLOSE, start) if start >= 0 else -1
    if end < 0:
        return None
    return status, headers, content[:start], content[end + len(HEADER_CLOSE) :]


def cached_page(
    *names: str,
    depends: Callable[..., Sequence[str]] | None = None,
    vary: Iterable[str] = (),
    signed_in: bool = True,
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """View decorator: :func:`serve` the view's page under the tokens ``names`` (default both).

    ``depends``: instead of ``names``, a function of the view's request and
    arguments giving them (a competitor's page depends on that competitor's
    token, named from the URL so that no query runs before the cache is read).
    ``signed_in`` (the default): the page's content is nobody's in particular, so a
    signed-in person gets it from the cache too, with their own header.
    """
    fixed = names or PUBLIC

    def decorator(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            tokens_of = depends(request, *args, **kwargs) if depends is not None else fixed
            return serve(
                request, lambda: view(request, *args, **kwargs), tokens_of, vary, signed_in
            )

        return wrapped

    return decorator


def fragment(
    parts: Sequence[str],
    names: Sequence[str],
    render: Callable[[], str],
    marker: Callable[[], str] | None = None,
) -> str:
    """The text ``render()`` gives, stored under ``parts`` and the current tokens of ``names``.

    For a section of a page that cannot be stored whole (its owner's forms); the
    caller puts into ``parts`` everything the section depends on besides the
    tokens (the object, the query string).

    ``marker``: what the section depends on that moves between bumps (a bot's
    games in play and their ply counts), read from the database and made part
    of the key. It must read ``""`` when quiet, and once quiet stay quiet until
    one of ``names``' tokens is bumped (a bot plays only in a game created
    after it was quiet, and creating a game bumps its token). Then a quiet
    reading is remembered at the tokens' version, read before the marker, and
    while the version holds the section is served without reading the marker
    at all: one cache round trip, no query, as for a section without one.
    """
    if seconds() <= 0:
        return render()
    if marker is None:
        return _fragment(_FRAGMENT_PREFIX + _digest(parts), names, render)
    quiet_flag = _FRAGMENT_PREFIX + "quiet:" + _digest(parts)
    quiet_key = _FRAGMENT_PREFIX + _digest([*parts, ""])
    version, entries = _read_versioned([quiet_flag, quiet_key], names)  # one round trip
    if quiet_flag not in entries:
        moved = marker()  # after the version was read: a bump since then changes the version
        if moved:
            return _fragment(_FRAGMENT_PREFIX + _digest([*parts, moved]), names, render)
        cache.set(quiet_flag, (version, True), timeout=seconds())
    if quiet_key in entries:
        return str(entries[quiet_key])
    return _rendered_fragment(quiet_key, version, render)


def _fragment(key: str, names: Sequence[str], render: Callable[[], str]) -> str:
    version, entries = _read_versioned([key], names)  # one round trip, as a page's
    if key in entries:
        return str(entries[key])
    return _rendered_fragment(key, version, render)


def _rendered_fragment(key: str, version: str, render: Callable[[], str]) -> str:
    """``render()``'s text, stored under ``key`` at ``version``."""
    text = render()
    cache.set(key, (version, text), timeout=seconds())
    return text


def clear() -> None:
    """Make every stored page and fragment unreachable (tests, the bench).

    Every stored version includes the :data:`EVERYTHING` token besides the page's
    own, so replacing it retires them all, whatever narrow tokens they depend on.
    """
    discard_pending()
    bump(EVERYTHING)
