"""The site the real-browser tests visit, served from the test database, and signing in to it.

The site runs in a uvicorn subprocess on the test's PostgreSQL database in the
embedded mode (Celery's worker and beat in that process, in-memory channel
layer), so those tests need PostgreSQL: another process cannot see an
in-memory SQLite test database.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from web.sockets.limits import WS_MAX_SIZE

ROOT = Path(__file__).resolve().parents[2]


def wait_for(condition: Callable[[], object], what: str, timeout: float = 10) -> object:
    """``condition()``'s first truthy value, polled every 50 ms; fails after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def admin_messages(browser: WebDriver) -> list[str]:
    """The admin's messages; none yet while the page is being replaced (``wait_for`` asks again)."""
    try:
        return [m.text for m in browser.find_elements(By.CSS_SELECTOR, ".messagelist li")]
    except StaleElementReferenceException:
        return []


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


@contextmanager
def served_site() -> Iterator[str]:
    """uvicorn on a free loopback port serving this test's database; yields its base URL."""
    db = connection.settings_dict
    login = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    url = f"postgres://{login}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": "", "ALLOWED_HOSTS": "127.0.0.1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "harbormaster.asgi:application",
         "--host", "127.0.0.1", "--port", str(port), "--ws-max-size", str(WS_MAX_SIZE),
         "--forwarded-allow-ips", env.get("TRUSTED_PROXIES", "")],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _answers(base + "/healthz"), "the server to start", 30)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def session_for(user) -> str:
    """A signed-in session of ``user`` in the database (the value of a sessionid cookie)."""
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = settings.AUTHENTICATION_BACKENDS[0]
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def sign_in(browser: WebDriver, user) -> None:
    """Sign ``browser`` in as ``user`` on the site it shows now (a session cookie)."""
    browser.add_cookie({"name": "sessionid", "value": session_for(user), "path": "/"})
