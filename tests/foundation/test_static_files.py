"""Static files are answered in front of Django by ServeStatic, on the event loop.

With DEBUG off, a real uvicorn serves what ``collectstatic`` wrote (hashed,
compressed names, as the Dockerfile builds them); with DEBUG on (the demo, the
tests) the source files are found by the staticfiles finders. Either way the
answer never enters Django's handler, whose streaming of a synchronous file
iterator warned on every response ("StreamingHttpResponse must consume
synchronous iterators") and hopped to a thread for every chunk.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.conf import settings

from tests.foundation.processes import clean_env, run_python
from tests.foundation.servers import Server, start_server
from web.http import static_files

SITE_CSS = Path(settings.BASE_DIR) / "static" / "css" / "site.css"
TEN_YEARS = "max-age=315360000"


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``collectstatic`` with DEBUG off (hashed and compressed files) into a folder of its own."""
    root = tmp_path_factory.mktemp("staticfiles")
    environ = clean_env(
        DJANGO_SETTINGS_MODULE="tests.foundation.static_server_settings",
        HM_TEST_STATIC_ROOT=str(root),
        DEBUG="0",
        SECRET_KEY="static-files-test-only-not-a-real-secret-key-0123456789",
    )
    done = run_python(["manage.py", "collectstatic", "--noinput", "--verbosity", "0"], environ)
    assert done.returncode == 0, done.stderr
    return root


@pytest.fixture(scope="module")
def server(collected: Path, tmp_path_factory: pytest.TempPathFactory):
    """uvicorn as docker-compose runs it (DEBUG off), serving the collected files."""
    environ = clean_env(
        DJANGO_SETTINGS_MODULE="tests.foundation.static_server_settings",
        HM_TEST_STATIC_ROOT=str(collected),
        DEBUG="0",
        SECRET_KEY="static-files-test-only-not-a-real-secret-key-0123456789",
        ALLOWED_HOSTS="127.0.0.1",
        # Python shows a warning once per place; "always" makes every response's count.
        PYTHONWARNINGS="always",
    )
    running = start_server(environ, tmp_path_factory.mktemp("server") / "uvicorn.log")
    yield running
    running.stop()


def hashed_name(collected: Path, name: str) -> str:
    return json.loads((collected / "staticfiles.json").read_text())["paths"][name]


def test_a_hashed_file_is_served_with_its_type_and_cached_for_good(
    server: Server, collected: Path
) -> None:
    url = f"{server.url}/static/{hashed_name(collected, 'css/site.css')}"
    with httpx.Client() as client:
        answers = [client.get(url, headers={"Accept-Encoding": "identity"}) for _ in range(3)]
    for answer in answers:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/css")
        assert TEN_YEARS in answer.headers["cache-control"]
        assert "immutable" in answer.headers["cache-control"]
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"
        assert answer.content == SITE_CSS.read_bytes()
    # Django warned as it started streaming each answer (stderr is written line by line).
    assert "synchronous iterators" not in server.log()
    assert "Warning" not in server.log()


def test_compressed_copies_go_to_clients_that_accept_them(server: Server, collected: Path) -> None:
    url = f"{server.url}/static/{hashed_name(collected, 'css/site.css')}"
    answer = httpx.get(url, headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200
    assert answer.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in answer.headers["vary"]
    assert answer.content == SITE_CSS.read_bytes()  # httpx decompressed it


def test_an_unhashed_name_is_cached_briefly_and_an_unknown_one_is_django_s_404(
    server: Server,
) -> None:
    answer = httpx.get(f"{server.url}/static/css/site.css")
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == f"max-age={static_files.MAX_AGE}, public"
    missing = httpx.get(f"{server.url}/static/css/no-such-file.css")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("text/html")  # Django's page


@pytest.fixture
def debug_app(settings):
    """The site's HTTP application as built with DEBUG on (the demo's, the tests' servers)."""
    from harbormaster.asgi import django_http_app

    settings.DEBUG = True
    return static_files.with_static_files(django_http_app)


def fetch(application, path: str, method: str = "GET") -> dict:
    """``path`` from ``application`` in this process."""

    async def get() -> dict:
        communicator = HttpCommunicator(
            application, method, path, headers=[(b"host", b"localhost")]
        )
        return await communicator.get_response(timeout=10)

    return async_to_sync(get)()


def test_with_debug_on_source_files_are_served_from_the_finders(debug_app, monkeypatch) -> None:
    """The site's own folder and an app's (the admin's) both answer, never cached."""
    import django.contrib.admin

    from web.http.asgi_handler import OneThreadASGIHandler

    def no_django(*args, **kwargs):
        raise AssertionError("a static file went through Django's handler")

    monkeypatch.setattr(OneThreadASGIHandler, "__call__", no_django)
    own = fetch(debug_app, "/static/css/site.css")
    assert own["status"] == 200
    assert own["body"] == SITE_CSS.read_bytes()
    headers = dict(own["headers"])
    assert headers[b"content-type"].startswith(b"text/css")
    assert headers[b"cache-control"] == b"max-age=0, public"
    admin = fetch(debug_app, "/static/admin/css/base.css")
    assert admin["status"] == 200
    assert (
        admin["body"]
        == (Path(django.contrib.admin.__file__).parent / "static/admin/css/base.css").read_bytes()
    )


def test_a_file_is_sent_without_a_thread_pool_of_its_own(debug_app, monkeypatch) -> None:
    """ServeStatic's ``AsyncFile`` (a thread pool per response, a hop per chunk) is not used:
    the answer goes by ``http.response.pathsend``, which ``StaticFiles`` carries out."""
    import servestatic.responders

    def no_async_file(*args, **kwargs):
        raise AssertionError("ServeStatic opened an AsyncFile")

    monkeypatch.setattr(servestatic.responders, "AsyncFile", no_async_file)
    assert fetch(debug_app, "/static/css/site.css")["body"] == SITE_CSS.read_bytes()
    assert fetch(debug_app, "/static/css/site.css", method="HEAD")["body"] == b""


@pytest.mark.django_db
def test_pages_still_reach_django(debug_app) -> None:
    page = fetch(debug_app, "/")
    assert page["status"] == 200
    assert b"<h1>Harbormaster</h1>" in page["body"]


def test_a_file_larger_than_a_chunk_is_sent_whole_in_chunks(tmp_path: Path) -> None:
    data = bytes(range(256)) * (static_files.CHUNK // 256 * 2 + 3)
    path = tmp_path / "big.bin"
    path.write_bytes(data)
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    async_to_sync(static_files.send_file)(str(path), send)
    assert b"".join(message["body"] for message in sent) == data
    assert [message["more_body"] for message in sent] == [True, True, False]
